/* locality_uuid--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.2'" to load this file. \quit

-- Shard-key uuids at an explicit time ----------------------------------------------------------

-- Block generators: the interval form under a name of its own -----------------------------------

-- Identity of this server -----------------------------------------------------------------------

CREATE FUNCTION locality_uuid_identity(
    OUT node integer,
    OUT node_source text,
    OUT node_file text,
    OUT node_line integer,
    OUT mac text,
    OUT mac_interface text,
    OUT machine_hash bytea,
    OUT machine_name text,
    OUT machine_source text,
    OUT machine_file text,
    OUT machine_line integer,
    OUT process_field text,
    OUT system_identifier bigint,
    OUT timeline bigint,
    OUT in_recovery boolean,
    OUT state text)
RETURNS record
AS 'MODULE_PATHNAME', 'locality_uuid_identity'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_identity() IS
'This server''s identity as the generators see it, and where each part came from: the node field of locality uuids (setting or MAC), the machine hash of hot_uuid (setting or host name), the process field, the system identifier, the timeline and the state; files, lines, MAC and host name only for roles with the privileges of pg_read_all_settings';
