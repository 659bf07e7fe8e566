-- compat: expand (a new table and a trigger; older binaries neither read the table nor write flags the trigger refuses)
-- A counter that every change to the flags table moves, by any node or by
-- hand, so that nodes can poll one row instead of reading every flag.

CREATE TABLE flags_version (
	one     boolean PRIMARY KEY DEFAULT true CHECK (one),
	version bigint NOT NULL
);
INSERT INTO flags_version (version) VALUES (0);

CREATE FUNCTION fiplan_bump_flags_version() RETURNS trigger LANGUAGE plpgsql
	SET search_path FROM CURRENT AS $$
BEGIN
	UPDATE flags_version SET version = version + 1;
	RETURN NULL;
END
$$;

CREATE TRIGGER flags_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON flags
	FOR EACH STATEMENT EXECUTE FUNCTION fiplan_bump_flags_version();
