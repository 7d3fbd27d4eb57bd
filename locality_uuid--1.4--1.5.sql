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
-- so a dump carries none. The sequences are the extension's members (pg_depend), never looked
-- up by name; operators on exact pg_catalog types only, as this runs as a superuser.
DO $$
DECLARE
    seq pg_catalog.regclass;
BEGIN
    FOR seq IN
        SELECT d.objid::pg_catalog.regclass
        FROM pg_catalog.pg_depend AS d
        WHERE d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
          AND d.refobjid = (SELECT e.oid FROM pg_catalog.pg_extension AS e WHERE e.extname = 'locality_uuid')
          AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
          AND d.deptype = 'e'
          AND (SELECT c.relkind FROM pg_catalog.pg_class AS c WHERE c.oid = d.objid) = 'S'
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %s TO pg_database_owner', seq);
    END LOOP;
END
$$;

-- (end of leases and trust)


-- Formats: which format could have made an id, and a column's report.

-- (end of formats)
