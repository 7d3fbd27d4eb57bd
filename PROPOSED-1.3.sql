-- Proposed for locality_uuid--1.2--1.3.sql (issue 22): the decoders pg_partman's p_time_decoder
-- asks for. pg_partman (5.2 and later) passes the control column and the bounds of its children
-- to the decoder as text, so an extractor that takes uuid cannot serve; the encoders need nothing
-- new (hot_uuid_boundary and uuidv7_lower take a timestamptz and return the bound).
-- SQL bodies bind the extractor at creation, so they follow the extension to another schema.

-- pg_partman decoders ---------------------------------------------------------------------------

CREATE FUNCTION hot_uuid_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN hot_uuid_timestamp(id::uuid);

COMMENT ON FUNCTION hot_uuid_time_decoder(text) IS
'hot_uuid_timestamp of a shard-key uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is hot_uuid_boundary)';

-- uuid_extract_timestamp is core's on 18 and the extension's (in pg_catalog) on 15 to 17; the body
-- binds to whichever stands, and a dump prints it unqualified, as it does the defaults.
CREATE FUNCTION uuidv7_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uuid_extract_timestamp(id::uuid);

COMMENT ON FUNCTION uuidv7_time_decoder(text) IS
'uuid_extract_timestamp of a version 7 uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is uuidv7_lower)';
