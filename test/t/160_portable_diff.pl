# Differential test of the portable SQL edition against the C extension, in one database: the
# extension in public, the SQL file in schema p. Every composer and extractor gets the same
# 15,000 random inputs (fixed seed; LOCALITY_UUID_DIFF_ROWS another number) in both editions,
# and the results must be equal; bad inputs must give the same SQLSTATE and message. The version
# 7 bounds and extractors are compared where the extension has them (1.3; core's extractors in
# pg_catalog before 17).
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = $ENV{LOCALITY_UUID_DIFF_ROWS} // 15_000;
my $bad_rows = 3000;

my $node = extension_node('portable_diff');
ok(eval { install_portable($node, 'postgres', schema => 'p'); 1 }, 'portable edition installs beside the extension')
  or diag($@);

# Random inputs, the same for both editions: fields over their whole ranges (and past them
# for the bad inputs), times from 4713 BC to 294276 AD with microseconds, uuids of any
# version and of versions b and 4.
$node->safe_psql('postgres', qq{
SET timezone = 'UTC';
SELECT setseed(0.160);
CREATE TABLE inp AS
SELECT g,
       floor(random() * 4294967296)::bigint AS counter,
       floor(random() * 65536)::integer AS pid,
       floor(random() * 268435456)::integer AS node,
       timestamptz '1970-01-01 00:00:00+00'
           + make_interval(hours => floor(random() * 78187493)::integer, secs => random() * 3600) AS ts,
       timestamptz '1970-01-01 00:00:00+00'
           + make_interval(days => floor(random() * 106000000 - 2400000)::integer, secs => random() * 86400)
           AS wide_ts,
       random() < 0.5 AS sequential,
       floor(random() * 4294967296)::bigint AS shard,
       decode(substr(md5(random()::text), 1, 6), 'hex') AS machine,
       floor(random() * 16777216)::integer AS hot_counter,
       (CASE floor(random() * 3) WHEN 0 THEN overlay(md5(random()::text) PLACING 'b' FROM 13)
                                 WHEN 1 THEN overlay(md5(random()::text) PLACING '4' FROM 13)
                                 ELSE md5(random()::text) END)::uuid AS id,
       (ARRAY[1, 2, 255, 256, 257, 65535, 65536, 65537, 16777215, 16777216, 16777217, 2147483647,
              floor(random() * 2147483647)::integer + 1, floor(random() * 1000)::integer + 1])
           [floor(random() * 14)::integer + 1] AS block_count,
       (ARRAY[1, 60, 65536, 2147483647, floor(random() * 2147483647)::integer + 1,
              floor(random() * 100000)::integer + 1])[floor(random() * 6)::integer + 1] AS block_size,
       random() < 0.5 AS iv_days,
       (CASE floor(random() * 3) WHEN 0 THEN 1000000 WHEN 1 THEN 1000 ELSE 1 END)::bigint AS iv_unit,
       exp(random() * ln(2147483647000000 / 1000.0)) AS iv_scale
FROM generate_series(1, $rows) g;
-- Interval lengths from 1 ms to 2147483647 s in whole seconds, milliseconds or microseconds,
-- written as time alone or as days and time.
ALTER TABLE inp ADD COLUMN iv interval;
UPDATE inp SET iv = CASE WHEN iv_days
                         THEN make_interval(days => (l / 86400000000)::integer) + (l % 86400000000) * interval '1 microsecond'
                         ELSE l * interval '1 microsecond' END
FROM (SELECT g AS gg, greatest(1000, least(2147483647000000, floor(iv_scale * 1000 / iv_unit)::bigint * iv_unit)) AS l
      FROM inp) x WHERE g = gg;
});

# differ(CALL): true where the extension's CALL and the SQL edition's (schema p) differ.
sub differ { my ($call) = @_; return "public.$call IS DISTINCT FROM p.$call"; }

# The extension's version 7 functions, if it has them: the bounds and uuidv7_timestamp in public,
# core's extractors in pg_catalog as members of the extension (before 17, as the edition's).
my $ext_v7 = $node->safe_psql('postgres', q{SELECT to_regprocedure('public.uuidv7_lower(timestamptz)') IS NOT NULL}) eq 't';
my $ext_extractors = $node->safe_psql('postgres', q{
SELECT count(*) = 2 FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'locality_uuid' AND d.deptype = 'e' AND d.classid = 'pg_proc'::regclass
  AND d.objid IN (to_regprocedure('pg_catalog.uuid_extract_timestamp(uuid)'),
                  to_regprocedure('pg_catalog.uuid_extract_version(uuid)'))
  AND to_regprocedure('p.uuid_extract_timestamp(uuid)') IS NOT NULL}) eq 't';
note('version 7: ' . ($ext_v7 ? 'the bounds compared' : 'the extension has no uuidv7_lower: bounds not compared')
	. '; ' . ($ext_extractors ? 'the extractors compared' : 'the extractors not compared (not both editions\' here)'));
# uuids of versions 1 and 7 (and others) with every variant, from MD5 of the row number.
$node->safe_psql('postgres', q{
ALTER TABLE inp ADD COLUMN id7 uuid;
UPDATE inp SET id7 = overlay(overlay(md5('v7' || g) PLACING (ARRAY['1', '7', '1', '7', '4', '6', '8', '0'])[g % 8 + 1] FROM 13)
                             PLACING (ARRAY['8', '9', 'a', 'b', 'c', '7', '0', 'f'])[g / 8 % 8 + 1] FROM 17)::uuid;
});

# One count of differing rows per function; each must be 0.
my %checks = (
	($ext_v7 ? (uuidv7_lower => differ(q{uuidv7_lower(ts)}), uuidv7_upper => differ(q{uuidv7_upper(ts)}),
		uuidv7_timestamp => differ(q{uuidv7_timestamp(id7)}) . ' OR ' . differ(q{uuidv7_timestamp(id)}),
		uuidv7_time_decoder => differ(q{uuidv7_time_decoder(id7::text)}),
		hot_uuid_time_decoder => differ(q{hot_uuid_time_decoder(id::text)})) : ()),
	($ext_extractors ? (
		uuid_extract_timestamp => q{pg_catalog.uuid_extract_timestamp(id7) IS DISTINCT FROM p.uuid_extract_timestamp(id7)
			OR pg_catalog.uuid_extract_timestamp(id) IS DISTINCT FROM p.uuid_extract_timestamp(id)},
		uuid_extract_version => q{pg_catalog.uuid_extract_version(id7) IS DISTINCT FROM p.uuid_extract_version(id7)
			OR pg_catalog.uuid_extract_version(id) IS DISTINCT FROM p.uuid_extract_version(id)}) : ()),
	locality_uuid_make => differ(q{locality_uuid_make(counter, pid, node, ts, sequential)}),
	locality_uuid_make_default => differ(q{locality_uuid_make(counter, pid, node, ts)}),
	locality_uuid_timestamp => differ(q{locality_uuid_timestamp(id)}),
	locality_uuid_pid => differ(q{locality_uuid_pid(id)}),
	locality_uuid_mac => differ(q{locality_uuid_mac(id)}),
	locality_uuid_node => differ(q{locality_uuid_node(id)}),
	locality_uuid_counter => differ(q{locality_uuid_counter(id)}),
	locality_uuid_counter_mode => differ(q{locality_uuid_counter(id, sequential)}),
	locality_uuid_version => differ(q{locality_uuid_version(id)}),
	locality_uuid_block => differ(q{locality_uuid_block(id, block_count)}),
	locality_uuid_block_default => differ(q{locality_uuid_block(id)}),
	locality_uuid_block_layout => differ(q{locality_uuid_block_layout(block_size, block_count)}),
	hot_uuid_make => differ(q{hot_uuid_make(shard, wide_ts, machine, pid, hot_counter)}),
	hot_uuid_make_default => differ(q{hot_uuid_make(shard, wide_ts)}),
	hot_uuid_boundary => differ(q{hot_uuid_boundary(wide_ts)}),
	hot_uuid_shard_key => differ(q{hot_uuid_shard_key(id)}),
	hot_uuid_timestamp => differ(q{hot_uuid_timestamp(id)}),
	hot_uuid_machine => differ(q{hot_uuid_machine(id)}),
	hot_uuid_process => differ(q{hot_uuid_process(id)}),
	hot_uuid_counter => differ(q{hot_uuid_counter(id)}),
	locality_uuid_block_layout_interval => differ(q{locality_uuid_block_layout(iv, block_count)}),
	# Round trips: each edition reads what the other composed.
	cross_locality => q{p.locality_uuid_counter(public.locality_uuid_make(counter, pid, node, ts, sequential), sequential)
		IS DISTINCT FROM counter},
	cross_hot => q{p.hot_uuid_shard_key(public.hot_uuid_make(shard, wide_ts, machine, pid, hot_counter))
		IS DISTINCT FROM shard},
);
for my $name (sort keys %checks)
{
	my $res = $node->safe_psql('postgres',
		"SET timezone = 'UTC'; SELECT count(*) || ' ' || count(*) FILTER (WHERE $checks{$name}) FROM inp");
	is($res, "$rows 0", "$name: $rows inputs, no difference");
}

# The start of an id's time block, both forms, on up to 30,000 of the inputs: results or errors
# must be equal (a block far back from as_of can start before 4714 BC: 22008 in both editions).
my $sample = $rows < 30000 ? $rows : 30000;
$node->safe_psql('postgres', q{
-- s is an integer (seconds) or an interval: one function serves both forms.
CREATE FUNCTION bs(ext boolean, id uuid, s anyelement, c integer, t timestamptz) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN CASE WHEN ext THEN public.uuid_time_block_start(id, s, c, t) ELSE p.uuid_time_block_start(id, s, c, t) END;
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
});
my $bs = $node->safe_psql('postgres', qq{
SET timezone = 'UTC';
SELECT count(*) || ' ' || count(*) FILTER (WHERE bs(true, id, block_size, block_count, ts)
                                          IS DISTINCT FROM bs(false, id, block_size, block_count, ts))
       || ' ' || count(*) FILTER (WHERE bs(true, id, iv, block_count, ts)
                                  IS DISTINCT FROM bs(false, id, iv, block_count, ts))
       || ' ' || count(*) FILTER (WHERE bs(true, id, iv, block_count, ts) ~ '^[0-9]{4}-')
FROM inp WHERE g <= $sample});
my ($bs_n, $bs_diff, $bsi_diff, $bs_dates) = split / /, $bs;
is($bs_n, $sample, "uuid_time_block_start: $sample inputs");
is($bs_diff, 0, 'uuid_time_block_start (integer form): same result or error');
is($bsi_diff, 0, 'uuid_time_block_start (interval form): same result or error');
cmp_ok($bs_dates, '>', $sample / 10, "uuid_time_block_start: $bs_dates of them give a time");

# Bad inputs, and the edges around them: the same result, or the same SQLSTATE and message.
$node->safe_psql('postgres', q{
CREATE FUNCTION try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE stmt INTO r;
    RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
});
$node->safe_psql('postgres', qq{
SELECT setseed(-0.161);
CREATE TABLE bad AS
SELECT g, format(t, VARIADIC a) AS stmt
FROM (SELECT g, floor(random() * 11)::integer AS k,
             ARRAY[(ARRAY[-1, 0, 1, 4294967295, 4294967296, -9223372036854775808, 9223372036854775807,
                          floor(random() * 9e18 - 4.5e18)::bigint])[floor(random() * 8)::integer + 1]::text,
                   (ARRAY[-1, 0, 65535, 65536, 268435455, 268435456, 16777215, 16777216, -2147483648,
                          2147483647])[floor(random() * 10)::integer + 1]::text,
                   (ARRAY['infinity', '-infinity', '1969-12-31 23:59:59.999999+00', '1970-01-01+00',
                          '10889-08-02 05:31:50.655999+00', '10889-08-02 05:31:50.656+00',
                          '4714-11-24 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00',
                          '2106-02-07 06:28:16+00'])[floor(random() * 9)::integer + 1],
                   (ARRAY['\\x', '\\x11', '\\x112233', '\\x11223344'])[floor(random() * 4)::integer + 1],
                   (ARRAY[-2147483648, -1, 0, 1, 256, 257, 65536, 16777216, 16777217, 2147483647])
                       [floor(random() * 10)::integer + 1]::text,
                   (ARRAY['1 mon', '1 year 1 s', '-1 s', '0', '999 microseconds', '1 ms', '0.001001 s',
                          '2147483647 s', '2147483647.000001 s', '24855 days 3 hours 14 min 7 s',
                          '24856 days', '-1 day 25 hours', '1 day -1 ms', '250 ms'])
                       [floor(random() * 14)::integer + 1]]
             AS a
      FROM generate_series(1, $bad_rows) g) s,
     LATERAL (VALUES ((ARRAY[
         'SELECT @.locality_uuid_make(%1\$s, %2\$s, %2\$s, %3\$L)',
         'SELECT @.locality_uuid_make(1, %2\$s, 1, %3\$L, true)',
         'SELECT @.locality_uuid_make(1, 1, %2\$s, %3\$L)',
         'SELECT @.hot_uuid_make(%1\$s, %3\$L, %4\$L, %2\$s, %2\$s)',
         'SELECT @.hot_uuid_boundary(%3\$L)',
         'SELECT @.locality_uuid_block_layout(%5\$s, %5\$s)::text',
         'SELECT @.locality_uuid_block(''fedcba98-7654-4321-8fed-cba987654321'', %5\$s)',
         'SELECT @.locality_uuid_block_layout(%6\$L::interval, %5\$s)::text',
         'SELECT left(@.uuid_time_nextval_interval(%6\$L, %5\$s)::text, 0)',
         'SELECT @.uuid_time_block_start(''fedcba98-7654-4321-8fed-cba987654321'', %6\$L::interval, %5\$s, %3\$L)',
         'SELECT @.uuid_time_block_start(''fedcba98-7654-4321-8fed-cba987654321'', %5\$s, %5\$s, %3\$L)'])[k + 1])) AS c(t);
});
# The bounds at the edges of their range, where the extension has them.
$node->safe_psql('postgres', q{
INSERT INTO bad
SELECT -g, format('SELECT @.%s(%L)', f, t)
FROM unnest(ARRAY['uuidv7_lower', 'uuidv7_upper']) AS f,
     unnest(ARRAY['infinity', '-infinity', '1969-12-31 23:59:59.999999+00', '1970-01-01+00',
                  '10889-08-02 05:31:50.655999+00', '10889-08-02 05:31:50.656+00',
                  '4714-11-24 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00']) WITH ORDINALITY AS v(t, g)
WHERE to_regprocedure('public.uuidv7_lower(timestamptz)') IS NOT NULL;
});
my $bad = $node->safe_psql('postgres', q{
SET timezone = 'UTC';
SELECT count(*) || ' ' || count(*) FILTER (WHERE c IS DISTINCT FROM sql) || ' '
       || count(*) FILTER (WHERE c ~ '^[0-9A-Z]{5}: ')
FROM (SELECT try(replace(stmt, '@.', 'public.')) AS c, try(replace(stmt, '@.', 'p.')) AS sql FROM bad) s});
my ($n, $diff, $errors) = split / /, $bad;
is($n, $bad_rows + ($ext_v7 ? 16 : 0), "$bad_rows bad or edge inputs" . ($ext_v7 ? ', and 16 of the version 7 bounds' : ''));
is($diff, 0, 'bad or edge inputs: same result or same SQLSTATE and message')
  or diag($node->safe_psql('postgres', q{
	SET timezone = 'UTC';
	SELECT string_agg(stmt || ' => ' || c || ' | ' || sql, E'\n') FROM (
	  SELECT stmt, try(replace(stmt, '@.', 'public.')) AS c, try(replace(stmt, '@.', 'p.')) AS sql FROM bad) s
	WHERE c IS DISTINCT FROM sql}));
cmp_ok($errors, '>', $bad_rows / 4, "bad or edge inputs: $errors of them are errors");

$node->stop;
done_testing();
