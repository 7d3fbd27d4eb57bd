-- Install the portable SQL edition into public, as a user would with psql -f (quietly: the
-- suite checks what the functions do, not what the installer prints).
\set ECHO none
\set QUIET on
\set schema public
\i portable/locality_uuid_portable.sql
\set QUIET off
\set ECHO all
-- The edition's functions, as many as its sources make (test/portable/functions.sh), and core's
-- names where the server lacks them (portable_v7); its helpers in public_internal, as many as its
-- sources make (with the helper of uuidv7 where core's names are made).
\set edition_functions `sh test/portable/functions.sh extschema`
\set edition_helpers `sh test/portable/functions.sh internal`
SELECT count(*) FILTER (WHERE proname NOT IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version'))
       = :edition_functions AS functions,
       count(*) FILTER (WHERE proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version'))
       = CASE current_setting('server_version_num')::integer / 10000 WHEN 15 THEN 5 WHEN 16 THEN 5 WHEN 17 THEN 3
                                                                     ELSE 0 END AS core_names
FROM pg_proc WHERE pronamespace = 'public'::regnamespace;
SELECT count(*) FILTER (WHERE proname <> 'locality_uuid_portable_v7') = :edition_helpers AS helpers,
       count(*) FILTER (WHERE proname = 'locality_uuid_portable_v7')
       = CASE WHEN current_setting('server_version_num')::integer < 180000 THEN 1 ELSE 0 END AS core_helper,
       count(*) FILTER (WHERE proname NOT LIKE 'locality\_uuid\_portable\_%') AS not_helpers
FROM pg_proc WHERE pronamespace = 'public_internal'::regnamespace;
