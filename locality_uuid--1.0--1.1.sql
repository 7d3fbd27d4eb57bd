/* locality_uuid--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.1'" to load this file. \quit

-- Generator state shared by the cluster's backends (issue 11).
CREATE FUNCTION locality_uuid_state()
RETURNS text
AS 'MODULE_PATHNAME', 'locality_uuid_state'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_state() IS
'Which generator state this backend uses: dsm_registry (shared, PostgreSQL 17 and later), preload (shared, 15 and 16 with locality_uuid in shared_preload_libraries) or backend (per backend: 15 and 16 without preload)';
