-- Volatility, parallel safety and strictness of every function, read from pg_proc.
SELECT p.oid::regprocedure AS function,
       CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END AS volatility,
       CASE p.proparallel WHEN 's' THEN 'safe' WHEN 'r' THEN 'restricted' ELSE 'unsafe' END AS parallel,
       p.proisstrict AS strict,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'locality_uuid' AND p.pronamespace <> 'pg_catalog'::regnamespace
ORDER BY p.oid::regprocedure::text;

-- PostgreSQL 18's version 7 and 4 functions: the extension's below 18, core's from 18 on; the
-- same arguments, labels and comments either way.
SELECT p.oid::regprocedure AS function,
       pg_get_function_arguments(p.oid) AS arguments,
       p.prorettype::regtype AS returns,
       p.provolatile AS vol, p.proparallel AS par, p.proisstrict AS strict,
       obj_description(p.oid, 'pg_proc') AS comment,
       EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
               WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
                 AND e.extname = 'locality_uuid')
         = (current_setting('server_version_num')::integer < 180000) AS owner_as_expected
FROM pg_proc p
WHERE p.pronamespace = 'pg_catalog'::regnamespace
  AND p.proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version')
ORDER BY p.oid::regprocedure::text;

-- The extension is trusted and relocatable, in every version.
SELECT version, trusted, relocatable FROM pg_available_extension_versions
WHERE name = 'locality_uuid' ORDER BY version;
