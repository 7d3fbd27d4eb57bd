-- Proposed for locality_uuid--1.2--1.3.sql (issue 22): the decoders pg_partman's p_time_decoder
-- asks for. pg_partman (5.2 and later) passes the control column and the bounds of its children
-- to the decoder as text, so an extractor that takes uuid cannot serve; the encoders need nothing
-- new (hot_uuid_boundary and uuidv7_lower take a timestamptz and return the bound).
-- SQL bodies bind the extractor at creation, so they follow the extension to another schema.
-- '$libdir/locality_uuid' stands for MODULE_PATHNAME, so that tests can run this file with psql.

-- pg_partman decoders ---------------------------------------------------------------------------

CREATE FUNCTION hot_uuid_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN hot_uuid_timestamp(id::uuid);

COMMENT ON FUNCTION hot_uuid_time_decoder(text) IS
'hot_uuid_timestamp of a shard-key uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is hot_uuid_boundary)';

-- PostgreSQL 17 has uuid_extract_timestamp already, and it reads version 1 only (NULL for version 7),
-- so a time of a version 7 id that holds on every major needs a name of the extension's: the same C
-- function as the extension's uuid_extract_timestamp of 15 and 16. (17 also refuses the update
-- script's CREATE FUNCTION pg_catalog.uuid_extract_timestamp/uuid_extract_version: core has both.)
CREATE FUNCTION uuidv7_timestamp(id uuid)
RETURNS timestamptz
AS '$libdir/locality_uuid', 'locality_uuid_extract_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_timestamp(uuid) IS
'creation time (milliseconds) of a version 7 uuid, as uuid_extract_timestamp reads it from PostgreSQL 18 on, on every major (17''s reads version 1 only); version 1 uuids too; NULL for other versions and variants';

CREATE FUNCTION uuidv7_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uuidv7_timestamp(id::uuid);

COMMENT ON FUNCTION uuidv7_time_decoder(text) IS
'uuidv7_timestamp of a version 7 uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is uuidv7_lower)';
