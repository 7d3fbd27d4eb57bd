-- locality_uuid: move a database from the portable SQL edition to the C extension, in one
-- transaction, keeping every column DEFAULT that calls the SQL edition:
--
--     psql -v schema=ids -f portable/locality_uuid_portable_to_extension.sql
--
-- Run it as a role that owns the SQL edition's functions and the tables whose DEFAULTs call
-- them, and that may CREATE EXTENSION (the extension is trusted: CREATE on the database is
-- enough), once the extension's files are installed on the server. The DEFAULTs are dropped,
-- the SQL edition's functions are dropped, the extension is created in the same schema and
-- the DEFAULTs are set again from their text, which now names the extension's functions; the
-- schema of the edition's helpers, <schema>_internal, is dropped. Other
-- objects that use the SQL functions (expression indexes, generated columns, CHECK
-- constraints, partition keys, views) stop the move with an error that lists them: see
-- docs/portable.md for moving those. DEFAULTs that call the edition's uuidv7, uuidv4,
-- uuid_extract_timestamp or uuid_extract_version (made where the server lacked them) call them
-- unqualified afterwards: the extension's, in pg_catalog, or core's.

\set ON_ERROR_STOP on
\if :{?schema}
\else
\set schema public
\endif

SELECT :'schema' || '_internal' AS locality_uuid_internal \gset

BEGIN;
-- An empty search_path makes pg_get_expr write every name with its schema.
SELECT pg_catalog.set_config('search_path', '', true) AS locality_uuid_search_path \gset

-- The edition's functions: every function of <schema>_internal, and those of the install schema
-- that the install made, as it recorded them in <schema>_internal.locality_uuid_portable_made
-- (a function of yours there that the install did not make stays, whatever its name).
SELECT pg_catalog.to_regclass(pg_catalog.format('%I.locality_uuid_portable_made', :'locality_uuid_internal')) IS NOT NULL
       AND pg_catalog.to_regclass(pg_catalog.format('%I.locality_uuid_portable_explicit', :'schema')) IS NOT NULL
       AS locality_uuid_found \gset
\if :locality_uuid_found
\else
SELECT pg_catalog.set_config('locality_uuid_portable.schema', :'schema', true) AS locality_uuid_schema \gset
DO $$ BEGIN
    RAISE EXCEPTION 'the portable edition of locality_uuid is not installed in schema %',
                    pg_catalog.current_setting('locality_uuid_portable.schema')
        USING ERRCODE = 'undefined_function',
              HINT = 'An install of an earlier version keeps no record of its functions (<schema>_internal.locality_uuid_portable_made): install this version over it first.';
END $$;
\endif

CREATE TEMP TABLE locality_uuid_portable_functions ON COMMIT DROP AS
SELECT p.oid
FROM pg_catalog.pg_proc p
WHERE p.pronamespace = pg_catalog.quote_ident(:'locality_uuid_internal')::pg_catalog.regnamespace
   OR p.oid IN (SELECT pg_catalog.to_regprocedure(pg_catalog.quote_ident(:'schema') OPERATOR(pg_catalog.||) '.'
                                                  OPERATOR(pg_catalog.||) m.signature)
                FROM :"locality_uuid_internal".locality_uuid_portable_made m);

-- Everything that uses the SQL functions, but for column DEFAULTs and the edition's own
-- functions, stops the move (the SQL edition's own sequences are dropped with it).
SELECT pg_catalog.count(*) = 0 AS locality_uuid_only_defaults,
       coalesce(pg_catalog.string_agg(pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid),
                                                 ', '), '') AS locality_uuid_others
FROM pg_catalog.pg_depend d
WHERE d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
  AND d.refobjid IN (SELECT oid FROM locality_uuid_portable_functions)
  AND d.classid <> 'pg_catalog.pg_attrdef'::pg_catalog.regclass
  AND NOT (d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
           AND d.objid IN (SELECT oid FROM locality_uuid_portable_functions)) \gset
\if :locality_uuid_only_defaults
\else
SELECT pg_catalog.set_config('locality_uuid_portable.others', :'locality_uuid_others', true) AS locality_uuid_others \gset
DO $$ BEGIN
    RAISE EXCEPTION 'objects other than column defaults use the portable edition of locality_uuid'
        USING ERRCODE = 'dependent_objects_still_exist',
              DETAIL = 'Used by: ' || pg_catalog.current_setting('locality_uuid_portable.others') || '.',
              HINT = 'Drop them, move, and create them again (see docs/portable.md).';
END $$;
\endif

-- The text of each DEFAULT, core's names unqualified (the schema's name escaped for the pattern).
CREATE TEMP TABLE locality_uuid_portable_defaults ON COMMIT DROP AS
SELECT ad.adrelid::pg_catalog.regclass::pg_catalog.text AS rel, a.attname,
       pg_catalog.regexp_replace(pg_catalog.pg_get_expr(ad.adbin, ad.adrelid),
           '(?<![[:alnum:]_$".])'
           || pg_catalog.regexp_replace(pg_catalog.quote_ident(:'schema'), '([^[:alnum:]_])', '\\\1', 'g')
           || '\.(uuidv7|uuidv4|uuid_extract_timestamp|uuid_extract_version)(?=\()', '\1', 'g') AS expr
FROM pg_catalog.pg_attrdef ad
JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
WHERE ad.oid IN (SELECT d.objid FROM pg_catalog.pg_depend d
                 WHERE d.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
                   AND d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
                   AND d.refobjid IN (SELECT oid FROM locality_uuid_portable_functions));

SELECT pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', rel, attname)
FROM locality_uuid_portable_defaults \gexec

-- In one statement: they call each other.
SELECT 'DROP FUNCTION ' OPERATOR(pg_catalog.||) pg_catalog.string_agg(oid::pg_catalog.regprocedure::pg_catalog.text, ', ')
FROM locality_uuid_portable_functions \gexec
DROP TABLE :"locality_uuid_internal".locality_uuid_portable_made;
DROP SEQUENCE :"schema".locality_uuid_portable_explicit;
DROP SEQUENCE IF EXISTS :"schema".locality_uuid_portable_v7_explicit;
-- The helpers' schema, empty now (anything else in it stops the move).
DROP SCHEMA IF EXISTS :"locality_uuid_internal";

CREATE EXTENSION locality_uuid SCHEMA :"schema";

SELECT pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', rel, attname, expr)
FROM locality_uuid_portable_defaults \gexec

SELECT pg_catalog.count(*) AS defaults_moved FROM locality_uuid_portable_defaults;
COMMIT;
