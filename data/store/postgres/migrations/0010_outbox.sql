-- compat: expand (new tables; older binaries neither read nor write them)
-- Webhook endpoints, the events raised about a user (the outbox) and their
-- deliveries to the endpoints. They go with the user's row. A delivery is
-- claimable when it is pending and next_at has passed: next_at is its
-- retry time, or the end of the lease of the worker that claimed it.
CREATE TABLE webhooks (
	user_id    text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	id         text COLLATE "C" NOT NULL,
	url        text NOT NULL,
	events     text[] NOT NULL,
	secret     text NOT NULL,
	created_at timestamptz NOT NULL,
	PRIMARY KEY (user_id, id)
);

CREATE TABLE events (
	id         text COLLATE "C" PRIMARY KEY,
	user_id    text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	seq        bigint GENERATED ALWAYS AS IDENTITY,
	doc        bytea NOT NULL
);
CREATE INDEX events_user_seq ON events (user_id, seq);

CREATE TABLE deliveries (
	id          text COLLATE "C" PRIMARY KEY,
	user_id     text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	seq         bigint GENERATED ALWAYS AS IDENTITY,
	event_id    text COLLATE "C" NOT NULL REFERENCES events (id) ON DELETE CASCADE,
	event_type  text NOT NULL,
	webhook_id  text COLLATE "C" NOT NULL,
	status      text NOT NULL,
	attempts    integer NOT NULL DEFAULT 0,
	next_at     timestamptz NOT NULL,
	last_status integer NOT NULL DEFAULT 0,
	last_error  text NOT NULL DEFAULT '',
	lease       text NOT NULL DEFAULT '',
	created_at  timestamptz NOT NULL,
	updated_at  timestamptz NOT NULL
);
CREATE INDEX deliveries_user_seq ON deliveries (user_id, seq);
CREATE INDEX deliveries_due ON deliveries (next_at) WHERE status = 'pending';
