/* locality_uuid--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.5'" to load this file. \quit

-- Time questions answered by the key: "made since a, before b" as index conditions on the id.

-- (end of time questions)


-- Leases and trust: a running server learns of a restored lease; the extension's own relations only.

-- (end of leases and trust)


-- Formats: which format could have made an id, and a column's report.

-- (end of formats)
