-- Before the objects: PostgreSQL 18's names, which the extension adds to pg_catalog below 18 ---

-- pg_catalog is searched before every other schema, so a uuidv7() of the extension there would
-- take over the calls that other roles' functions make of their own uuidv7() (PL/pgSQL,
-- string bodies, search_path = public), or make them ambiguous. CREATE EXTENSION refuses
-- while a schema other than pg_catalog has a function of one of the names it would add;
-- ALTER EXTENSION UPDATE does not check these names (an update script checks those it adds to
-- the extension's schema: src/pg/name_check.sql). The extension's own functions left in
-- pg_catalog by locality_uuid_release_core_names() are taken back. It runs as a superuser for
-- the role that creates the extension: every operator has exact pg_catalog types (found there
-- first), every function is qualified.
DO $$
DECLARE
    v integer := pg_catalog.current_setting('server_version_num')::integer;
    names text[];
    conflicts text[] := ARRAY[]::text[];
    adopt text[] := ARRAY[]::text[];
    f record;
    fn text;
BEGIN
    names := CASE
        WHEN v < 170000 THEN ARRAY['uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version']
        WHEN v < 180000 THEN ARRAY['uuidv7', 'uuidv4']
        ELSE ARRAY[]::text[]
    END;
    FOR f IN
        SELECT n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args,
               n.nspname = 'pg_catalog'
               AND p.prolang = (SELECT l.oid FROM pg_catalog.pg_language AS l WHERE l.lanname = 'c')
               AND p.probin = 'MODULE_PATHNAME'
               AND (p.proname, pg_catalog.oidvectortypes(p.proargtypes)) IN
                   (('uuidv7', ''), ('uuidv7', 'interval'), ('uuidv4', ''),
                    ('uuid_extract_timestamp', 'uuid'), ('uuid_extract_version', 'uuid'))
               AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend AS d
                               WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                                 AND d.objid = p.oid AND d.deptype = 'e') AS released
        FROM pg_catalog.pg_proc AS p
        JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
        WHERE p.proname = ANY (names)
        ORDER BY n.nspname, p.proname, 3
    LOOP
        IF f.released THEN
            adopt := pg_catalog.array_append(adopt, pg_catalog.format('pg_catalog.%I(%s)', f.proname, f.args));
        ELSE
            conflicts := pg_catalog.array_append(conflicts, pg_catalog.format('%I.%I(%s)', f.nspname, f.proname, f.args));
        END IF;
    END LOOP;

    IF pg_catalog.cardinality(conflicts) > 0 THEN
        RAISE EXCEPTION 'cannot create extension locality_uuid beside functions named as those it adds to pg_catalog'
            USING ERRCODE = 'duplicate_function',
                  DETAIL = pg_catalog.format('Below PostgreSQL 18 the extension creates %s in pg_catalog, which is '
                      'searched before every other schema, so code that calls these existing functions by name '
                      'would call the extension''s instead, or fail as ambiguous: %s.',
                      pg_catalog.array_to_string(names, ', '), pg_catalog.array_to_string(conflicts, ', ')),
                  HINT = 'Drop or rename these functions and change the code that calls them, then create the '
                      'extension again: README.md, "PostgreSQL 18''s names", says how.';
    END IF;

    FOREACH fn IN ARRAY adopt
    LOOP
        EXECUTE pg_catalog.format('ALTER EXTENSION locality_uuid ADD FUNCTION %s', fn);
    END LOOP;
END
$$;
