/* locality_uuid--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.2'" to load this file. \quit

-- Shard-key uuids at an explicit time ----------------------------------------------------------

-- Block generators: the interval form under a name of its own -----------------------------------

-- Identity of this server -----------------------------------------------------------------------
