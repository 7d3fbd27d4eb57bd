-- Before the objects: the names of the functions this script creates in the extension's schema

-- Code that calls a function by name, unqualified, resolves the call among every function of
-- that name on its search_path: a function of the extension named as one of another role's
-- would take over calls made of that role's (an exact argument type where the other needs a
-- cast), or make them ambiguous (42725). The script refuses, before it creates anything, while
-- a function of one of the names it creates exists in any schema and is not the extension's
-- own (an overload it already has), outside the temporary schemas. The names are the script's (src/pg/name_check.sh, at build
-- time). Every operator has exact pg_catalog types (found there first); every function is
-- qualified.
DO $$
DECLARE
    names name[] := '{@NAMES@}';
    ext oid;
    nsp text;
    conflicts text[];
BEGIN
    SELECT e.oid, n.nspname INTO ext, nsp
    FROM pg_catalog.pg_extension AS e
    JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace
    WHERE e.extname = 'locality_uuid';
    SELECT pg_catalog.array_agg(pg_catalog.format('%I.%I(%s)', n.nspname, p.proname,
                                                  pg_catalog.pg_get_function_identity_arguments(p.oid))
                                ORDER BY n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid))
    INTO conflicts
    FROM pg_catalog.pg_proc AS p
    JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
    WHERE p.proname = ANY (names)
      -- no unqualified call reaches a function of a temporary schema (pg_temp is not searched for
      -- functions): another session's, even one left by a crash, stops nothing
      AND NOT pg_catalog.pg_is_other_temp_schema(n.oid)
      AND n.oid <> pg_catalog.pg_my_temp_schema()
      AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend AS d
                      WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                        AND d.objid = p.oid
                        AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
                        AND d.refobjid = ext
                        AND d.deptype = 'e');

    IF conflicts IS NOT NULL THEN
        RAISE EXCEPTION 'cannot @ACTION@ extension locality_uuid beside functions named as those it creates'
            USING ERRCODE = 'duplicate_function',
                  DETAIL = pg_catalog.format('The extension would create functions of these names in schema %I, '
                      'so code that calls these existing functions by name could call the extension''s instead, '
                      'or fail as ambiguous: %s.', nsp, pg_catalog.array_to_string(conflicts, ', ')),
                  HINT = 'Drop or rename these functions and change the code that calls them, then @ACTION@ the '
                      'extension again: README.md, "Install", says how.';
    END IF;
END
$$;
