-- compat: expand (a new table; older binaries neither read nor write it)
-- Saved plans: one row per plan, its JSON kept byte for byte; seq orders a
-- user's plans by creation. They go with the user's row.
CREATE TABLE plans (
	user_id text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	id      text COLLATE "C" NOT NULL,
	seq     bigint GENERATED ALWAYS AS IDENTITY,
	doc     bytea NOT NULL,
	PRIMARY KEY (user_id, id)
);
CREATE INDEX plans_user_seq ON plans (user_id, seq);
