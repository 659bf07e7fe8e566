-- compat: expand (a new table; older binaries neither read nor write it)
-- When each user was last queued a mail of each kind, written in the
-- transaction that queues the mail: a mail asked for again within its
-- interval (one verification mail a minute) is refused on every node. It
-- goes with the user's row.
CREATE TABLE mail_last (
	user_id   text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	kind      text NOT NULL,
	queued_at timestamptz NOT NULL,
	PRIMARY KEY (user_id, kind)
);
