-- compat: expand (a new table and a nullable column; older binaries neither read the table nor the column)
-- Revoked sign-in sessions and spent one-use values, each until it
-- expires; the index finds the expired ones to forget.
CREATE TABLE revocations (
	id    text COLLATE "C" PRIMARY KEY,
	until timestamptz NOT NULL
);
CREATE INDEX revocations_until ON revocations (until);

-- When the credential that last set a user's tier was issued, so that an
-- older credential still in use cannot undo a newer one's tier. NULL: not
-- known (written before this column, or by an older binary).
ALTER TABLE users ADD COLUMN tier_at timestamptz;
