/* locality_uuid--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.4'" to load this file. \quit

-- The keyed facade of version 7 ids (uuidv47's mapping) -----------------------------------------

-- Version 7 ids stored, version-4-looking facades shown: the 48-bit time XORed with SipHash-2-4
-- of the id's other 74 bits under a 128-bit key, the version digit 4. Exact both ways and equal
-- to uuidv47's (its C header and its PostgreSQL extension) for every version 7 id.
CREATE FUNCTION uuidv7_to_facade(id uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_to_facade_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_to_facade(uuid, bytea) IS
'version-4-looking facade of a version 7 id under a 16-byte key (k0 then k1, each little-endian), as uuidv47 makes it: the time XORed with SipHash-2-4 of the other 74 bits; uuidv7_from_facade inverts it';

CREATE FUNCTION uuidv7_from_facade(facade uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_from_facade_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_from_facade(uuid, bytea) IS
'version 7 id of a facade that uuidv7_to_facade made with the same 16-byte key (as uuidv47 decodes it)';

CREATE FUNCTION uuidv7_to_facade(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_to_facade_setting'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_to_facade(uuid) IS
'uuidv7_to_facade(id, key) with the key of the setting locality_uuid.facade_key (32 hex digits, superuser only): any role makes facades without reading the key';

CREATE FUNCTION uuidv7_from_facade(facade uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_from_facade_setting'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_from_facade(uuid) IS
'uuidv7_from_facade(facade, key) with the key of the setting locality_uuid.facade_key: WHERE id = uuidv7_from_facade($1) finds a row by its facade through the primary key';
