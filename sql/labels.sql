-- C edition only (the portable suite leaves this file out).
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

-- PostgreSQL 18's version 7 and 4 functions: the extension's below the major that has them in
-- core (17 has uuid_extract_timestamp and uuid_extract_version, 18 all five), core's from it on;
-- the same arguments, labels and results either way, and core 18's comments on the extension's.
SELECT c.sig AS function,
       pg_get_function_arguments(p.oid) AS arguments,
       p.prorettype::regtype AS returns,
       p.provolatile AS vol, p.proparallel AS par, p.proisstrict AS strict, p.proleakproof AS leakproof,
       (m.objid IS NOT NULL) = (current_setting('server_version_num')::integer < c.core_from) AS owner_as_expected,
       m.objid IS NULL OR obj_description(p.oid, 'pg_proc') = c.comment AS comment_as_core_18
FROM (VALUES ('uuidv7()', 180000, 'generate UUID version 7'),
             ('uuidv7(interval)', 180000, 'generate UUID version 7 with a timestamp shifted by specified interval'),
             ('uuidv4()', 180000, 'generate UUID version 4'),
             ('uuid_extract_timestamp(uuid)', 170000, 'extract timestamp from UUID'),
             ('uuid_extract_version(uuid)', 170000, 'extract version from RFC 9562 UUID')) AS c(sig, core_from, comment)
LEFT JOIN pg_proc p ON p.oid = to_regprocedure('pg_catalog.' || c.sig)
LEFT JOIN pg_depend m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid AND m.deptype = 'e'
     AND m.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'locality_uuid')
ORDER BY c.sig;

-- The extension is trusted and relocatable, in every version.
SELECT version, trusted, relocatable FROM pg_available_extension_versions
WHERE name = 'locality_uuid' ORDER BY version;
