-- Install the portable SQL edition into public, as a user would with psql -f (quietly: the
-- suite checks what the functions do, not what the installer prints).
\set ECHO none
\set QUIET on
\set schema public
\i portable/locality_uuid_portable.sql
\set QUIET off
\set ECHO all
SELECT count(*) AS functions FROM pg_proc WHERE pronamespace = 'public'::regnamespace;
