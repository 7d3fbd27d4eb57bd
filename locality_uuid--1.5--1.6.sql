/* locality_uuid--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.6'" to load this file. \quit

-- name check, written by src/pg/name_check.sh: edit src/pg/name_check.sql
-- Before the objects: the names of the functions this script creates in the extension's schema

-- Code that calls a function by name, unqualified, resolves the call among every function of
-- that name on its search_path: a function of the extension named as one of another role's
-- would take over calls made of that role's (an exact argument type where the other needs a
-- cast), or make them ambiguous (42725). The script refuses, before it creates anything, while
-- a function of one of the names it creates exists in any schema and is not the extension's
-- own (an overload it already has), outside the temporary schemas. The names are the script's (src/pg/name_check.sh, at build
-- time). Every operator has exact pg_catalog types (found there first); every function is
-- qualified.
DO $$
DECLARE
    names name[] := '{hot_uuid_made_after,hot_uuid_made_check,hot_uuid_made_through,hot_uuid_timestamp_support,locality_uuid_generators,locality_uuid_survey,uuidv7_made_after,uuidv7_made_check,uuidv7_made_through,uuidv7_timestamp_support}';
    ext oid;
    nsp text;
    conflicts text[];
BEGIN
    SELECT e.oid, n.nspname INTO ext, nsp
    FROM pg_catalog.pg_extension AS e
    JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace
    WHERE e.extname = 'locality_uuid';
    SELECT pg_catalog.array_agg(pg_catalog.format('%I.%I(%s)', n.nspname, p.proname,
                                                  pg_catalog.pg_get_function_identity_arguments(p.oid))
                                ORDER BY n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid))
    INTO conflicts
    FROM pg_catalog.pg_proc AS p
    JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
    WHERE p.proname = ANY (names)
      -- no unqualified call reaches a function of a temporary schema (pg_temp is not searched for
      -- functions): another session's, even one left by a crash, stops nothing
      AND NOT pg_catalog.pg_is_other_temp_schema(n.oid)
      AND n.oid <> pg_catalog.pg_my_temp_schema()
      AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend AS d
                      WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                        AND d.objid = p.oid
                        AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
                        AND d.refobjid = ext
                        AND d.deptype = 'e');

    IF conflicts IS NOT NULL THEN
        RAISE EXCEPTION 'cannot update extension locality_uuid beside functions named as those it creates'
            USING ERRCODE = 'duplicate_function',
                  DETAIL = pg_catalog.format('The extension would create functions of these names in schema %I, '
                      'so code that calls these existing functions by name could call the extension''s instead, '
                      'or fail as ambiguous: %s.', nsp, pg_catalog.array_to_string(conflicts, ', ')),
                  HINT = 'Drop or rename these functions and change the code that calls them, then update the '
                      'extension again: README.md, "Install", says how.';
    END IF;
END
$$;
-- end of name check

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
'the check of the id in the expansion of uuidv7_made and of uuidv7_timestamp(id) comparisons: uuidv7_timestamp(id) IS NOT NULL (false for NULL); its estimate is the share of the id''s histogram between the keys compared with the id beside it. CHECK (uuidv7_made_check(id)) says every id is of version 7: the plans of time ranges then leave the check out';

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
'the check of the id in the expansion of hot_uuid_made and of hot_uuid_timestamp(id) comparisons: id IS NOT NULL; its estimate is the share of the id''s histogram between the keys compared with the id beside it. The plan leaves it out beside a comparison of the id';

CREATE FUNCTION hot_uuid_timestamp_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'hot_uuid_timestamp_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_timestamp_support(internal) IS
'planner support of hot_uuid_timestamp: loads the library while the planner simplifies the query, whose hook then rewrites hot_uuid_timestamp(id) >=, >, <, <=, = x among the AND-ed conditions into hot_uuid_made''s btree conditions on id';

ALTER FUNCTION hot_uuid_timestamp(uuid) SUPPORT hot_uuid_timestamp_support;

-- (end of time questions in the user's own words)

-- The survey of a database's uuid keys ---------------------------------------------------------

-- Catalogs and pg_stats only, so that 1,000 tables cost one catalog query and no lock on any of
-- them: SQL, whose standard body binds every name at creation. The generator is the function at
-- the top of the DEFAULT that inserts use (its node tree names it by oid: core's functions are
-- pinned and leave no dependency): for a partition its root's, by column name, since inserts
-- through the root take the root's; the column's own, else its domain's. locality_uuid(boolean) is
-- ordered when its argument is true; locality_uuid() follows locality_uuid.counter_mode, which a
-- role or database may set, and is judged by its keys.
CREATE FUNCTION locality_uuid_survey(
    schema_name name DEFAULT NULL,
    OUT tab regclass,
    OUT col name,
    OUT partition_of regclass,
    OUT key_index regclass,
    OUT table_rows bigint,
    OUT index_bytes bigint,
    OUT generator text,
    OUT generator_from text,
    OUT correlation real,
    OUT inserts text,
    OUT pick text,
    OUT hot_set_bytes_saved bigint,
    OUT advice text,
    OUT report text)
RETURNS SETOF record
LANGUAGE sql STABLE CALLED ON NULL INPUT PARALLEL SAFE ROWS 100
BEGIN ATOMIC
    SELECT k.tab, k.col, k.partition_of, k.key_index, k.table_rows, k.index_bytes,
           g.generator,
           CASE WHEN k.generated THEN 'generated column'
                WHEN k.adbin IS NOT NULL THEN coalesce(g.generator_from, 'expression')
                WHEN k.refers_to IS NOT NULL THEN pg_catalog.format('foreign key to %s', k.refers_to)
                ELSE 'none' END AS generator_from,
           st.correlation,
           CASE c.kind
               WHEN 'ordered' THEN
                   CASE WHEN g.generator IS NOT NULL AND st.random_on_top
                        THEN 'about one leaf per insert, at one point inside the index: older random keys sort above the new ones, and the leaf there splits in the middle'
                        ELSE 'about one leaf per insert, at the right edge of the index' END
               WHEN 'shard-key' THEN 'about one leaf per inserting backend, each at its own point in the second'
               WHEN 'block' THEN 'the leaves of the current block, random within it'
               WHEN 'reference' THEN 'the leaf of the key it refers to, wherever that lies'
               WHEN 'random' THEN CASE WHEN k.leaves IS NULL THEN 'a random leaf per insert' ELSE pg_catalog.format('a random leaf of about %s per insert', k.leaves) END
               ELSE CASE WHEN k.table_rows = 0 THEN 'unknown: the table held no rows at its last VACUUM or ANALYZE'
                         WHEN st.analyzed THEN 'unknown: no generator in the DEFAULT, and ANALYZE found too few keys for a correlation'
                         ELSE 'unknown: no generator in the DEFAULT and not analyzed' END
           END AS inserts,
           CASE c.kind
               WHEN 'ordered' THEN coalesce(g.generator, 'uuidv7_ordered()')
               WHEN 'shard-key' THEN 'hot_uuid(shard_key)'
               WHEN 'block' THEN g.generator
               WHEN 'random' THEN 'uuidv7_ordered()'
           END AS pick,
           CASE c.kind
               WHEN 'random' THEN CASE WHEN k.index_bytes IS NOT NULL THEN GREATEST(k.index_bytes - k.page_bytes, 0) END
               WHEN 'unknown' THEN NULL::bigint
               WHEN 'reference' THEN NULL::bigint
               ELSE 0
           END AS hot_set_bytes_saved,
           CASE c.kind
               WHEN 'ordered' THEN
                   CASE WHEN k.generated THEN 'keep: the keys computed from other columns (GENERATED ALWAYS AS) follow insert order'
                        WHEN g.generator IS NULL THEN 'keep: the keys the application writes follow insert order; uuidv7_ordered() as the DEFAULT keeps that order across backends and restarts'
                        ELSE 'keep: new keys go to one leaf at a time' END
                   || CASE WHEN st.correlation IS NULL THEN '; ANALYZE the table for its correlation'
                           WHEN st.correlation < 0.9 AND g.generator IS NOT NULL AND st.random_on_top THEN '; the older keys do not follow insert order (a switch of generator): they stay where they are; REINDEX CONCURRENTLY now and then packs the half-full leaves the new keys leave, and CLUSTER or pg_repack is needed only where reads by key range touch the old rows'
                           WHEN g.generator IS NOT NULL AND st.random_on_top THEN '; the older random keys (a switch of generator) sort above the new ones, which land inside the index, not at its right edge, until those rows go: the keys are in heap order only because the table was sorted (CLUSTER), and sorting again does not change that'
                           WHEN st.correlation < 0.9 AND g.generator IS NOT NULL THEN '; the keys already there do not follow heap order (a backfill, or a load out of order): CLUSTER or pg_repack only where reads by key range need them in heap order'
                           ELSE '' END
               WHEN 'shard-key' THEN 'keep where services route by the shard key; else uuidv7_ordered() appends at one point'
               WHEN 'block' THEN 'keep where rows are deleted by age; size its blocks with locality_uuid_block_advice()'
               WHEN 'reference' THEN pg_catalog.format('none here: rows refer to keys of %s, which its generator places; where most refer to recent rows, ordered keys there keep this index''s inserts near its right edge too', k.refers_to)
               WHEN 'random' THEN
                   CASE WHEN k.generated THEN 'the keys are computed from other columns (GENERATED ALWAYS AS), which do not follow insert order, and a generated column takes no DEFAULT: ordered keys need a key column of their own with uuidv7_ordered() as its DEFAULT'
                        WHEN g.generator IS NULL AND st.correlation >= 0.9 THEN 'the keys the application writes are random (version 4), in heap order only because the table was sorted (CLUSTER, a sorted load): new ones land anywhere; make them in the DEFAULT with uuidv7_ordered() (docs/choosing.md, "From random keys to ordered ones"), or as version 7 in the application'
                        WHEN g.generator IS NULL THEN 'the keys the application writes do not follow insert order: make them in the DEFAULT with uuidv7_ordered() (docs/choosing.md, "From random keys to ordered ones"), or as version 7 in the application'
                        ELSE pg_catalog.format('switch the DEFAULT to uuidv7_ordered() (docs/choosing.md, "From random keys to ordered ones"): ALTER TABLE %s ALTER COLUMN %I SET DEFAULT uuidv7_ordered()', coalesce(k.partition_of, k.tab), k.col) END
                   || '; keep random keys only while the index fits in memory or where ids must reveal nothing'
                   || CASE WHEN k.table_rows IS NULL THEN pg_catalog.format('; ANALYZE %s for its size', k.tab) ELSE '' END
               ELSE CASE WHEN k.table_rows = 0 THEN 'none yet: the table held no rows at its last VACUUM or ANALYZE; survey again once it holds keys'
                         WHEN st.analyzed THEN 'none until the column holds keys: then ANALYZE and survey again'
                         ELSE pg_catalog.format('ANALYZE %s, then survey again', k.tab) END
           END
           || CASE WHEN g.generator IN ('locality_uuid()', 'locality_uuid(expression)')
                   THEN pg_catalog.format('; %s is judged by ANALYZE''s correlation, not by its name: its keys are ordered or spread as %s', g.generator,
                                          CASE g.generator WHEN 'locality_uuid()' THEN 'locality_uuid.counter_mode says (set per role or database too)' ELSE 'its argument says at each insert' END)
                   ELSE '' END
           || CASE WHEN k.own_default IS DISTINCT FROM k.root_default
                   THEN pg_catalog.format('; this partition''s own DEFAULT (%s) differs from %s''s (%s): inserts through %s use the latter, direct inserts into the partition the former',
                                          coalesce(k.own_default, 'none'), k.partition_of, coalesce(k.root_default, 'none'), k.partition_of)
                   ELSE '' END AS advice,
           -- the extension's own report, by its schema and every argument typed: no function planted on
           -- the caller's search_path, nor an overload beside it, is what the line calls
           pg_catalog.format('SELECT * FROM %s.locality_uuid_column_report(%L::pg_catalog.regclass, %L::pg_catalog.name, 10000)',
                             (SELECT p.pronamespace::pg_catalog.regnamespace FROM pg_catalog.pg_proc AS p
                              WHERE p.oid = 'locality_uuid_column_report(pg_catalog.regclass, pg_catalog.name, integer)'::pg_catalog.regprocedure),
                             k.tab, k.col) AS report
    FROM (
        SELECT DISTINCT ON (t.oid, a.attnum)
               t.oid::pg_catalog.regclass AS tab,
               a.attname AS col,
               n.nspname,
               t.relname,
               CASE WHEN t.relispartition THEN pg_catalog.pg_partition_root(t.oid) END AS partition_of,
               i.indexrelid::pg_catalog.regclass AS key_index,
               CASE WHEN t.reltuples >= 0 THEN t.reltuples::bigint END AS table_rows,
               CASE WHEN t.reltuples >= 0 THEN ic.relpages::bigint * pg_catalog.current_setting('block_size')::bigint END AS index_bytes,
               pg_catalog.current_setting('block_size')::bigint AS page_bytes,
               CASE WHEN t.reltuples >= 0 THEN GREATEST(ic.relpages - 1, 1) END AS leaves,
               -- the DEFAULT inserts use: a partition's root's (by name: attnums may differ), else
               -- the column's own; then the domain's
               coalesce(CASE WHEN t.relispartition THEN r.adbin ELSE d.adbin END, ty.typdefaultbin) AS adbin,
               -- a DEFAULT names no column: deparsed without its relation (a generation expression does)
               CASE WHEN t.relispartition AND a.attgenerated = '' THEN pg_catalog.pg_get_expr(d.adbin, 0) END AS own_default,
               CASE WHEN t.relispartition AND a.attgenerated = '' THEN pg_catalog.pg_get_expr(r.adbin, 0) END AS root_default,
               a.attgenerated <> '' AS generated,
               (SELECT fk.confrelid::pg_catalog.regclass FROM pg_catalog.pg_constraint AS fk
                WHERE fk.conrelid = t.oid AND fk.contype = 'f' AND fk.conkey[1] = a.attnum
                ORDER BY fk.conname LIMIT 1) AS refers_to
        FROM pg_catalog.pg_index AS i
        JOIN pg_catalog.pg_class AS ic ON ic.oid = i.indexrelid
        JOIN pg_catalog.pg_am AS am ON am.oid = ic.relam
        JOIN pg_catalog.pg_class AS t ON t.oid = i.indrelid
        JOIN pg_catalog.pg_namespace AS n ON n.oid = t.relnamespace
        JOIN pg_catalog.pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = i.indkey[0]
        LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = t.oid AND d.adnum = a.attnum
        LEFT JOIN pg_catalog.pg_type AS ty ON ty.oid = a.atttypid AND ty.typtype = 'd'
        LEFT JOIN LATERAL (
            SELECT rd.adbin
            FROM pg_catalog.pg_attribute AS ra
            JOIN pg_catalog.pg_attrdef AS rd ON rd.adrelid = ra.attrelid AND rd.adnum = ra.attnum
            WHERE t.relispartition AND ra.attrelid = pg_catalog.pg_partition_root(t.oid) AND ra.attname = a.attname
        ) AS r ON true
        WHERE am.amname = 'btree'
          AND i.indisvalid
          AND t.relkind = 'r'
          AND (a.atttypid = 'pg_catalog.uuid'::pg_catalog.regtype
               -- domains over uuid, and domains over those, down to uuid
               OR a.atttypid IN (WITH RECURSIVE over_uuid (oid) AS (
                                     SELECT d.oid FROM pg_catalog.pg_type AS d
                                     WHERE d.typtype = 'd' AND d.typbasetype = 'pg_catalog.uuid'::pg_catalog.regtype
                                     UNION
                                     SELECT d.oid FROM pg_catalog.pg_type AS d JOIN over_uuid AS o ON d.typbasetype = o.oid
                                     WHERE d.typtype = 'd')
                                 SELECT over_uuid.oid FROM over_uuid))
          AND NOT a.attisdropped
          AND n.nspname <> ALL (ARRAY['pg_catalog', 'information_schema']::name[])
          AND NOT pg_catalog.pg_is_other_temp_schema(n.oid)
          AND (schema_name IS NULL OR n.oid = pg_catalog.quote_ident(schema_name)::pg_catalog.regnamespace)
          AND pg_catalog.has_schema_privilege(n.oid, 'USAGE')
          AND pg_catalog.has_column_privilege(t.oid, a.attnum, 'SELECT')
        ORDER BY t.oid, a.attnum, i.indisprimary DESC, i.indisunique DESC, i.indpred IS NULL DESC, ic.relname
    ) AS k
    -- pg_stats by name, as it has them, once per column: one lookup by index (a join reads the
    -- whole view for every key): the correlation and the largest bound of the histogram, NULL
    -- where the column has no statistics
    CROSS JOIN LATERAL (
        SELECT x.stats[1]::real AS correlation,
               x.stats IS NOT NULL AS analyzed,
               -- the largest key ANALYZE saw is random: ordered keys made now land below it
               pg_catalog.substr(x.stats[2], 15, 1) = '4' AS random_on_top
        FROM (SELECT (SELECT ARRAY[s.correlation::pg_catalog.text,
                                   (SELECT h.b[pg_catalog.array_upper(h.b, 1)]::pg_catalog.text
                                    FROM (SELECT s.histogram_bounds::pg_catalog.text::pg_catalog.uuid[] AS b) AS h)]
                      FROM pg_catalog.pg_stats AS s
                      WHERE s.schemaname = k.nspname AND s.tablename = k.relname AND s.attname = k.col
                        AND NOT s.inherited) AS stats) AS x
    ) AS st
    LEFT JOIN LATERAL (
        SELECT p.proname || CASE WHEN p.proname = 'locality_uuid' AND p.pronargs = 1
                                 THEN CASE pg_catalog.substring(pg_catalog.pg_get_expr(k.adbin, 0), '\((?:sequential => )?([a-z]+)\)$')
                                      WHEN 'true' THEN '(true)' WHEN 'false' THEN '(false)' ELSE '(expression)' END
                                 WHEN p.proname = 'hot_uuid' THEN '(shard_key)'
                                 ELSE '()' END AS generator,
               coalesce(x.extname::text, CASE WHEN p.pronamespace = 'pg_catalog'::pg_catalog.regnamespace THEN 'core' ELSE 'other' END) AS generator_from
        FROM pg_catalog.pg_proc AS p
        LEFT JOIN pg_catalog.pg_depend AS m
               ON m.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND m.objid = p.oid AND m.deptype = 'e'
        LEFT JOIN pg_catalog.pg_extension AS x ON x.oid = m.refobjid
        WHERE p.oid = (pg_catalog.regexp_match(k.adbin::text, '^(?:\{COERCETODOMAIN :arg )?\{FUNCEXPR :funcid ([0-9]+) '))[1]::oid
          AND NOT k.generated -- a generation expression's function computes the key from others: no generator
    ) AS g ON true
    -- the extension's generators by their names (every function of the extension that makes new
    -- keys: sql/survey.sql lists them), core's and uuid-ossp's; locality_uuid() and
    -- locality_uuid(expression) are judged by their keys
    CROSS JOIN LATERAL (
        SELECT CASE
                   WHEN g.generator_from NOT IN ('locality_uuid', 'core', 'uuid-ossp') THEN NULL
                   WHEN g.generator IN ('uuidv7()', 'uuidv7_ordered()', 'locality_uuid(true)') THEN 'ordered'
                   WHEN g.generator = 'hot_uuid(shard_key)' THEN 'shard-key'
                   WHEN g.generator IN ('uuid_sequence_nextval()', 'uuid_time_nextval()', 'uuid_time_nextval_interval()') THEN 'block'
                   WHEN g.generator IN ('gen_random_uuid()', 'uuidv4()', 'locality_uuid(false)', 'uuid_generate_v4()') THEN 'random'
               END AS by_name
    ) AS named
    CROSS JOIN LATERAL (
        SELECT CASE
                   WHEN named.by_name IS NOT NULL THEN named.by_name
                   WHEN k.adbin IS NULL AND k.refers_to IS NOT NULL THEN 'reference'
                   -- keys in heap order whose largest is random, and no generator: random keys sorted
                   WHEN st.correlation >= 0.9 AND st.random_on_top AND g.generator IS NULL THEN 'random'
                   WHEN st.correlation >= 0.9 THEN 'ordered'
                   WHEN st.correlation IS NOT NULL THEN 'random'
                   ELSE 'unknown'
               END AS kind
    ) AS c
    ORDER BY hot_set_bytes_saved DESC NULLS LAST, k.tab::pg_catalog.text, k.col;
END;

COMMENT ON FUNCTION locality_uuid_survey(name) IS
'Every uuid column that leads a valid B-tree index of a table (partitions each, not their parent), in schema_name (3F000 if there is none of that name) or every schema, that the caller may read (with USAGE on its schema), from the catalogs and pg_stats only (no table or index is read or locked): its rows and index size as of the last VACUUM or ANALYZE, the generator the DEFAULT inserts use calls (a partition''s: its root''s; else the column''s, else its domain''s) and where it comes from (locality_uuid, core, another extension, none), ANALYZE''s correlation of key order with heap order, what that means for inserts, the generator to pick, the memory of hot leaves switching to it saves, what to do, and the call of locality_uuid_column_report for the deep look; most saved first';

-- What the generators are doing, for a monitoring role: read from shared memory and the
-- extension's sequences (as their owner, the caller needs no privilege on them), with no lock
-- beyond the AccessShareLock of reading the catalogs and a sequence, writing nothing. It shows
-- every database's calls and runs, so it is granted to pg_monitor, not to PUBLIC.
CREATE FUNCTION locality_uuid_generators(
    warning double precision DEFAULT 0.85,
    critical double precision DEFAULT 0.95,
    OUT database name,
    OUT generator text,
    OUT calls_since_start bigint,
    OUT newest_id_time timestamptz,
    OUT newest_id_lead interval,
    OUT lease_end_time timestamptz,
    OUT lease_end_position bigint,
    OUT run_position bigint,
    OUT run_counter bigint,
    OUT run_position_limit bigint,
    OUT allocation_numbers_used bigint,
    OUT allocation_numbers_left bigint,
    OUT allocation_numbers_limit bigint,
    OUT resource text,
    OUT share_used double precision,
    OUT status text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'locality_uuid_generators'
LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 16;

COMMENT ON FUNCTION locality_uuid_generators(double precision, double precision) IS
'what the generators are doing, one row per database and generator that the cluster''s shared state holds (and this session''s database): calls since the server started (backends add theirs at lease steps, allocation ranges, every 65536 calls and exit), the newest id''s time and its lead over now(), the lease''s end, the sequential run''s position against its 2^32 counter and its limit, the allocation numbers of explicit-time ids used and left (this database only), the share used of each finite resource with its status (ok, warning at warning, critical at critical: check_postgres''s 0.85 and 0.95), cluster rows without a database, and a last row with the worst share; granted to pg_monitor';

REVOKE ALL ON FUNCTION locality_uuid_generators(double precision, double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION locality_uuid_generators(double precision, double precision) TO pg_monitor;
