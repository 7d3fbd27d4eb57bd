-- Volatility, parallel safety and strictness of every function of the portable edition, read
-- from pg_proc (labels.sql reads the extension's; the generators differ, see docs/portable.md).
-- The helpers are in public_internal. Core's names (and the helper of uuidv7), which it
-- defines before PostgreSQL 18 only, are in portable_v7.
SELECT p.oid::regprocedure AS function,
       CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END AS volatility,
       CASE p.proparallel WHEN 's' THEN 'safe' WHEN 'r' THEN 'restricted' ELSE 'unsafe' END AS parallel,
       p.proisstrict AS strict,
       p.prosecdef AS security_definer,
       l.lanname AS language,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace IN ('public'::regnamespace, 'public_internal'::regnamespace)
  AND p.proname NOT IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version', 'locality_uuid_portable_v7')
ORDER BY p.oid::regprocedure::text;

-- Argument names and defaults, as psql's \df shows them.
SELECT p.oid::regprocedure AS function, pg_get_function_arguments(p.oid) AS arguments
FROM pg_proc p WHERE p.pronamespace IN ('public'::regnamespace, 'public_internal'::regnamespace) AND p.pronargs > 0
  AND p.proname NOT IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version', 'locality_uuid_portable_v7')
ORDER BY p.oid::regprocedure::text;
