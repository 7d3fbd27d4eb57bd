-- locality_uuid: remove the portable SQL edition from a database without losing anything that
-- uses it, in one transaction:
--
--     psql -v schema=ids -f portable/locality_uuid_portable_remove.sql
--
-- Run it as the role that installed the edition. The edition is every function of
-- <schema>_internal, the functions of the install schema that the install made (it keeps their
-- signatures in <schema>_internal.locality_uuid_portable_made: a function of yours there that
-- the install did not make is never taken, whatever its name), that record, and its two
-- allocation sequences. Anything else that uses them stops the
-- removal with an error (2BP01) that lists each: column defaults, generated columns, indexes,
-- views, constraints, triggers, policies, partition keys, functions with SQL-standard bodies
-- (all recorded in pg_depend), and functions whose PL/pgSQL or string bodies name an edition's
-- function or <schema>_internal. Nothing is dropped then. With none, the edition's objects
-- are dropped without CASCADE and so is <schema>_internal; the install schema stays (drop it
-- with DROP SCHEMA, without CASCADE, if it is empty and yours).

\set ON_ERROR_STOP on
\if :{?schema}
\else
\set schema public
\endif

SELECT :'schema' || '_internal' AS locality_uuid_internal \gset

BEGIN;
SET LOCAL search_path = pg_catalog, pg_temp;
SET LOCAL client_min_messages = warning;

-- The edition's record and its allocation sequence must be there, the installing role's.
SELECT format('DO $locality_uuid_refuse$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, HINT = %L; END $locality_uuid_refuse$',
              'the portable edition of locality_uuid is not installed in schema ' || quote_ident(:'schema')
              || ' by ' || quote_ident(current_user), 'undefined_function',
              'An install of an earlier version keeps no record of its functions (' || quote_ident(:'locality_uuid_internal')
              || '.locality_uuid_portable_made): install this version over it first.')
WHERE NOT EXISTS (SELECT FROM pg_class c
                  WHERE c.oid = to_regclass(format('%I.locality_uuid_portable_made', :'locality_uuid_internal'))
                    AND c.relowner = current_user::regrole)
   OR NOT EXISTS (SELECT FROM pg_class c
                  WHERE c.oid = to_regclass(format('%I.locality_uuid_portable_explicit', :'schema'))
                    AND c.relkind = 'S' AND c.relowner = current_user::regrole)
\gexec

-- The edition's objects, as (classid, objid): the functions of <schema>_internal, those of the
-- install schema it recorded, its sequences.
CREATE TEMP TABLE locality_uuid_portable_objects ON COMMIT DROP AS
SELECT 'pg_proc'::regclass AS classid, p.oid AS objid
FROM pg_proc p
WHERE p.pronamespace = quote_ident(:'locality_uuid_internal')::regnamespace
   OR p.oid IN (SELECT to_regprocedure(quote_ident(:'schema') || '.' || m.signature)
                FROM :"locality_uuid_internal".locality_uuid_portable_made m)
UNION ALL
SELECT 'pg_class'::regclass, c.oid
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = :'schema' AND c.relkind = 'S' AND c.relowner = current_user::regrole
  AND c.relname IN ('locality_uuid_portable_explicit', 'locality_uuid_portable_v7_explicit');

-- What uses them, outside the edition: recorded dependencies, and bodies kept as text (PL/pgSQL,
-- SQL functions written as strings) that name one of its functions or <schema>_internal.
CREATE TEMP TABLE locality_uuid_portable_dependents ON COMMIT DROP AS
SELECT CASE WHEN a.attgenerated <> '' THEN 'generated ' || pg_describe_object('pg_class'::regclass, a.attrelid, a.attnum)
            WHEN r.rulename = '_RETURN' THEN pg_describe_object('pg_class'::regclass, r.ev_class, 0)
            ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END AS object
FROM pg_depend d
LEFT JOIN pg_attrdef ad ON d.classid = 'pg_attrdef'::regclass AND ad.oid = d.objid
LEFT JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
LEFT JOIN pg_rewrite r ON d.classid = 'pg_rewrite'::regclass AND r.oid = d.objid
WHERE (d.refclassid, d.refobjid) IN (SELECT classid, objid FROM locality_uuid_portable_objects)
  AND (d.classid, d.objid) NOT IN (SELECT classid, objid FROM locality_uuid_portable_objects)
UNION
SELECT pg_describe_object('pg_proc'::regclass, p.oid, 0) || ' (its body names them)'
FROM pg_proc p
WHERE p.oid NOT IN (SELECT objid FROM locality_uuid_portable_objects WHERE classid = 'pg_proc'::regclass)
  AND p.pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  AND p.prolang NOT IN (SELECT oid FROM pg_language WHERE lanname IN ('internal', 'c'))
  -- nor an extension's, nor one of another install of the edition (in S_internal, or named as
  -- the edition's in S, where S_internal holds the edition's state helper)
  AND NOT EXISTS (SELECT FROM pg_depend e
                  WHERE e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e')
  AND NOT EXISTS (SELECT FROM pg_namespace s, pg_namespace i, pg_proc q
                  WHERE s.oid = p.pronamespace AND q.pronamespace = i.oid
                    AND q.proname = 'locality_uuid_portable_state'
                    AND (i.oid = s.oid OR (i.nspname = s.nspname || '_internal'
                                           AND p.proname IN (SELECT r.proname FROM pg_proc r
                                                             WHERE r.oid IN (SELECT objid FROM locality_uuid_portable_objects
                                                                             WHERE classid = 'pg_proc'::regclass)))))
  -- in any case: unquoted names are folded to lower case (IDS.HOT_UUID is ids.hot_uuid), and a
  -- quoted one ("ids"."hot_uuid") matches between its quotes; a quoted name in other case is
  -- listed too, which at worst lists a body that names another function
  AND (p.prosrc ~* ('\m(' || (SELECT string_agg(DISTINCT q.proname, '|') FROM pg_proc q
                               WHERE q.oid IN (SELECT objid FROM locality_uuid_portable_objects
                                               WHERE classid = 'pg_proc'::regclass)) || ')\M')
       OR strpos(lower(p.prosrc), lower(:'locality_uuid_internal')) > 0);

SELECT format('DO $locality_uuid_refuse$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, DETAIL = %L, HINT = %L; END $locality_uuid_refuse$',
              count(*) || ' objects use the portable edition of locality_uuid in schema ' || quote_ident(:'schema'),
              'dependent_objects_still_exist',
              'Used by: ' || string_agg(object, '; ' ORDER BY object) || '.',
              'Drop or change them first (ALTER TABLE ... ALTER COLUMN ... DROP DEFAULT or DROP EXPRESSION, DROP INDEX, '
              || 'DROP VIEW, ...), or move to the C extension with locality_uuid_portable_to_extension.sql; '
              || 'DROP ... CASCADE would drop them, and a generated column''s data with them.')
FROM locality_uuid_portable_dependents
HAVING count(*) > 0
\gexec

SELECT 'DROP FUNCTION ' || string_agg(objid::regprocedure::text, ', ')
FROM locality_uuid_portable_objects WHERE classid = 'pg_proc'::regclass
HAVING count(*) > 0
\gexec
SELECT 'DROP SEQUENCE ' || string_agg(objid::regclass::text, ', ')
FROM locality_uuid_portable_objects WHERE classid = 'pg_class'::regclass
\gexec
DROP TABLE :"locality_uuid_internal".locality_uuid_portable_made;
DROP SCHEMA :"locality_uuid_internal";
COMMIT;

\unset locality_uuid_internal
