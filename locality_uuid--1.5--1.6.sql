/* locality_uuid--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.6'" to load this file. \quit

-- Time questions in the user's own words: uuidv7_timestamp(id) OP x and hot_uuid_timestamp(id)
-- OP x on the id's own B-tree.

-- The keys of a comparison that excludes or includes its bound: "made after" is "made at or
-- after" of the next microsecond, "made at or before" is "made before" of the next microsecond.
CREATE FUNCTION uuidv7_made_after(after timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_made_after'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_after(timestamptz) IS
'smallest key of the version 7 ids made after after (uuidv7_made_since of the next microsecond): the key of uuidv7_timestamp(id) > after; never an error';

CREATE FUNCTION uuidv7_made_through(through timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_made_through'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_through(timestamptz) IS
'largest key of the version 7 ids made at or before through (uuidv7_made_before of the next microsecond): the key of uuidv7_timestamp(id) <= through; never an error';

-- The expansion's check of the id alone (1.5's carried the bounds for its estimate): checks of
-- different ranges are equal, so a narrower range proves a partial index's predicate; the
-- estimate reads the range from the id's comparisons beside it. Never an error: leakproof.
CREATE FUNCTION uuidv7_made_check(id uuid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uuidv7_made_check'
LANGUAGE C IMMUTABLE LEAKPROOF PARALLEL SAFE COST 1
SUPPORT uuidv7_made_check_support;

COMMENT ON FUNCTION uuidv7_made_check(uuid) IS
'the check of the id in the expansion of uuidv7_made and of uuidv7_timestamp(id) comparisons: uuidv7_timestamp(id) IS NOT NULL (false for NULL); its estimate is the share of the id''s histogram between the keys compared with the id beside it';

CREATE FUNCTION uuidv7_timestamp_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uuidv7_timestamp_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_timestamp_support(internal) IS
'planner support of uuidv7_timestamp: loads the library while the planner simplifies the query, whose hook then rewrites uuidv7_timestamp(id) >=, >, <, <=, = x among the AND-ed conditions into uuidv7_made''s btree conditions on id';

ALTER FUNCTION uuidv7_timestamp(uuid) SUPPORT uuidv7_timestamp_support;

CREATE FUNCTION hot_uuid_made_after(after timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_made_after'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_after(timestamptz) IS
'smallest key of the shard-key ids made after after (hot_uuid_made_since of the next microsecond): the key of hot_uuid_timestamp(id) > after; NULL where no id is; never an error';

CREATE FUNCTION hot_uuid_made_through(through timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_made_through'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_through(timestamptz) IS
'largest key of the shard-key ids made at or before through (hot_uuid_made_before of the next microsecond): the key of hot_uuid_timestamp(id) <= through; NULL where no id is; never an error';

CREATE FUNCTION hot_uuid_made_check(id uuid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'hot_uuid_made_check'
LANGUAGE C IMMUTABLE LEAKPROOF PARALLEL SAFE COST 1
SUPPORT hot_uuid_made_check_support;

COMMENT ON FUNCTION hot_uuid_made_check(uuid) IS
'the check of the id in the expansion of hot_uuid_made and of hot_uuid_timestamp(id) comparisons: id IS NOT NULL; its estimate is the share of the id''s histogram between the keys compared with the id beside it';

CREATE FUNCTION hot_uuid_timestamp_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'hot_uuid_timestamp_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_timestamp_support(internal) IS
'planner support of hot_uuid_timestamp: loads the library while the planner simplifies the query, whose hook then rewrites hot_uuid_timestamp(id) >=, >, <, <=, = x among the AND-ed conditions into hot_uuid_made''s btree conditions on id';

ALTER FUNCTION hot_uuid_timestamp(uuid) SUPPORT hot_uuid_timestamp_support;

-- (end of time questions in the user's own words)
