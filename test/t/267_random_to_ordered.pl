# docs/choosing.md, "From random keys to ordered ones", on a live table: accounts keyed by
# gen_random_uuid(), a foreign key of payments pointing at it, and a session inserting into both
# throughout. The DEFAULT's switch takes an ACCESS EXCLUSIVE lock for milliseconds, given up after
# lock_timeout behind a long transaction; the survey and the column report before and after; and
# for each step (the switch, REINDEX CONCURRENTLY under inserts, CLUSTER) the leaves a batch of
# inserts touches, its WAL per insert and the index's size, measured with pageinspect and printed.
use strict;
use warnings;

use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('switch', conf => ['fsync = off', 'autovacuum = off']);
plan skip_all => 'pageinspect is not installed'
  unless $node->safe_psql('postgres', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pageinspect'});

$node->safe_psql('postgres', q{
	CREATE EXTENSION pageinspect;
	CREATE TABLE accounts (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int NOT NULL);
	CREATE TABLE payments (id bigserial PRIMARY KEY, account uuid NOT NULL REFERENCES accounts, n int NOT NULL);
	CREATE INDEX payments_account ON payments (account);
	INSERT INTO accounts (n) SELECT generate_series(1, 100000);
	INSERT INTO payments (account, n) SELECT id, n FROM accounts WHERE n % 10 = 0;
	VACUUM ANALYZE accounts, payments;

	-- A batch of rows inserts after a checkpoint (so that each leaf it touches first pays its
	-- full-page image, as in production): the leaves of the key's index whose LSN moved, the WAL
	-- per insert, the index's pages and its leaves' mean fill.
	CREATE FUNCTION batch(rows integer, OUT leaves_touched bigint, OUT wal_per_insert bigint,
	                      OUT index_pages bigint, OUT leaf_fill numeric)
	LANGUAGE plpgsql AS $$
	DECLARE
		lsn0 pg_lsn;
	BEGIN
		CHECKPOINT;
		lsn0 := pg_current_wal_insert_lsn();
		INSERT INTO accounts (n) SELECT generate_series(1, rows);
		wal_per_insert := round((pg_current_wal_insert_lsn() - lsn0) / rows);
		index_pages := pg_relation_size('accounts_pkey') / current_setting('block_size')::int;
		SELECT count(*) FILTER (WHERE h.lsn > lsn0), round(avg(100 - s.free_size * 100.0 / 8156), 1)
		INTO leaves_touched, leaf_fill
		FROM generate_series(1, index_pages - 1) AS b,
		     LATERAL bt_page_stats('accounts_pkey', b) AS s,
		     LATERAL page_header(get_raw_page('accounts_pkey', b::int)) AS h
		WHERE s.type = 'l';
	END
	$$;

	-- The churn: one account and a payment for it per transaction, a millisecond apart (a steady
	-- load rather than as many as a backend can, whose count would swing the figures), until stop
	-- holds a row.
	CREATE TABLE stop (at timestamptz);
	CREATE PROCEDURE churn() LANGUAGE plpgsql AS $$
	DECLARE
		a uuid;
	BEGIN
		WHILE NOT EXISTS (SELECT FROM stop) LOOP
			INSERT INTO accounts (n) VALUES (-1) RETURNING id INTO a;
			INSERT INTO payments (account, n) VALUES (a, -1);
			COMMIT;
			PERFORM pg_sleep(0.001);
		END LOOP;
	END
	$$;
});

# Start the churn; stop_churn ends it and returns (psql's success, its stderr).
sub start_churn
{
	$node->safe_psql('postgres', 'TRUNCATE stop; DELETE FROM payments WHERE n = -1; DELETE FROM accounts WHERE n = -1');
	my $h = start_psql($node, 'postgres', 'CALL churn();', conn => 'application_name=churn');
	$node->poll_query_until('postgres', q{SELECT count(*) > 100 FROM accounts WHERE n = -1})
	  or die 'the churn did not start';
	return $h;
}

sub stop_churn
{
	my ($h) = @_;
	$node->safe_psql('postgres', 'INSERT INTO stop VALUES (now())');
	my $ok = finish_psql($h);
	return ($ok, $h->{err});
}

sub batch
{
	my ($step) = @_;
	my ($leaves, $wal, $pages, $fill) = split /\|/, $node->safe_psql('postgres', 'SELECT * FROM batch(2000)');
	note sprintf('%-28s 2,000 inserts touch %4d leaves, %5d bytes of WAL each; index %4d pages, leaves %s %% full',
		$step, $leaves, $wal, $pages, $fill);
	return { leaves => $leaves, wal => $wal, pages => $pages, fill => $fill };
}

sub survey
{
	return $node->safe_psql('postgres', q{
		SELECT col, generator, generator_from, hot_set_bytes_saved > 0, correlation > 0.9, advice
		FROM locality_uuid_survey('public') WHERE tab = 'accounts'::regclass OR col = 'account' ORDER BY col});
}

sub report
{
	my ($items) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT item || ': ' || coalesce(value, '') FROM locality_uuid_column_report('accounts', 'id')
		WHERE item IN ($items) ORDER BY item});
}

# 1. Before: the survey lists the random key and the foreign key; the report reads random keys.
my $before = batch('gen_random_uuid()');
like(survey(), qr/^account\|\|foreign key to accounts\|\|f\|none here.*\nid\|gen_random_uuid\(\)\|core\|t\|f\|switch the DEFAULT to uuidv7_ordered\(\)/,
	'survey before: the random key saves, the foreign key refers to it');
is(report(q{'format random (version 4)', 'generator to pick'}),
	"format random (version 4): 100.0 %\ngenerator to pick: uuidv7_ordered()", 'report before: random keys, pick uuidv7_ordered()');

# 2. The switch, with inserts running: behind a long transaction, lock_timeout gives up (55P03)
# rather than queue every insert behind the ALTER; then it takes milliseconds.
my $churn = start_churn();

# Start a session (application_name name) that runs sql and holds a lock on table while it does;
# return it once the lock is granted.
sub holding
{
	my ($name, $table, $sql) = @_;
	my $session = start_psql($node, 'postgres', $sql, conn => "application_name=$name");
	$node->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM pg_locks l JOIN pg_stat_activity a USING (pid)
		WHERE a.application_name = '$name' AND l.relation = '$table'::regclass AND l.granted})
	  or die "$name took no lock on $table";
	return $session;
}
my $holder = holding('holder', 'accounts', 'BEGIN; SELECT count(*) FROM accounts; SELECT pg_sleep(2); COMMIT;');
my $switch = q{SET lock_timeout = '200ms'; ALTER TABLE accounts ALTER COLUMN id SET DEFAULT uuidv7_ordered();};
is(as($node, 'postgres', undef, $switch), '|ERROR:  55P03', 'behind a long transaction the switch gives up after lock_timeout');
ok(finish_psql($holder), 'the long transaction ends');
# The survey takes no lock of any table: it answers while a session holds ACCESS EXCLUSIVE on a
# table whose DEFAULT is locality_uuid(true) (deparsing that DEFAULT with its table waited).
$node->safe_psql('postgres', 'CREATE TABLE locked_keys (id uuid PRIMARY KEY DEFAULT locality_uuid(true))');
my $locker = holding('locker', 'locked_keys', 'BEGIN; LOCK TABLE locked_keys IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(3); COMMIT;');
is(as($node, 'postgres', undef, q{SET lock_timeout = '500ms';
	SELECT generator FROM locality_uuid_survey('public') WHERE tab = 'locked_keys'::regclass}),
	'locality_uuid(true)|', 'the survey answers while another session holds ACCESS EXCLUSIVE on a table');
ok(finish_psql($locker), 'the lock is released');
$node->safe_psql('postgres', 'DROP TABLE locked_keys');
is( $node->safe_psql('postgres', q{
		BEGIN;
		ALTER TABLE accounts ALTER COLUMN id SET DEFAULT gen_random_uuid();
		SELECT mode FROM pg_locks WHERE relation = 'accounts'::regclass AND pid = pg_backend_pid() AND mode LIKE 'Access%';
		ROLLBACK;}),
	'AccessExclusiveLock', 'SET DEFAULT takes an ACCESS EXCLUSIVE lock on the table');
my $ms = $node->safe_psql('postgres', qq{
	CREATE TEMP TABLE t0 AS SELECT clock_timestamp() AS t;
	$switch
	SELECT round(extract(epoch FROM clock_timestamp() - t) * 1000) FROM t0;});
note "the switch under inserts: $ms ms";
cmp_ok($ms, '<', 1000, 'the switch takes less than a second under inserts');
$node->poll_query_until('postgres', q{SELECT count(*) > 100 FROM accounts WHERE n = -1 AND uuid_extract_version(id) = 7})
  or die 'no ordered key after the switch';
my ($ok, $err) = stop_churn($churn);
ok($ok, 'the inserts ran through the switch without an error') or diag $err;
is( $node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE uuid_extract_version(id) = 4) > 100, count(*) FILTER (WHERE uuid_extract_version(id) = 7) > 100
		FROM accounts WHERE n = -1}),
	't|t', 'the same session inserted random keys, then ordered ones');

# 3. After: a batch touches a few leaves at one point of the index, and writes a fraction of the WAL.
my $switched = batch('switched to uuidv7_ordered()');
cmp_ok($switched->{leaves} * 10, '<', $before->{leaves}, 'after the switch a batch touches under a tenth of the leaves');
cmp_ok($switched->{wal} * 3, '<', $before->{wal}, 'and writes under a third of the WAL per insert');
$node->safe_psql('postgres', 'ANALYZE accounts, payments');
like(survey(), qr/\nid\|uuidv7_ordered\(\)\|locality_uuid\|f\|f\|keep: new keys go to one leaf at a time; the older keys do not follow insert order/,
	'survey after: the ordered generator, nothing saved, older keys in place');

# The new keys sort below most random ones (their time comes first), so the leaf they
# fill is never the index's rightmost, and PostgreSQL splits it in the middle: half-full leaves,
# where a table that always had ordered keys fills them to 90 %. Pages per 20,000 inserts:
my $grown = $node->safe_psql('postgres', q{
	SELECT pg_relation_size('accounts_pkey') / 8192 FROM (SELECT 1) s;
	INSERT INTO accounts (n) SELECT generate_series(1, 20000);
	SELECT pg_relation_size('accounts_pkey') / 8192;
	CREATE TABLE fresh (id uuid PRIMARY KEY DEFAULT uuidv7_ordered(), n int);
	INSERT INTO fresh (n) SELECT generate_series(1, 20000);
	SELECT pg_relation_size('fresh_pkey') / 8192;});
my ($p0, $p1, $fresh) = split /\n/, $grown;
note sprintf('20,000 ordered inserts: %d pages after the switch, %d in a table that always had them', $p1 - $p0, $fresh);
cmp_ok(($p1 - $p0) * 10, '>', $fresh * 14, 'after a switch, ordered keys fill leaves about half (splits in the middle)');

# The report reads its newest tenth of the heap: ordered once the new keys fill it.
like(report(q{'format random (version 4)', 'the newest keys'' order follows insert order', 'generator to pick'}),
	qr/^format random \(version 4\): [6-9]\d\.\d %\ngenerator to pick: uuidv7_ordered\(\)\nthe newest keys' order follows insert order: 1\.000$/,
	'report after: the newest keys ordered, most of the old ones random');

# 4. REINDEX CONCURRENTLY with inserts running: all leaves packed to 90 %, the foreign key intact.
my $pages_sql = q{SELECT pg_relation_size('accounts_pkey') / current_setting('block_size')::int};
my $pre = $node->safe_psql('postgres', $pages_sql);
$churn = start_churn();
$node->safe_psql('postgres', 'REINDEX INDEX CONCURRENTLY accounts_pkey');
($ok, $err) = stop_churn($churn);
ok($ok, 'the inserts ran through REINDEX CONCURRENTLY without an error') or diag $err;
my $post = $node->safe_psql('postgres', $pages_sql);
note "REINDEX CONCURRENTLY under inserts: index $pre pages before, $post after";
my $reindexed = batch('REINDEX CONCURRENTLY');
cmp_ok($post * 10, '<', $pre * 8, 'REINDEX CONCURRENTLY shrinks the index by a fifth or more');
cmp_ok($reindexed->{fill}, '>', 85, 'and packs its leaves to about 90 %');
is( $node->safe_psql('postgres', q{
		SELECT i.indisvalid, (SELECT count(*) FROM payments p LEFT JOIN accounts a ON a.id = p.account WHERE a.id IS NULL)
		FROM pg_index i WHERE i.indexrelid = 'accounts_pkey'::regclass}),
	't|0', 'the new index is valid and every payment finds its account');

# 5. CLUSTER: the heap in key order (correlation 1), at the price of an ACCESS EXCLUSIVE lock for
# the whole rewrite (no inserts meanwhile); inserts touch no fewer leaves than after the reindex.
my ($rows, $cluster_ms) = split /\|/, $node->safe_psql('postgres', q{
	CREATE TEMP TABLE t0 AS SELECT clock_timestamp() AS t;
	CLUSTER accounts USING accounts_pkey;
	SELECT count(*), round(extract(epoch FROM clock_timestamp() - t) * 1000) FROM t0, accounts GROUP BY t;});
note "CLUSTER of $rows rows: $cluster_ms ms, every insert blocked meanwhile";
my $clustered = batch('CLUSTER');
$node->safe_psql('postgres', 'ANALYZE accounts');
like(survey(), qr/\nid\|uuidv7_ordered\(\)\|locality_uuid\|f\|t\|keep: new keys go to one leaf at a time; the older random keys \(a switch of generator\) sort above the new ones, which land inside the index, not at its right edge/,
	'survey after CLUSTER: keys follow heap order, yet the old random keys sort above the new ones');
like($node->safe_psql('postgres', q{
		SELECT value || ': ' || detail FROM locality_uuid_column_report('accounts', 'id') WHERE item = 'generator to pick'}),
	qr/^uuidv7_ordered\(\): an ordered generator makes the new keys \(the DEFAULT, or the newest keys show it\), but they sort below the older random ones/,
	'report after CLUSTER: the generator kept, the old random keys above the new ones');
cmp_ok($clustered->{leaves}, '<=', $reindexed->{leaves} + 5, 'CLUSTER saves inserts no further leaves');

note 'pg_repack: '
  . ($node->safe_psql('postgres', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_repack'})
	? 'installed, not measured (CLUSTER stands for it)' : 'not installed');

done_testing();
