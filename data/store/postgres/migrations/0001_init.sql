-- compat: breaking (the first schema: nothing before it)
-- fiplan's tables. Identifiers and keys use the "C" collation so that every
-- ORDER BY is byte order, as in the bbolt store, whatever the database's
-- default collation.

CREATE TABLE meta (
	name  text COLLATE "C" PRIMARY KEY,
	value bytea NOT NULL
);

CREATE TABLE users (
	id         text COLLATE "C" PRIMARY KEY,
	tier       text NOT NULL,
	created_at timestamptz NOT NULL,
	updated_at timestamptz NOT NULL
);

-- JSON documents (profile, settings, notifications), kept byte for byte.
CREATE TABLE docs (
	user_id text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name    text COLLATE "C" NOT NULL,
	body    bytea NOT NULL,
	PRIMARY KEY (user_id, name)
);

-- One row per asset; seq orders a user's assets by creation. An ISIN is
-- held by at most one asset per user (NULL when the asset has none).
CREATE TABLE assets (
	user_id  text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	id       text COLLATE "C" NOT NULL,
	seq      bigint GENERATED ALWAYS AS IDENTITY,
	isin     text COLLATE "C",
	category smallint NOT NULL,
	doc      bytea NOT NULL,
	PRIMARY KEY (user_id, id),
	CONSTRAINT assets_user_isin UNIQUE (user_id, isin)
);
CREATE INDEX assets_user_seq ON assets (user_id, seq);

-- API keys by the SHA-256 of the plain key, which is never stored.
CREATE TABLE api_keys (
	hash         bytea PRIMARY KEY CHECK (length(hash) = 32),
	user_id      text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	id           text COLLATE "C" NOT NULL,
	name         text NOT NULL,
	hint         text NOT NULL,
	created_at   timestamptz NOT NULL,
	last_used_at timestamptz,
	CONSTRAINT api_keys_user_key UNIQUE (user_id, id)
);

CREATE TABLE flags (
	key text COLLATE "C" PRIMARY KEY,
	def bytea NOT NULL
);

-- The variant each user got of a flag. Users without an account are
-- recorded too, so user_id references nothing.
CREATE TABLE exposures (
	flag    text COLLATE "C" NOT NULL REFERENCES flags (key) ON DELETE CASCADE,
	user_id text COLLATE "C" NOT NULL,
	variant text NOT NULL,
	PRIMARY KEY (flag, user_id)
);
CREATE INDEX exposures_user ON exposures (user_id);
