# Multi-backend uniqueness: concurrent sessions generate in both modes into one unique key.
# All sessions of a round are live at once (barriers at start and end), so the process fields
# compared within a round belong to simultaneously live backends; each round uses new
# connections, and there are more connections than backend slots, so later rounds reuse slots.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use Test::More;

my $sessions = 10;
my $rounds = 3;
my $per_mode = 2000;
# Fewer slots than connections over all rounds: the process field (the backend slot) must
# repeat across rounds, whichever free slot a major hands out first. Enough slots for one
# round, the backends of the last round still exiting, and this script's own connection.
my $max_connections = 25;

my $node = extension_node('concurrency', conf => ["max_connections = $max_connections"]);
$node->safe_psql('postgres', q{
	CREATE TABLE ids (id uuid PRIMARY KEY, round int, session int, mode text);
	CREATE TABLE live (round int, session int, pid int, field int, PRIMARY KEY (round, session));
	CREATE TABLE done (round int, session int);
});

# With per-backend state the sessions follow the bucket seed rule, whose runs all start at
# the bucket's seed (below); with shared state they take the default, the continued run.
my $per_backend = $node->safe_psql('postgres', 'SELECT locality_uuid_state()') eq 'backend';
my $rule = $per_backend ? 'bucket' : 'continue';

# One session: register, wait for all, generate both modes, wait for all, leave.
sub session_sql
{
	my ($r, $s) = @_;
	return <<SQL;
SET locality_uuid.sequential_seed = $rule;
INSERT INTO live VALUES ($r, $s, pg_backend_pid(), locality_uuid_pid(locality_uuid()));
DO \$\$ BEGIN
	WHILE (SELECT count(*) FROM live WHERE round = $r) < $sessions LOOP PERFORM pg_sleep(0.01); END LOOP;
END \$\$;
INSERT INTO ids SELECT locality_uuid(false), $r, $s, 'variable' FROM generate_series(1, $per_mode);
SELECT locality_uuid_use_sequential_ids();
INSERT INTO ids SELECT locality_uuid(), $r, $s, 'sequential' FROM generate_series(1, $per_mode);
INSERT INTO done VALUES ($r, $s);
DO \$\$ BEGIN
	WHILE (SELECT count(*) FROM done WHERE round = $r) < $sessions LOOP PERFORM pg_sleep(0.01); END LOOP;
END \$\$;
SQL
}

my $errors = 0;
for my $r (1 .. $rounds)
{
	my @h = map { start_psql($node, 'postgres', session_sql($r, $_)) } 1 .. $sessions;
	for my $h (@h)
	{
		next if finish_psql($h);
		$errors++;
		diag "round $r session failed: $h->{err}";
	}
}
is($errors, 0, 'sessions finished without error');

my $total = $rounds * $sessions * $per_mode * 2;
my $q = sub { $node->safe_psql('postgres', shift) };
is($q->('SELECT count(*) FROM ids'), $total, 'row count exact');
is($q->('SELECT count(DISTINCT id) FROM ids'), $total, 'all ids distinct, across rounds too');
is($q->(q{SELECT count(*) FROM ids WHERE locality_uuid_version(id) <> 'b'}), 0, 'every id is version b');
is($q->('SELECT count(*) FROM (SELECT round FROM live GROUP BY round HAVING count(DISTINCT field) = count(*)) s'),
	$rounds, 'process fields distinct among live sessions of each round');
is($q->('SELECT count(*) FROM ids JOIN live USING (round, session) WHERE locality_uuid_pid(id) <> field'),
	0, q{every id carries its session's process field});
is($q->('SELECT count(*) FROM live'), $rounds * $sessions, 'every session registered');
is($q->("SELECT count(DISTINCT field) < count(*) AND max(field) < $max_connections FROM live"),
	't', "backend slots reused across rounds ($rounds x $sessions connections, $max_connections slots)");
note 'process fields by round: '
  . $q->(q{SELECT string_agg(round || ': ' || fields, '; ' ORDER BY round) FROM
	(SELECT round, string_agg(field::text, ' ' ORDER BY session) AS fields FROM live GROUP BY round) s});

# With per-backend state, bucket-rule sessions in one bucket start from the same seed, so their
# counters coincide: uniqueness comes from the process field, by construction, not from luck.
# With shared state (17+, or preloaded) they take turns in one run: no counter is shared.
my $shared = $q->(q{SELECT count(*) FROM (SELECT round, locality_uuid_counter(id, true)
	FROM ids WHERE mode = 'sequential' GROUP BY 1, 2 HAVING count(DISTINCT session) > 1) s});
note "sequential counter values shared by several live sessions: $shared";
if ($q->('SELECT locality_uuid_state()') eq 'backend')
{
	cmp_ok($shared, '>', 0, 'per-backend state: sequential sessions share counter values');
}
else
{
	is($shared, 0, 'shared state: sequential sessions take turns in one run, no counter value shared');
}
note "$rounds rounds x $sessions sessions x $per_mode ids per mode: $total ids, 0 duplicates allowed";

done_testing();
