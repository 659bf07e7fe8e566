-- compat: expand (a new table; older binaries neither read nor write it)
-- The queue of mail that is no event's (a verification mail): a mail is
-- claimable when next_at has passed, next_at being its retry time or the
-- end of the lease of the worker that claimed it. A mail leaves the queue
-- when it is sent or given up; it goes with the user's row.
CREATE TABLE mails (
	id         text COLLATE "C" PRIMARY KEY,
	user_id    text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	kind       text NOT NULL,
	recipient  text NOT NULL,
	attempts   integer NOT NULL DEFAULT 0,
	next_at    timestamptz NOT NULL,
	last_error text NOT NULL DEFAULT '',
	lease      text NOT NULL DEFAULT '',
	created_at timestamptz NOT NULL
);
CREATE INDEX mails_due ON mails (next_at);
