/* locality_uuid--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.5'" to load this file. \quit

-- Time questions answered by the key: "made since a, before b" as index conditions on the id.

-- "Made at or after since, before before" on the ids' own B-tree. Each spelling is a C function
-- with a planner support function (SupportRequestSimplify) that rewrites it into
-- id >= key(since) AND id <= key(before) AND a check of the id: btree clauses on the id, so
-- index scans, partition pruning and Citus take them, with no preload. True where the id was
-- made in the range, false elsewhere (never NULL). Not strict: the rewrite sees every call.

CREATE FUNCTION uuidv7_made_since(since timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_made_since'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_since(timestamptz) IS
'smallest key of the version 7 ids made at or after since (its millisecond rounded up): the nil uuid (every id) at 1970 and earlier, the max uuid (no version 7 id) past 10889-08-02 05:31:50.655 UTC or for NULL; never an error';

CREATE FUNCTION uuidv7_made_before(before timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_made_before'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_before(timestamptz) IS
'largest key of the version 7 ids made before before (its millisecond rounded up): the nil uuid (no version 7 id) at 1970 and earlier or for NULL, the max uuid (every id) past 10889; never an error';

CREATE FUNCTION uuidv7_made_check_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uuidv7_made_check_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_check_support(internal) IS
'planner support of uuidv7_made_check: its selectivity, so that the estimate of uuidv7_made''s expansion is the share of the id''s histogram in the key range';

CREATE FUNCTION uuidv7_made_check(id uuid, since timestamptz, before timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uuidv7_made_check'
LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1
SUPPORT uuidv7_made_check_support;

COMMENT ON FUNCTION uuidv7_made_check(uuid, timestamptz, timestamptz) IS
'the check of the id in uuidv7_made''s expansion: uuidv7_timestamp(id) IS NOT NULL: the id is version 7 of RFC 9562''s variant (false for NULL); since and before only serve the row estimate';

CREATE FUNCTION uuidv7_made_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uuidv7_made_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_support(internal) IS
'planner support of uuidv7_made: rewrites it into btree conditions on the id';

CREATE FUNCTION uuidv7_made(id uuid, since timestamptz DEFAULT '-infinity', before timestamptz DEFAULT 'infinity')
RETURNS boolean
AS 'MODULE_PATHNAME', 'uuidv7_made'
LANGUAGE C IMMUTABLE PARALLEL SAFE
SUPPORT uuidv7_made_support;

COMMENT ON FUNCTION uuidv7_made(uuid, timestamptz, timestamptz) IS
'(uuidv7_timestamp(id) >= since AND uuidv7_timestamp(id) < before) IS TRUE, planned as index conditions on id (its own B-tree, partition pruning): false for other versions, NULL ids and NULL bounds; never an error';

CREATE FUNCTION hot_uuid_made_since(since timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_made_since'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_since(timestamptz) IS
'smallest key of the shard-key ids made at or after since (its second rounded up): the nil uuid before 1970, NULL (no id) past 2106-02-07 06:28:15 UTC or for NULL; never an error';

CREATE FUNCTION hot_uuid_made_before(before timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_made_before'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_before(timestamptz) IS
'largest key of the shard-key ids made before before (its second rounded up): NULL (no id) at 1970 and earlier or for NULL, the max uuid past 2106; never an error';

CREATE FUNCTION hot_uuid_made_check_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'hot_uuid_made_check_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_check_support(internal) IS
'planner support of hot_uuid_made_check: its selectivity, so that the estimate of hot_uuid_made''s expansion is the share of the id''s histogram in the key range';

CREATE FUNCTION hot_uuid_made_check(id uuid, since timestamptz, before timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'hot_uuid_made_check'
LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1
SUPPORT hot_uuid_made_check_support;

COMMENT ON FUNCTION hot_uuid_made_check(uuid, timestamptz, timestamptz) IS
'the check of the id in hot_uuid_made''s expansion: id IS NOT NULL: every uuid is a shard-key id (false for NULL); since and before only serve the row estimate';

CREATE FUNCTION hot_uuid_made_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'hot_uuid_made_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_support(internal) IS
'planner support of hot_uuid_made: rewrites it into btree conditions on the id';

CREATE FUNCTION hot_uuid_made(id uuid, since timestamptz DEFAULT '-infinity', before timestamptz DEFAULT 'infinity')
RETURNS boolean
AS 'MODULE_PATHNAME', 'hot_uuid_made'
LANGUAGE C IMMUTABLE PARALLEL SAFE
SUPPORT hot_uuid_made_support;

COMMENT ON FUNCTION hot_uuid_made(uuid, timestamptz, timestamptz) IS
'(hot_uuid_timestamp(id) >= since AND hot_uuid_timestamp(id) < before) IS TRUE, planned as index conditions on id (its own B-tree, partition pruning); also for uuid_time_nextval(1, 2147483647): false for NULL ids and NULL bounds; never an error';

-- (end of time questions)


-- Leases and trust: a running server learns of a restored lease; the extension's own relations only.

-- (end of leases and trust)


-- Formats: which format could have made an id, and a column's report.

-- (end of formats)
