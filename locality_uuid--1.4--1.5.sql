/* locality_uuid--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.5'" to load this file. \quit

-- Time questions answered by the key: "made since a, before b" as index conditions on the id.

-- (end of time questions)


-- Leases and trust: a running server learns of a restored lease; the extension's own relations only.

-- The database's owner may set the extension's sequences as the extension's owner may (1.4): a
-- restore by the database owner into a database where a superuser created the extension sets
-- them (pg_dump writes setval for each), so that ids made after it sort above the restored ones.
-- pg_database_owner is whoever owns the database at the time; pg_init_privs records the grant,
-- so a dump carries none. The sequences from pg_depend, never by name in the schema.
DO $$
DECLARE
    seq record;
BEGIN
    FOR seq IN
        SELECT n.nspname, c.relname
        FROM pg_catalog.pg_depend AS d
        JOIN pg_catalog.pg_extension AS e ON e.oid = d.refobjid
        JOIN pg_catalog.pg_class AS c ON c.oid = d.objid
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
        WHERE e.extname = 'locality_uuid'
          AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
          AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
          AND d.deptype = 'e'
          AND c.relkind = 'S'
        ORDER BY c.relname
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %I.%I TO pg_database_owner',
                                  seq.nspname, seq.relname);
    END LOOP;
END
$$;

-- (end of leases and trust)


-- Formats: which format could have made an id, and a column's report.

-- (end of formats)
