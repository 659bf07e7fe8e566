-- compat: expand (a new function; older binaries do not call it)
-- fiplan_limit fails the statement, and with it the transaction, when a
-- count passes its limit: a create sent as one pipeline checks the user's
-- cap after its insert without a round trip back to the node.
CREATE FUNCTION fiplan_limit(n bigint, max bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	IF n > max THEN
		RAISE EXCEPTION 'over the limit of %', max USING ERRCODE = 'FPLIM';
	END IF;
	RETURN n;
END
$$;
