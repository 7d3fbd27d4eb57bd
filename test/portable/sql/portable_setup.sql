-- Install the portable SQL edition into public, as a user would with psql -f (quietly: the
-- suite checks what the functions do, not what the installer prints).
\set ECHO none
\set QUIET on
\set schema public
\i portable/locality_uuid_portable.sql
\set QUIET off
\set ECHO all
-- The edition's functions, and core's names (and the helper of uuidv7) where the server lacks
-- them (portable_v7).
SELECT count(*) FILTER (WHERE proname NOT IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version', 'locality_uuid_portable_v7'))
           AS functions,
       count(*) FILTER (WHERE proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version', 'locality_uuid_portable_v7'))
       = CASE current_setting('server_version_num')::integer / 10000 WHEN 15 THEN 6 WHEN 16 THEN 6 WHEN 17 THEN 4
                                                                     ELSE 0 END AS core_names
FROM pg_proc WHERE pronamespace = 'public'::regnamespace;
