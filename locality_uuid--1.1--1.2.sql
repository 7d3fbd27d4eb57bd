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

-- Identity of this server -----------------------------------------------------------------------
