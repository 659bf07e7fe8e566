-- compat: expand (a new table and function; older binaries neither read nor call them)
-- A saved plan's watch: its expected path and FI number by year, which
-- each asset write of its user compares with the assets' total. It goes
-- with its plan. fiplan_unwatched fails the statement, and with it the
-- pipeline of an asset write, when the user has a watched plan: the write
-- is then made again in a transaction that judges the assets.
CREATE TABLE plan_watch (
	user_id text COLLATE "C" NOT NULL,
	plan_id text COLLATE "C" NOT NULL,
	doc     bytea NOT NULL,
	PRIMARY KEY (user_id, plan_id),
	FOREIGN KEY (user_id, plan_id) REFERENCES plans (user_id, id) ON DELETE CASCADE
);

CREATE FUNCTION fiplan_unwatched(u text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM plan_watch WHERE user_id = u) THEN
		RAISE EXCEPTION 'the user has watched plans' USING ERRCODE = 'FPWCH';
	END IF;
	RETURN true;
END
$$;
