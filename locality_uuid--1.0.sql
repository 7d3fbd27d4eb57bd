/* locality_uuid--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION locality_uuid" to load this file. \quit

-- Locality UUID, version "b" ------------------------------------------------

CREATE FUNCTION locality_uuid()
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_generate'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid() IS
'new locality uuid (version b) in the mode set by locality_uuid.counter_mode';

CREATE FUNCTION locality_uuid(sequential boolean)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_generate_mode'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid(boolean) IS
'new locality uuid (version b): sequential (clustered) if true, variable (spread) if false';

CREATE FUNCTION locality_uuid_use_sequential_ids()
RETURNS void
AS 'MODULE_PATHNAME', 'locality_uuid_use_sequential_ids'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION locality_uuid_use_sequential_ids() IS
'switch this session''s locality_uuid() to sequential mode (SET locality_uuid.counter_mode = sequential)';

CREATE FUNCTION locality_uuid_use_variable_ids()
RETURNS void
AS 'MODULE_PATHNAME', 'locality_uuid_use_variable_ids'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION locality_uuid_use_variable_ids() IS
'switch this session''s locality_uuid() to variable mode (SET locality_uuid.counter_mode = variable)';

CREATE FUNCTION locality_uuid_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'locality_uuid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_timestamp(uuid) IS
'creation time (milliseconds) of a locality uuid; NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_pid(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'locality_uuid_pid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_pid(uuid) IS
'16-bit process field of a locality uuid (backend slot or pid mod 65536); NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_mac(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'locality_uuid_mac'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_mac(uuid) IS
'28-bit node field of a locality uuid as 7 lowercase hex digits (low 28 bits of the MAC); NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_node(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'locality_uuid_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_node(uuid) IS
'28-bit node field of a locality uuid as a number; NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_counter(id uuid, sequential boolean DEFAULT false)
RETURNS bigint
AS 'MODULE_PATHNAME', 'locality_uuid_counter'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_counter(uuid, boolean) IS
'32-bit counter of a locality uuid, read in variable mode (nibbles reversed) unless sequential; NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_version(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'locality_uuid_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_version(uuid) IS
'version hex digit of any uuid (b for a locality uuid, 4 for a random one)';

CREATE FUNCTION locality_uuid_make(counter bigint, pid integer, node integer, ts timestamptz,
                                   sequential boolean DEFAULT false)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_make'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_make(bigint, integer, integer, timestamptz, boolean) IS
'locality uuid (version b) built from explicit fields: counter 0..4294967295, pid 0..65535, node 0..268435455, ts to the millisecond';

-- Block-wrapped sequential UUIDs (drop-in for sequential_uuids 1.0.3) ------

CREATE FUNCTION uuid_sequence_nextval(regclass, block_size integer DEFAULT 65536,
                                      block_count integer DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_sequence_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uuid_sequence_nextval(regclass, integer, integer) IS
'new version 4 uuid whose first bytes are the block of nextval(sequence) - 1; the block advances every block_size values and wraps after block_count blocks (calls nextval, so parallel unsafe)';

CREATE FUNCTION uuid_time_nextval(interval_length integer DEFAULT 60,
                                  interval_count integer DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_time_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_nextval(integer, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time; the block advances every interval_length seconds and wraps after interval_count blocks';

CREATE FUNCTION locality_uuid_block_layout(block_size integer DEFAULT 65536,
                                           block_count integer DEFAULT 65536,
                                           OUT prefix_bits integer,
                                           OUT prefixes bigint,
                                           OUT effective_block_size bigint,
                                           OUT wrap_values bigint,
                                           OUT block_interval interval,
                                           OUT wrap_interval interval)
RETURNS record
AS 'MODULE_PATHNAME', 'locality_uuid_block_layout'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_block_layout(integer, integer) IS
'what uuid_sequence_nextval and uuid_time_nextval make of (block_size, block_count): prefix width in bits, number of prefixes, values per block, values per wrap, and the same read as seconds';

CREATE FUNCTION locality_uuid_block(id uuid, block_count integer DEFAULT 65536)
RETURNS bigint
AS 'MODULE_PATHNAME', 'locality_uuid_block'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_block(uuid, integer) IS
'block number (prefix) that a uuid_sequence_nextval or uuid_time_nextval id carries for block_count; NULL if the version digit is not 4';
-- Shard-key UUID, compatible with .NET HotGuid ---------------------------------

CREATE FUNCTION hot_uuid(shard_key bigint)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid(bigint) IS
'new shard-key uuid (HotGuid layout) carrying shard_key 0..4294967295, stamped with the current second';

CREATE FUNCTION hot_uuid(shard_key bigint, at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_generate_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid(bigint, timestamptz) IS
'new shard-key uuid (HotGuid layout) carrying shard_key, stamped with the second of at (for backfills; mod 2^32)';

CREATE FUNCTION hot_uuid_shard_key(id uuid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hot_uuid_shard_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_shard_key(uuid) IS
'32-bit shard key of a shard-key uuid (bytes 12..15, little-endian), as HotGuid''s ExtractShardKey';

CREATE FUNCTION hot_uuid_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'hot_uuid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_timestamp(uuid) IS
'creation second of a shard-key uuid (bytes 0..3 as unsigned Unix seconds, 1970 to 2106), as HotGuid''s ExtractUnixTimestamp';

CREATE FUNCTION hot_uuid_boundary(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_boundary'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_boundary(timestamptz) IS
'smallest shard-key uuid of the second of at (time field, all else zero): a bound for range scans and range partitions';

CREATE FUNCTION hot_uuid_machine(id uuid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'hot_uuid_machine'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_machine(uuid) IS
'machine hash of a shard-key uuid: the first 3 bytes of MD5 of the machine name, in digest order';

CREATE FUNCTION hot_uuid_process(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'hot_uuid_process'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_process(uuid) IS
'16-bit process field of a shard-key uuid (backend slot, or pid mod 65536 as HotGuid)';

CREATE FUNCTION hot_uuid_counter(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'hot_uuid_counter'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_counter(uuid) IS
'24-bit counter of a shard-key uuid';

CREATE FUNCTION hot_uuid_make(shard_key bigint, ts timestamptz,
                              machine bytea DEFAULT E'\\x000000', process integer DEFAULT 0,
                              counter integer DEFAULT 0)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_make'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_make(bigint, timestamptz, bytea, integer, integer) IS
'shard-key uuid built from explicit fields: shard_key 0..4294967295, ts to the second (mod 2^32), machine 3 MD5 bytes, process 0..65535, counter 0..16777215';
