-- Volatility, parallel safety and strictness of every function, read from pg_proc.
SELECT p.oid::regprocedure AS function,
       CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END AS volatility,
       CASE p.proparallel WHEN 's' THEN 'safe' WHEN 'r' THEN 'restricted' ELSE 'unsafe' END AS parallel,
       p.proisstrict AS strict,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'locality_uuid'
ORDER BY p.oid::regprocedure::text;

-- The extension is trusted and relocatable, in every version.
SELECT version, trusted, relocatable FROM pg_available_extension_versions
WHERE name = 'locality_uuid' ORDER BY version;
