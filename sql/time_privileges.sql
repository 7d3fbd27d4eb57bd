-- C edition only (the portable suite leaves this file out).
-- Privileges: a rewritten time question asks the executor what the plain one asks. The user's
-- words (uuidv7_timestamp(id) OP x) and the _made spellings are rewritten only where the user
-- planning them may execute the extractor (or the spelling) and every function the rewrite puts
-- in its place; the plan depends on those functions and on the role (made.cpp's may_execute).
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
\i sql/include/helpers.psql

CREATE TABLE privs (id uuid PRIMARY KEY, k integer NOT NULL);
INSERT INTO privs SELECT uuidv7_lower('2026-03-01+00'::timestamptz + g * interval '1 minute'), g FROM generate_series(0, 59) g;
INSERT INTO privs SELECT hot_uuid_boundary('2026-03-01+00'::timestamptz + g * interval '1 minute'), 100 + g FROM generate_series(0, 59) g;
ANALYZE privs;
CREATE ROLE regress_time_reader;
GRANT SELECT ON privs TO regress_time_reader;

-- stmt's first value as regress_time_reader, with EXECUTE on revoked revoked from PUBLIC.
CREATE FUNCTION pg_temp.as_reader(revoked text, stmt text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    r text;
BEGIN
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', revoked);
    SET ROLE regress_time_reader;
    r := pg_temp.try(stmt, true);
    RESET ROLE;
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO PUBLIC', revoked);
    RETURN r;
END
$f$;

-- 1. Each function revoked in turn: the words (and the spelling) as written, and the same
-- question where nothing is rewritten (IS TRUE), give the same answer: an error where the plain
-- predicate's function is revoked, the rows where only a function of the rewrite is.
SELECT f, format(revoked, f) AS revoked, q,
       pg_temp.as_reader(format(revoked, f), format('SELECT count(*) FROM privs WHERE ' || cond, f)) AS rewritten,
       pg_temp.as_reader(format(revoked, f), format('SELECT count(*) FROM privs WHERE (' || cond || ') IS TRUE', f)) AS plain
FROM (VALUES ('uuidv7'), ('hot_uuid')) AS e(f),
     (VALUES ('%s_timestamp(uuid)'), ('%s_made_since(timestamptz)'), ('%s_made_before(timestamptz)'),
             ('%s_made_through(timestamptz)'), ('%s_made_after(timestamptz)'), ('%s_made_check(uuid)'),
             ('%s_made(uuid, timestamptz, timestamptz)')) AS r(revoked),
     (VALUES ('range', $$%1$s_timestamp(id) >= '2026-03-01 00:10+00' AND %1$s_timestamp(id) < '2026-03-01 00:40+00'$$),
             ('equal', $$%s_timestamp(id) = '2026-03-01 00:10+00'$$),
             ('after', $$%s_timestamp(id) > '2026-03-01 00:10+00'$$),
             ('since now', $$%s_timestamp(id) >= now() - interval '300 days'$$),
             ('made', $$%s_made(id, '2026-03-01 00:10+00', '2026-03-01 00:40+00')$$)) AS c(q, cond)
ORDER BY f DESC, revoked, q;

-- 2. A prepared statement (a cached plan): planned again after a REVOKE, a GRANT, and when
-- another role runs it.
SET ROLE regress_time_reader;
PREPARE words AS SELECT count(*) FROM privs WHERE uuidv7_timestamp(id) >= '2026-03-01 00:10+00' AND uuidv7_timestamp(id) < '2026-03-01 00:40+00';
PREPARE made AS SELECT count(*) FROM privs WHERE uuidv7_made(id, '2026-03-01 00:10+00', '2026-03-01 00:40+00');
EXECUTE words;
EXECUTE made;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION uuidv7_timestamp(uuid), uuidv7_made(uuid, timestamptz, timestamptz) FROM PUBLIC;
SET ROLE regress_time_reader;
SELECT pg_temp.try('EXECUTE words', true) AS words_revoked, pg_temp.try('EXECUTE made', true) AS made_revoked;
RESET ROLE;
GRANT EXECUTE ON FUNCTION uuidv7_timestamp(uuid), uuidv7_made(uuid, timestamptz, timestamptz) TO PUBLIC;
SET ROLE regress_time_reader;
SELECT pg_temp.try('EXECUTE words', true) AS words_granted, pg_temp.try('EXECUTE made', true) AS made_granted;
RESET ROLE;
-- Planned by its owner, run by a role that may not execute the extractor.
PREPARE owners_words AS SELECT count(*) FROM privs WHERE hot_uuid_timestamp(id) >= '2026-03-01 00:10+00' AND hot_uuid_timestamp(id) < '2026-03-01 00:40+00';
PREPARE owners_made AS SELECT count(*) FROM privs WHERE hot_uuid_made(id, '2026-03-01 00:10+00', '2026-03-01 00:40+00');
EXECUTE owners_words;
EXECUTE owners_made;
REVOKE EXECUTE ON FUNCTION hot_uuid_timestamp(uuid), hot_uuid_made(uuid, timestamptz, timestamptz) FROM PUBLIC;
-- The REVOKE planned it again, for its owner.
EXECUTE owners_words;
SET ROLE regress_time_reader;
SELECT pg_temp.try('EXECUTE owners_words', true) AS words_other_role, pg_temp.try('EXECUTE owners_made', true) AS made_other_role;
RESET ROLE;
GRANT EXECUTE ON FUNCTION hot_uuid_timestamp(uuid), hot_uuid_made(uuid, timestamptz, timestamptz) TO PUBLIC;
DEALLOCATE ALL;

-- 3. A check the plan may leave out (a CHECK of the table implies it, a comparison of the id
-- stands beside a shard-key id's check) stays where the user may not execute it: a query naming
-- it fails as the same query does without the extension's planner code, and the words, whose
-- rewrite would add it, read each row.
CREATE TABLE privs_checked (id uuid PRIMARY KEY CHECK (uuidv7_made_check(id)), k integer NOT NULL);
INSERT INTO privs_checked SELECT id, k FROM privs WHERE uuidv7_made_check(id);
ANALYZE privs_checked;
GRANT SELECT ON privs_checked TO regress_time_reader;
SELECT q, pg_temp.as_reader(revoked, format('SELECT count(*) FROM %s WHERE %s', t, cond)) AS answer
FROM (VALUES ('v7, named', 'uuidv7_made_check(uuid)', 'privs_checked',
              $$uuidv7_made_check(id) AND id >= uuidv7_made_since('2026-03-01 00:10+00') AND uuidv7_timestamp(id) >= '2026-03-01 00:10+00'$$),
             ('v7, words', 'uuidv7_made_check(uuid)', 'privs_checked', $$uuidv7_timestamp(id) >= '2026-03-01 00:10+00'$$),
             ('hot, named', 'hot_uuid_made_check(uuid)', 'privs',
              $$hot_uuid_made_check(id) AND id >= hot_uuid_made_since('2026-03-01 00:10+00')$$)) AS c(q, revoked, t, cond);

DROP TABLE privs, privs_checked;
DROP ROLE regress_time_reader;
