/* locality_uuid--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.5'" to load this file. \quit

-- Time questions answered by the key: "made since a, before b" as index conditions on the id.

-- (end of time questions)


-- Leases and trust: a running server learns of a restored lease; the extension's own relations only.

-- (end of leases and trust)


-- Formats: which format could have made an id, and a column's report.

CREATE FUNCTION locality_uuid_describe(
    id uuid,
    as_of timestamptz DEFAULT now(),
    OUT format text,
    OUT version integer,
    OUT variant text,
    OUT kind text,
    OUT made_at timestamptz,
    OUT time_exact boolean,
    OUT orders_by_time boolean,
    OUT id_time boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'locality_uuid_describe'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 2;

COMMENT ON FUNCTION locality_uuid_describe(uuid, timestamptz) IS
'Which of this extension''s formats could have made an id (locality, block, v7, v1, v6, hot), one row each (one row with a NULL format when none could), with RFC 9562''s version, variant and kind, the time each reading gives, whether the bits fix it or it is a guess, whether the format''s ids sort by it, and which row gives the id''s time; shard-key readings are plausible when their second lies in the ten years before as_of to a day after';

CREATE FUNCTION locality_uuid_column_report(
    tab regclass,
    col name,
    sample_rows integer DEFAULT 10000,
    OUT item text,
    OUT value text,
    OUT detail text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'locality_uuid_column_report'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 20;

COMMENT ON FUNCTION locality_uuid_column_report(regclass, name, integer) IS
'A report on a uuid column from a sample of about sample_rows rows (TABLESAMPLE SYSTEM, in heap order; the caller needs SELECT on it): the share of each format and version, the time span, how well key order follows insert order, for its B-tree index the leaf density (pgstattuple''s pgstatindex, where installed and granted) and the leaves the newest keys touch, and the generator docs/choosing.md picks';

-- (end of formats)
