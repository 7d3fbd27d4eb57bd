/* locality_uuid--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.2'" to load this file. \quit

-- Shard-key uuids at an explicit time ----------------------------------------------------------

-- Counters of ids at an explicit time are allocation numbers drawn from this sequence, so
-- they never repeat across restarts, crashes, promotions, pg_upgrade or dump and restore.
CREATE SEQUENCE locality_uuid_hot_allocation AS bigint MINVALUE 0 START WITH 0 NO CYCLE;
REVOKE ALL ON SEQUENCE locality_uuid_hot_allocation FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('locality_uuid_hot_allocation', '');

COMMENT ON SEQUENCE locality_uuid_hot_allocation IS
'ranges of 256 counter values for hot_uuid(shard_key, at): do not set or reset it';

ALTER FUNCTION hot_uuid(bigint, timestamptz) PARALLEL UNSAFE;

COMMENT ON FUNCTION hot_uuid(bigint, timestamptz) IS
'new shard-key uuid (HotGuid layout) carrying shard_key, stamped with the second of at (for backfills; mod 2^32); its counter comes from the sequence locality_uuid_hot_allocation, so it is unique across restarts (parallel unsafe: nextval)';

-- Block generators: the interval form under a name of its own -----------------------------------

-- uuid_time_nextval keeps only the (integer, integer) form of sequential_uuids 1.0.3, so that
-- untyped literals, NULL and parameters of unknown type resolve to it as they do there. A rename
-- keeps the function's OID: column defaults and views that call the interval form keep working.
ALTER FUNCTION uuid_time_nextval(interval, integer) RENAME TO uuid_time_nextval_interval;

COMMENT ON FUNCTION uuid_time_nextval_interval(interval, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time in microseconds; the block advances every interval_length (1 ms to 2147483647 s, no months or years) and wraps after interval_count blocks; whole seconds give the prefixes of uuid_time_nextval(integer, integer)';

-- The comments that named the interval form name it anew.
COMMENT ON FUNCTION locality_uuid_block_layout(interval, integer) IS
'what uuid_time_nextval_interval(interval_length, interval_count) makes of its arguments: prefix width in bits, number of prefixes, block length and wrap period in microseconds, and the same as intervals';

COMMENT ON FUNCTION uuid_time_block_start(uuid, interval, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval_interval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';

COMMENT ON FUNCTION locality_uuid_block_advice(double precision, interval, bigint) IS
'recommended uuid_sequence_nextval and uuid_time_nextval_interval parameters for an insert rate (rows per second), a retention and the memory the index may hold (bytes; NULL = shared_buffers): a block''s index leaves within 1/8 of that memory, a wrap period of at least twice the retention';

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
