-- compat: expand (a new table; older binaries neither read nor write it)
-- Idempotency-Key claims: a create's answer kept for a while, so that a
-- retried create answers again instead of storing a second record. No
-- foreign key: a claim may come before the user's account row.
CREATE TABLE idempotency (
	user_id text COLLATE "C" NOT NULL,
	key     text COLLATE "C" NOT NULL,
	hash    bytea NOT NULL,
	at      timestamptz NOT NULL,
	done    boolean NOT NULL DEFAULT false,
	status  integer NOT NULL DEFAULT 0,
	body    bytea,
	PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_at ON idempotency (at);
