/* locality_uuid--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.1'" to load this file. \quit

-- Block generators: sub-second time blocks, time from time-block ids, tuning advice --------

CREATE FUNCTION uuid_time_nextval(interval_length interval,
                                  interval_count integer DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_time_nextval_interval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_nextval(interval, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time in microseconds; the block advances every interval_length (1 ms to 2147483647 s, no months or years) and wraps after interval_count blocks; whole seconds give the integer form''s prefixes';

CREATE FUNCTION locality_uuid_block_layout(interval_length interval,
                                           interval_count integer DEFAULT 65536,
                                           OUT prefix_bits integer,
                                           OUT prefixes bigint,
                                           OUT effective_block_size bigint,
                                           OUT wrap_values bigint,
                                           OUT block_interval interval,
                                           OUT wrap_interval interval)
RETURNS record
AS 'MODULE_PATHNAME', 'locality_uuid_block_layout_interval'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_block_layout(interval, integer) IS
'what uuid_time_nextval(interval, integer) makes of (interval_length, interval_count): prefix width in bits, number of prefixes, block length and wrap period in microseconds, and the same as intervals';

CREATE FUNCTION uuid_time_block_start(id uuid, interval_length integer,
                                      interval_count integer DEFAULT 65536,
                                      as_of timestamptz DEFAULT now())
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'locality_uuid_time_block_start'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_start(uuid, integer, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';

CREATE FUNCTION uuid_time_block_start(id uuid, interval_length interval,
                                      interval_count integer DEFAULT 65536,
                                      as_of timestamptz DEFAULT now())
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'locality_uuid_time_block_start_interval'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_start(uuid, interval, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';

CREATE FUNCTION locality_uuid_block_advice(insert_rate double precision,
                                           retention interval,
                                           index_memory bigint DEFAULT NULL,
                                           OUT generator text,
                                           OUT call text,
                                           OUT block_size integer,
                                           OUT block_count integer,
                                           OUT interval_length interval,
                                           OUT interval_count integer,
                                           OUT rows_per_block double precision,
                                           OUT hot_set_bytes bigint,
                                           OUT wrap_period interval,
                                           OUT retention interval,
                                           OUT prefix_bytes integer,
                                           OUT effective_block_size bigint,
                                           OUT block_interval interval,
                                           OUT hot_set_pages bigint,
                                           OUT index_memory bigint,
                                           OUT hot_set_fits boolean,
                                           OUT wrap_covers_retention boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'locality_uuid_block_advice'
LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE
ROWS 2;

COMMENT ON FUNCTION locality_uuid_block_advice(double precision, interval, bigint) IS
'recommended uuid_sequence_nextval and uuid_time_nextval parameters for an insert rate (rows per second), a retention and the memory the index may hold (bytes; NULL = shared_buffers): a block''s index leaves within 1/8 of that memory, a wrap period of at least twice the retention';

-- Generator state shared by the cluster's backends.
CREATE FUNCTION locality_uuid_state()
RETURNS text
AS 'MODULE_PATHNAME', 'locality_uuid_state'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_state() IS
'Which generator state this backend uses: dsm_registry (shared, PostgreSQL 17 and later), preload (shared, 15 and 16 with locality_uuid in shared_preload_libraries) or backend (per backend: 15 and 16 without preload)';
