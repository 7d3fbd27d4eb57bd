# Who installs it: the guarantees hold in three set-ups, run by one shared sequence of steps:
# the C extension installed by a superuser; the C extension installed (as a trusted extension,
# from 1.3 and updated) by a database owner who is not a superuser, who also dumps, restores,
# releases and drops it; the portable edition installed by an ordinary role. Each cluster has
# two databases with the edition in schema ids, and a hostile role with CREATE on ids and on
# public that plants look-alikes of every function the edition has and calls (every integer
# argument swapped, all at once, one more defaulted argument) and of integer operators, each
# recording a call in its table. Across a clean restart, a crash restart, a standby's promotion,
# pg_upgrade and pg_dump/restore (each on a clock set back another hour, the other database
# calling first): no id of either database repeats, explicit-time ids repeat none made before,
# uuidv7_ordered() never goes below an id of its database, no planted object runs, nothing
# fails because of one; read-only calls refuse with 25006 every time; privileges hold. The
# restore also goes, by the same actor, with --clean into a live database that made ids, and
# (C extension) into a database where a superuser created the extension, then a restart.
# The portable edition orders uuidv7_ordered() per session only (docs/portable.md): its ordered
# ids are checked within each session. LOCALITY_UUID_SETUPS=REGEX runs the set-ups it matches;
# LOCALITY_UUID_260_PLANTS=0 plants nothing (to see what else fails where a planted object
# breaks every call).
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

my $n = 1000;                                  # ids per generator, phase and database
my $second = '2024-03-01 12:00:00+00';         # explicit second of the hot_uuid backfills
my $milli = '2024-03-01 12:00:00.123+00';      # explicit millisecond of the uuidv7_ordered ones
my $path = '-c search_path=ids,app,public';    # every caller: the edition's schema first
my $t_start = Time::HiRes::time();

# Shared state: the DSM registry from 17, shared_preload_libraries before.
my ($shared) = grep { $_->{shared} } state_kinds();
my @conf = ('fsync = off', 'autovacuum = off', $shared->{preload} ? q{shared_preload_libraries = 'locality_uuid'} : ());

# The set-ups: who installs (actor; undef is the bootstrap superuser) and how. install runs as
# the actor in a database whose schema ids it may create in; update moves an install on
# (ALTER EXTENSION UPDATE from 1.3; the portable file run again); drop removes it.
my %c_edition = (
	edition => 'C extension',
	install => sub {
		my ($node, $db, $actor, $version) = @_;
		my $v = defined $version ? " VERSION '$version'" : '';
		return (as_role($node, $db, $actor, "CREATE EXTENSION locality_uuid$v SCHEMA ids"))[1];
	},
	update => sub { my ($node, $db, $actor) = @_; return (as_role($node, $db, $actor, 'ALTER EXTENSION locality_uuid UPDATE'))[1] },
	drop => sub { my ($node, $db, $actor) = @_; return (as_role($node, $db, $actor, 'DROP EXTENSION locality_uuid'))[1] },
	ordered_across_sessions => 1,
	# 2^23 allocation numbers between two batches of one second: the installer moves the
	# sequence of ranges of 256 on so that the next range starts 2^23 numbers after the first
	# batch's (its nextval, then 32,766 more), as 8,388,352 calls at other seconds would
	# (076_explicit_limits.pl makes those calls one by one).
	advance => q{SELECT pg_catalog.setval('ids.locality_uuid_hot_allocation'::regclass,
		pg_catalog.nextval('ids.locality_uuid_hot_allocation'::regclass) + 32766) > 0},
);
my %p_edition = (
	edition => 'portable edition',
	install => \&install_portable_as,
	update => \&install_portable_as,
	drop => sub { my ($node, $db, $actor) = @_; return (as_role($node, $db, $actor, 'DROP SCHEMA ids, ids_internal CASCADE'))[1] },
	ordered_across_sessions => 0,
	# The same, on the edition's sequence of numbers.
	advance => q{SELECT pg_catalog.setval('ids.locality_uuid_portable_explicit'::regclass,
		pg_catalog.nextval('ids.locality_uuid_portable_explicit'::regclass) + 8388352) > 0},
);
my @setups = (
	{ name => 'superuser', what => 'C extension installed by a superuser', actor => undef, from => undef, %c_edition },
	{ name => 'owner', what => 'C extension installed by the database owner (trusted)', actor => 'owner', from => '1.3', %c_edition },
	{ name => 'portable', what => 'portable edition installed by an ordinary role', actor => 'installer', from => undef, %p_edition },
);
@setups = grep { $_->{name} =~ /$ENV{LOCALITY_UUID_SETUPS}/ } @setups if $ENV{LOCALITY_UUID_SETUPS};

# Run SQL through psql as role (undef: the superuser) in db with the callers' search_path:
# (stdout, error and warning lines by SQLSTATE).
sub as_role
{
	my ($node, $db, $role, $sql, %opts) = @_;
	return psql_states($node, $db, $sql, (defined $role ? (user => $role) : ()), options => $opts{options} // $path);
}

# Run SQL as role and test that it gives no error or warning; returns stdout.
sub ok_as
{
	my ($node, $db, $role, $sql, $name) = @_;
	my ($out, $states) = as_role($node, $db, $role, $sql);
	is($states, '', $name);
	return $out;
}

# Install the portable edition into schema ids of db as actor with psql -f; returns stderr's
# error lines (empty when it installed).
sub install_portable_as
{
	my ($node, $db, $actor) = @_;
	my ($out, $err) = ('', '');
	my $rc = $node->psql($db, undef, stdout => \$out, stderr => \$err, on_error_stop => 1,
		extra_params => [ (defined $actor ? ('-U', $actor) : ()), '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql' ]);
	return $rc == 0 && $err eq '' ? '' : "rc $rc: $err";
}

# The hostile role's trace table and function, then its look-alikes in ids and public of every
# function of the edition (in ids, and the portable edition's helpers in ids_internal, where
# it may not create) and of every pg_catalog function whose name a body of the edition
# contains: each integer argument swapped to every other integer type, all of them swapped at
# once, and (for the edition's helpers, the functions of ids that a SQL-standard body of ids
# calls, and pg_catalog's) one more argument with a default; and of the integer operators pg_catalog lacks for some pair of integer types. Each
# look-alike raises a WARNING and writes a row to public.trap. Returns the number planted.
my $plant_sql = q{
CREATE TABLE public.trap (object text, caller name, at timestamptz DEFAULT clock_timestamp());
GRANT SELECT, INSERT ON public.trap TO PUBLIC;
CREATE FUNCTION public.trap_hit(object text) RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
    RAISE WARNING 'planted object ran: %', object;
    INSERT INTO public.trap (object, caller) VALUES (object, current_user);
END $f$;
CREATE FUNCTION pg_temp.plant(nsp text, fn text, args text[], ret text, extra boolean DEFAULT false) RETURNS integer
LANGUAGE plpgsql AS $f$
DECLARE
    sig text := format('%I.%I(%s)', nsp, fn, array_to_string(args || CASE WHEN extra THEN ARRAY['integer DEFAULT 0'] END, ', '));
BEGIN
    IF NOT extra AND to_regprocedure(format('pg_catalog.%I(%s)', fn, array_to_string(args, ', '))) IS NOT NULL THEN
        RETURN 0;
    END IF;
    EXECUTE format('CREATE FUNCTION %s RETURNS %s LANGUAGE plpgsql AS %L', sig, ret,
        format('BEGIN PERFORM public.trap_hit(%L); RETURN%s; END', sig, CASE WHEN ret = 'void' THEN '' ELSE ' NULL' END));
    RETURN 1;
EXCEPTION WHEN duplicate_function THEN
    RETURN 0;
END $f$;
CREATE FUNCTION pg_temp.plant_all() RETURNS integer LANGUAGE plpgsql AS $f$
DECLARE
    ints text[] := ARRAY['smallint', 'integer', 'bigint', 'numeric'];
    r record;
    nsp text;
    t text;
    v text[];
    i integer;
    planted integer := 0;
    op text;
    l text;
    rt text;
    k integer := 0;
BEGIN
    FOR r IN
        SELECT p.proname AS fn,
               ARRAY(SELECT format_type(a.t, NULL) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, i) ORDER BY a.i) AS args,
               format_type(p.prorettype, NULL) AS ret,
               p.pronamespace <> 'ids'::regnamespace OR p.proname LIKE 'locality\_uuid\_portable\_%'
               OR EXISTS (SELECT FROM pg_depend d JOIN pg_proc b ON b.oid = d.objid
                          WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_proc'::regclass
                            AND d.refobjid = p.oid AND b.pronamespace = 'ids'::regnamespace) AS helper
        FROM pg_proc p
        WHERE p.prokind = 'f' AND NOT p.proretset AND p.proallargtypes IS NULL
          AND NOT EXISTS (SELECT FROM unnest(p.proargtypes::oid[] || p.prorettype) x(t) JOIN pg_type y ON y.oid = x.t
                          WHERE y.typtype = 'p' AND y.typname NOT IN ('void', 'record'))
          AND (p.pronamespace IN ('ids'::regnamespace, to_regnamespace('ids_internal'))
               OR (p.pronamespace = 'pg_catalog'::regnamespace AND p.proname IN (
                   SELECT m[1] FROM pg_proc b JOIN pg_language l ON l.oid = b.prolang,
                        regexp_matches(lower(b.prosrc || ' ' || coalesce(pg_get_function_sqlbody(b.oid), '')),
                                       '[a-z_][a-z0-9_]*', 'g') m
                   WHERE b.pronamespace IN ('ids'::regnamespace, to_regnamespace('ids_internal'))
                     AND l.lanname NOT IN ('c', 'internal'))))
    LOOP
        FOREACH nsp IN ARRAY ARRAY['ids', 'public'] LOOP
            FOR i IN 1 .. cardinality(r.args) LOOP
                CONTINUE WHEN NOT r.args[i] = ANY (ints);
                FOREACH t IN ARRAY ints LOOP
                    CONTINUE WHEN t = r.args[i];
                    v := r.args;
                    v[i] := t;
                    planted := planted + pg_temp.plant(nsp, r.fn, v, r.ret);
                END LOOP;
            END LOOP;
            FOREACH t IN ARRAY ints LOOP
                v := ARRAY(SELECT CASE WHEN a = ANY (ints) THEN t ELSE a END FROM unnest(r.args) a);
                CONTINUE WHEN v = r.args;
                planted := planted + pg_temp.plant(nsp, r.fn, v, r.ret);
            END LOOP;
            IF r.helper THEN
                planted := planted + pg_temp.plant(nsp, r.fn, r.args, r.ret, true);
            END IF;
        END LOOP;
    END LOOP;
    FOREACH op IN ARRAY ARRAY['&', '|', '#', '<<', '>>', '+', '-', '*', '/', '%', '=', '<>', '<', '>', '<=', '>='] LOOP
        FOREACH l IN ARRAY ints LOOP
            FOREACH t IN ARRAY ints LOOP
                CONTINUE WHEN EXISTS (SELECT FROM pg_operator WHERE oprname = op AND oprleft = l::regtype
                                      AND oprright = t::regtype AND oprnamespace = 'pg_catalog'::regnamespace);
                rt := CASE WHEN op IN ('=', '<>', '<', '>', '<=', '>=') THEN 'boolean' ELSE l END;
                k := k + 1;
                EXECUTE format('CREATE FUNCTION public.trap_op_%s(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L', k, l, t, rt,
                    format('BEGIN PERFORM public.trap_hit(%L); RETURN NULL; END', format('operator %s(%s, %s)', op, l, t)));
                FOREACH nsp IN ARRAY ARRAY['ids', 'public'] LOOP
                    EXECUTE format('CREATE OPERATOR %I.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.trap_op_%s)',
                                   nsp, op, l, t, k);
                    planted := planted + 1;
                END LOOP;
            END LOOP;
        END LOOP;
    END LOOP;
    RETURN planted;
END $f$;
SELECT pg_temp.plant_all();
};

# The generators of @GENERATORS the install in db has (the function the expression calls first
# is in ids, or for the C extension a member of it).
sub generators_of
{
	my ($node, $db) = @_;
	my %have = map { $_ => 1 } split /\n/, $node->safe_psql($db, q{
		SELECT DISTINCT proname FROM pg_proc WHERE pronamespace = 'ids'::regnamespace});
	return grep { my ($f) = $_->[1] =~ /^(\w+)\(/; $have{$f} } @GENERATORS;
}

# The allocation key of an explicit-time id of either kind: the whole id for hot_uuid, the
# millisecond and the 41-bit allocation number for uuidv7_ordered (its last 4 bytes are random).
my $bf_key = q{CASE kind WHEN 'hot' THEN id::text ELSE left(id::text, 18) || substr(id::text, 20, 4) || substr(id::text, 25, 4) END};

for my $s (@setups)
{
	my ($name, $actor) = @$s{qw(name actor)};
	my $who = $actor // 'the superuser';
	note "set-up $name: $s->{what}";
	my $clock = "$PostgreSQL::Test::Utils::tmp_check/260_$name.faketime";
	set_fake_clock($clock, '+0');
	my $back = 0;

	my $node = extension_node("${name}_primary", extension => 0, init => { allows_streaming => 1 }, conf => \@conf,
		clock => $clock);
	my $superuser = $node->safe_psql('postgres', 'SELECT current_user');
	my $actor_role = $actor // $superuser;

	# Roles, databases and schemas. db1 and db2 hold the install; life runs the install's life
	# (install, update, release, drop, create again); poly holds alice's own uuidv7.
	my $roles = q{
		CREATE ROLE owner LOGIN; CREATE ROLE installer LOGIN; CREATE ROLE hostile LOGIN;
		CREATE ROLE reader LOGIN; CREATE ROLE alice LOGIN;};
	# The portable edition's helpers' schema, made for its installer as docs/portable.md says.
	my $internal = $s->{edition} eq 'C extension' ? '' : qq{CREATE SCHEMA ids_internal AUTHORIZATION "$actor_role";};
	my $databases = sub {
		my ($n, @dbs) = @_;
		for my $db (@dbs)
		{
			$n->safe_psql('postgres', "CREATE DATABASE $db OWNER owner");
			$n->safe_psql($db, qq{
				CREATE SCHEMA ids AUTHORIZATION "$actor_role";
				CREATE SCHEMA app AUTHORIZATION "$actor_role";
				$internal
				GRANT USAGE ON SCHEMA ids, app TO PUBLIC;
				GRANT USAGE, CREATE ON SCHEMA ids TO hostile;
				GRANT CREATE ON SCHEMA public TO hostile, alice, "$actor_role";});
		}
	};
	$node->safe_psql('postgres', $roles);
	$databases->($node, qw(db1 db2 life poly));
	# Explicit-time ids are numbered by each database's sequences: two databases whose ids must
	# differ take machine names of their own (docs/guarantees.md), set by a superuser.
	$node->safe_psql('postgres', q{ALTER DATABASE db1 SET locality_uuid.machine_name = 'host-db1';
		ALTER DATABASE db2 SET locality_uuid.machine_name = 'host-db2'});
	# The portable edition is removed with its schema: installing it again makes the schema.
	$node->safe_psql('postgres', qq{GRANT CREATE ON DATABASE life TO "$actor_role"});
	is( $node->safe_psql('db1', qq{SELECT rolsuper::text || ' ' || (SELECT datdba = r.oid FROM pg_database
		WHERE datname = 'db1')::text FROM pg_roles r WHERE rolname = '$actor_role'}),
		{ superuser => 'true false', owner => 'false true', portable => 'false false' }->{$name},
		"$name: $who is " . { superuser => 'a superuser', owner => 'the database owner, not a superuser',
			portable => 'neither superuser nor database owner' }->{$name});

	# 1. Install into db1 (for the owner from 1.3, then updated) and db2.
	is($s->{install}->($node, 'db1', $actor, $s->{from}), '', "$name: $who installs the $s->{edition} in db1"
		  . (defined $s->{from} ? " at $s->{from}" : ''));
	is($s->{update}->($node, 'db1', $actor), '', "$name: $who updates the install of db1") if defined $s->{from};
	is($s->{install}->($node, 'db2', $actor), '', "$name: $who installs the $s->{edition} in db2");
	my @gens = generators_of($node, 'db1');
	note "$name: generators " . join(' ', map { $_->[0] } @gens);
	for my $db (qw(db1 db2))
	{
		ok_as($node, $db, $actor, qq{SET search_path = app; $GENERATOR_SETUP
			CREATE TABLE app.made (gen text, phase text, id uuid);
			CREATE TABLE app.ord (n bigserial, phase text, id uuid);
			CREATE TABLE app.bf (kind text, phase text, id uuid);
			GRANT USAGE ON SEQUENCE app.rel_shared_seq TO reader;}, "$name: $db: the actor's tables");
		# LOCALITY_UUID_260_PLANTS=0 (to see what else fails on code that a planted object breaks)
		# creates the trace table only.
		my $sql = ($ENV{LOCALITY_UUID_260_PLANTS} // 1) ? $plant_sql : $plant_sql =~ s/CREATE FUNCTION pg_temp.*//sr;
		my ($planted) = $node->safe_psql($db, $sql, extra_params => [ '-U', 'hostile' ]);
		cmp_ok($planted, '>', 100, "$name: $db: hostile planted $planted look-alikes in ids and public")
		  if $ENV{LOCALITY_UUID_260_PLANTS} // 1;
	}

	# One phase: the other database calls uuidv7_ordered() first; then in each database the
	# actor makes $n ordered ids (none below its database's earlier ones where the edition
	# orders across sessions; increasing within the session in every edition), $n ids of every
	# generator, and $n explicit-time ids of one second and one millisecond of each kind.
	my $phase = sub {
		my ($nd, $label, $first) = @_;
		my $tag = "$name: $label";
		my @dbs = $first eq 'db1' ? qw(db1 db2) : qw(db2 db1);
		ok_as($nd, $dbs[0], $actor, 'SELECT uuidv7_ordered() IS NOT NULL', "$tag: $dbs[0] calls uuidv7_ordered() first")
		  if $label ne 'start';
		for my $db (reverse @dbs)
		{
			# The database that calls first after the next event made its last ordered id more
			# than a lease (1 s) before this one's: its lease is below this one's ids.
			Time::HiRes::sleep(1.2) if $s->{ordered_across_sessions} && $db eq $first;
			ok_as($nd, $db, $actor, "INSERT INTO app.ord (phase, id) SELECT '$label', uuidv7_ordered() FROM generate_series(1, $n)",
				"$tag: $db: $n ordered ids");
			is( $nd->safe_psql($db, qq{SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
				FROM app.ord WHERE phase = '$label') s WHERE id <= prev}),
				'0', "$tag: $db: ordered ids increasing within the session");
			if ($s->{ordered_across_sessions})
			{
				is( $nd->safe_psql($db, qq{SELECT count(*) FROM app.ord WHERE phase = '$label'
					AND id <= (SELECT id FROM app.ord WHERE phase <> '$label' ORDER BY id DESC LIMIT 1)}),
					'0', "$tag: $db: 0 of $n ordered ids below the database's earlier ones");
			}
			ok_as($nd, $db, $actor,
				join("\n", map { "INSERT INTO app.made SELECT '$_->[0]', '$label', $_->[1] FROM generate_series(1, $n);" } @gens)
				  . "\nINSERT INTO app.bf SELECT 'hot', '$label', hot_uuid(7::bigint, timestamptz '$second') FROM generate_series(1, $n);"
				  . "\nINSERT INTO app.bf SELECT 'v7', '$label', uuidv7_ordered(timestamptz '$milli') FROM generate_series(1, $n);",
				"$tag: $db: $n ids of each of " . scalar(@gens) . " generators, $n explicit-time ids of each kind");
			is( $nd->safe_psql($db, q{SELECT count(*) - count(DISTINCT id) FROM app.made}),
				'0', "$tag: $db: no id repeats, this phase and every one before");
			is( $nd->safe_psql($db, "SELECT kind || ' ' || count(*) - count(DISTINCT $bf_key) FROM app.bf GROUP BY kind ORDER BY 1"),
				"hot 0\nv7 0", "$tag: $db: no explicit-time id (allocation number) repeats across phases");
			is($nd->safe_psql($db, 'SELECT count(*) FROM public.trap'), '0', "$tag: $db: no planted object ran");
		}
		# Across the two databases: every id of one phase is told from the other's.
		my %seen;
		my $repeats = 0;
		for my $db (qw(db1 db2))
		{
			$seen{$_}++ && $repeats++ for split /\n/, $nd->safe_psql($db, qq{SELECT id FROM app.made WHERE phase = '$label'
				AND gen NOT IN ('hot_at', 'v7_ordered_at')});
		}
		is($repeats, 0, "$tag: clock-time ids of db1 and db2 (" . scalar(keys %seen) . "): 0 repeats");
		# Explicit-time ids of db1 and db2 (numbered by each database; told apart by the machine
		# names for hot_uuid, by 32 random bits for uuidv7_ordered): no id in both.
		my %bf;
		for my $db (qw(db1 db2))
		{
			for my $row (split /\n/, $nd->safe_psql($db, "SELECT DISTINCT kind, id FROM app.bf"))
			{
				my ($kind, $key) = split /\|/, $row;
				$bf{$kind}{$key}++;
			}
		}
		my $in_both = join ', ', map { my $k = $_; "$k " . scalar(grep { $_ > 1 } values %{ $bf{$k} }) } qw(hot v7);
		is($in_both, 'hot 0, v7 0', "$tag: explicit-time ids of db1 and db2: no id in both databases");
	};

	# Restart on a clock one hour further back.
	my $step_back = sub { $back += 3600; set_fake_clock($clock, "-$back"); };

	$phase->($node, 'start', 'db1');

	# 2. Privileges: another role generates; the hostile role cannot change the edition's
	# sequences nor its functions.
	my $read = join "\n", map { "SELECT count($_->[1]) FROM generate_series(1, 10);" } @gens;
	my ($out, $states) = as_role($node, 'db1', 'reader', $read);
	is($states, '', "$name: reader, with USAGE on ids only, calls every generator");
	my @seqs = split /\n/, $node->safe_psql('db1', q{
		SELECT c.oid::regclass FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = 'ids'::regnamespace ORDER BY 1});
	cmp_ok(scalar @seqs, '>=', 2, "$name: the install has its sequences in ids (@seqs)");
	for my $seq (@seqs)
	{
		for my $sql ("SELECT pg_catalog.setval('$seq'::regclass, 1::bigint)", "SELECT pg_catalog.nextval('$seq'::regclass)",
			"ALTER SEQUENCE $seq RESTART")
		{
			is((as_role($node, 'db1', 'hostile', $sql))[1], 'ERROR:  42501', "$name: hostile: $sql refused");
		}
	}
	for my $sql ('CREATE OR REPLACE FUNCTION ids.hot_uuid(shard_key bigint) RETURNS uuid LANGUAGE sql AS $$SELECT NULL::uuid$$',
		'ALTER FUNCTION ids.hot_uuid(bigint) SECURITY DEFINER', 'DROP FUNCTION ids.uuidv7_ordered()')
	{
		is((as_role($node, 'db1', 'hostile', $sql))[1], 'ERROR:  42501', "$name: hostile: $sql refused");
	}
	# Composers called as the issue's caller did, by the actor and by a superuser: exact vectors.
	for my $caller ($actor, undef)
	{
		is( ok_as($node, 'db1', $caller, q{SELECT locality_uuid_make(3488672514::bigint, 12618, 223574608, timestamptz '2012-10-15 18:58:18.450+00'),
				hot_uuid_make(208::bigint, timestamptz '2022-02-06 00:00:00+00', bytea '\x112233', 17493, 658188),
				locality_uuid_make(1::bigint, 2, 3, now()) IS NOT NULL},
				"$name: composers, called by " . ($caller // 'a superuser')),
			'20be0ffc-314a-bd53-7a50-013a65ca76d2|61ff0f80-2211-4433-550a-0b0cd0000000|t',
			"$name: composers give their exact vectors");
	}

	# 3. Read-only: every call of the three that write refuses, right after read-write calls.
	($out, $states) = as_role($node, 'db1', $actor, qq{
		SELECT uuidv7_ordered() IS NOT NULL, hot_uuid(7::bigint, timestamptz '$second') IS NOT NULL,
		       uuidv7_ordered(timestamptz '$milli') IS NOT NULL;
		BEGIN READ ONLY; SELECT uuidv7_ordered(); ROLLBACK;
		BEGIN READ ONLY; SELECT hot_uuid(7::bigint, timestamptz '$second'); ROLLBACK;
		BEGIN READ ONLY; SELECT uuidv7_ordered(timestamptz '$milli'); ROLLBACK;});
	is((split /\n/, $out)[0], 't|t|t', "$name: read-write calls of uuidv7_ordered(), hot_uuid(key, at), uuidv7_ordered(at)");
	is($states, join("\n", ('ERROR:  25006') x 3),
		"$name: in a read-only transaction right after them, each refuses with 25006");

	# 4. DISCARD SEQUENCES and DISCARD ALL: every generator goes on in the session.
	my $count_all = join "\n", map { "SELECT count($_->[1]) FROM generate_series(1, 10);" } @gens;
	($out, $states) = as_role($node, 'db1', $actor, "$count_all\nDISCARD SEQUENCES;\n$count_all\nDISCARD ALL;\n$count_all");
	is($states, '', "$name: every generator works after DISCARD SEQUENCES and DISCARD ALL");
	is($out, join("\n", ('10') x (3 * @gens)), "$name: 10 ids of each generator, before and after each DISCARD");

	# 5. Explicit-time ids of one second, 2^23 allocation numbers taken, then the same second
	# again in the same session: no id repeats (or a refusal with 54000).
	($out, $states) = as_role($node, 'db1', $actor, qq{
		CREATE TEMP TABLE ex AS SELECT hot_uuid(7::bigint, timestamptz '2024-06-01 00:00:00+00') AS id FROM generate_series(1, 256);
		$s->{advance};
		INSERT INTO ex SELECT hot_uuid(7::bigint, timestamptz '2024-06-01 00:00:00+00') FROM generate_series(1, 256);
		SELECT count(*) - count(DISTINCT id) FROM ex;});
	like($states, qr/^(|ERROR:  54000)$/, "$name: 2^23 allocation numbers later, the second's ids come, or 54000 ($states)");
	like($out, qr/\n0$/, "$name: 256 ids of a second, 2^23 numbers later 256 more: 0 repeats");

	# 6. Clean restart, the clock an hour back, db2 first.
	$node->stop;
	$step_back->();
	start_on_fake_clock($node, $clock);
	$phase->($node, 'restart', 'db2');

	# 7. Crash restart, another hour back, db1 first.
	$node->stop('immediate');
	$step_back->();
	start_on_fake_clock($node, $clock);
	$phase->($node, 'crash', 'db1');

	# 8. A standby refuses; promoted after the primary stopped, an hour back, db2 first.
	$node->backup('base');
	my $standby = PostgreSQL::Test::Cluster->new("${name}_standby");
	$standby->init_from_backup($node, 'base', has_streaming => 1);
	start_on_fake_clock($standby, $clock);
	ok_as($node, 'db1', $actor, "INSERT INTO app.bf SELECT 'hot', 'primary', hot_uuid(7::bigint, timestamptz '$second') FROM generate_series(1, $n)",
		"$name: the primary backfills before the standby's promotion");
	$node->wait_for_catchup($standby);
	($out, $states) = as_role($standby, 'db1', $actor, qq{SELECT uuidv7_ordered();
		SELECT hot_uuid(7::bigint, timestamptz '$second'); SELECT uuidv7_ordered(timestamptz '$milli');});
	is($states, join("\n", ('ERROR:  25006') x 3), "$name: on the standby each of the three refuses with 25006");
	$node->stop('immediate');
	$back += 3600;
	set_fake_clock($clock, "-$back");
	$standby->promote;
	$phase->($standby, 'promoted', 'db2');
	$standby->stop;

	{
		# Look-alikes with one more defaulted argument of what SQL-standard bodies call, planted
		# beside the callees: pg_upgrade and pg_restore parse those bodies again and must not stop.
		# 9. pg_upgrade into a new cluster of the same binaries, an hour back, db1 first.
		my $new = PostgreSQL::Test::Cluster->new("${name}_upgraded");
		$new->init;
		$new->append_conf('postgresql.conf', join("\n", @conf));
		my ($ok, $output) = pg_upgrade_into($standby, $new);
		ok($ok, "$name: pg_upgrade") or diag $output;
		# Without an upgraded cluster the steps below go on on the promoted standby.
		$new = $standby unless $ok;
		$step_back->();
		start_on_fake_clock($new, $clock);
		$phase->($new, 'upgraded', 'db1');

		# 10. pg_dump by the actor; pg_restore by the actor into a fresh cluster, an hour back.
		my $dump = $new->basedir . '/db1.dump';
		my ($dump_out, $dump_err) = ('', '');
		$ok = IPC::Run::run([ 'pg_dump', '-Fc', '-f', $dump, '-d', $new->connstr('db1'), '-U', $actor_role ],
			'>', \$dump_out, '2>', \$dump_err);
		ok($ok && $dump_err eq '', "$name: pg_dump -U $actor_role exits 0, no error, no warning") or diag $dump_err;
		unless ($ok)
		{
			note "$name: the restore goes on from a superuser's dump";
			IPC::Run::run([ 'pg_dump', '-Fc', '-f', $dump, '-d', $new->connstr('db1') ], '>', \$dump_out, '2>', \$dump_err)
			  or die "pg_dump as the superuser failed: $dump_err";
		}
		my $restored = PostgreSQL::Test::Cluster->new("${name}_restored");
		$restored->init;
		$restored->append_conf('postgresql.conf', join("\n", @conf));
		$step_back->();
		start_on_fake_clock($restored, $clock);
		$restored->safe_psql('postgres', $roles);

		# 10a. The actor's pg_restore --clean into a live database of that cluster, which made
		# ordered ids on its clock (five hours behind the dumped ones): the next ordered ids of
		# the running server sort above every restored one.
		my $restore_into = sub {
			my ($db, @opts) = @_;
			my ($rout, $rerr) = ('', '');
			my $rok = IPC::Run::run([ 'pg_restore', '--no-owner', '--no-privileges', @opts, '-d', $restored->connstr($db),
				'-U', $actor_role, $dump ], '>', \$rout, '2>', \$rerr);
			ok($rok && $rerr eq '', "$name: $db: pg_restore " . join(' ', grep { !m{/} } @opts) . " -U $actor_role exits 0, no error")
			  or diag $rerr;
			$restored->safe_psql($db, 'GRANT USAGE ON SCHEMA ids, app TO PUBLIC');
			$restored->safe_psql($db, 'GRANT USAGE ON SCHEMA ids_internal TO PUBLIC') if $s->{edition} ne 'C extension';
		};
		my $above_dumped = sub {
			my ($db, $what) = @_;
			ok_as($restored, $db, $actor, "INSERT INTO app.ord (phase, id) SELECT 'after', uuidv7_ordered() FROM generate_series(1, $n)",
				"$name: $db: $n ordered ids $what");
			return unless $s->{ordered_across_sessions};
			is( $restored->safe_psql($db, qq{SELECT count(*) FROM app.ord WHERE phase = 'after'
				AND id <= (SELECT id FROM app.ord WHERE phase <> 'after' ORDER BY id DESC LIMIT 1)}),
				'0', "$name: $db: 0 of $n ordered ids $what below the restored ones");
		};
		$databases->($restored, 'live');
		$restored->safe_psql('postgres', qq{GRANT CREATE ON DATABASE live TO "$actor_role"});
		is($s->{install}->($restored, 'live', $actor), '', "$name: live: $who installs");
		ok_as($restored, 'live', $actor, 'SELECT count(uuidv7_ordered()) + count(locality_uuid(true)) FROM generate_series(1, 100)',
			"$name: live: ordered and sequential ids made before the restore");
		$restore_into->('live', '--clean', '--if-exists');
		$above_dumped->('live', 'after pg_restore --clean into the live database, without a restart');

		# 10b. A database where a superuser created the extension; the actor restores into it (the
		# superuser's schema ids and the extension's comment left out) and the server restarts.
		if ($s->{edition} eq 'C extension')
		{
			$restored->safe_psql('postgres', 'CREATE DATABASE su OWNER owner');
			$restored->safe_psql('postgres', qq{GRANT CREATE ON DATABASE su TO "$actor_role"});
			$restored->safe_psql('su', qq{CREATE SCHEMA ids AUTHORIZATION "$actor_role"; CREATE EXTENSION locality_uuid SCHEMA ids;
				GRANT USAGE ON SCHEMA ids TO PUBLIC});
			my $list = $restored->basedir . '/su.list';
			my ($lout, $lerr) = ('', '');
			IPC::Run::run([ 'pg_restore', '-l', $dump ], '>', \$lout, '2>', \$lerr) or die "pg_restore -l failed: $lerr";
			PostgreSQL::Test::Utils::append_to_file($list, join '', grep { !/ SCHEMA - ids / } split /^/, $lout);
			$restore_into->('su', '--no-comments', '-L', $list);
			$restored->stop;
			start_on_fake_clock($restored, $clock);
			$above_dumped->('su', "after a restore into a superuser's install and a restart");
		}

		$restored->safe_psql('postgres', "CREATE DATABASE db1 OWNER owner");
		$restored->safe_psql('postgres', qq{GRANT CREATE ON DATABASE db1 TO "$actor_role"});
		$restored->safe_psql('db1', qq{GRANT CREATE ON SCHEMA public TO "$actor_role"});
		my ($restore_out, $restore_err) = ('', '');
		$ok = IPC::Run::run([ 'pg_restore', '--no-owner', '--no-privileges', '-d', $restored->connstr('db1'), '-U', $actor_role, $dump ],
			'>', \$restore_out, '2>', \$restore_err);
		ok($ok && $restore_err eq '', "$name: pg_restore -U $actor_role into a fresh cluster exits 0, no error") or diag $restore_err;
		$restored->safe_psql('db1', 'GRANT USAGE ON SCHEMA ids, app TO PUBLIC');
		$restored->safe_psql('db1', 'GRANT USAGE ON SCHEMA ids_internal TO PUBLIC') if $s->{edition} ne 'C extension';
		ok_as($restored, 'db1', $actor, "INSERT INTO app.ord (phase, id) SELECT 'restored', uuidv7_ordered() FROM generate_series(1, $n)",
			"$name: restored: $n ordered ids");
		if ($s->{ordered_across_sessions})
		{
			is( $restored->safe_psql('db1', qq{SELECT count(*) FROM app.ord WHERE phase = 'restored'
				AND id <= (SELECT id FROM app.ord WHERE phase <> 'restored' ORDER BY id DESC LIMIT 1)}),
				'0', "$name: restored: 0 of $n ordered ids below the dumped ones, on a clock five hours back");
		}
		ok_as($restored, 'db1', $actor,
			join("\n", map { "INSERT INTO app.made SELECT '$_->[0]', 'restored', $_->[1] FROM generate_series(1, $n);" } @gens)
			  . "\nINSERT INTO app.bf SELECT 'hot', 'restored', hot_uuid(7::bigint, timestamptz '$second') FROM generate_series(1, $n);"
			  . "\nINSERT INTO app.bf SELECT 'v7', 'restored', uuidv7_ordered(timestamptz '$milli') FROM generate_series(1, $n);",
			"$name: restored: every generator, and the backfills of both kinds, go on");
		is($restored->safe_psql('db1', q{SELECT count(*) - count(DISTINCT id) FROM app.made}),
			'0', "$name: restored: no id repeats one made before the dump");
		is( $restored->safe_psql('db1', "SELECT kind || ' ' || count(*) FILTER (WHERE phase = 'restored') || ' made, '
			|| count(*) - count(DISTINCT $bf_key) || ' repeats' FROM app.bf GROUP BY kind ORDER BY 1"),
			"hot $n made, 0 repeats\nv7 $n made, 0 repeats", "$name: restored: explicit-time ids repeat 0 of $n");
		is($restored->safe_psql('db1', 'SELECT count(*) FROM public.trap'), '0', "$name: restored: no planted object ran");
		$restored->stop;
		$new->stop;
	}

	# 11. The install's life on a running cluster (the primary again): install (from 1.3 where
	# the set-up updates), the documented steps of the extension's owner, drop, install again.
	start_on_fake_clock($node, $clock);
	is($s->{install}->($node, 'life', $actor, $s->{from}), '', "$name: life: $who installs");
	is($s->{update}->($node, 'life', $actor), '', "$name: life: $who updates") if defined $s->{from};
	if ($s->{edition} eq 'C extension')
	{
		ok_as($node, 'life', $actor, q{SELECT extversion = default_version FROM pg_extension, pg_available_extensions
			WHERE extname = 'locality_uuid' AND name = extname}, "$name: life: at the default version");
		ok_as($node, 'life', $actor, q{SELECT uuidv7_ordered(now()) IS NOT NULL;
			SELECT setval('ids.locality_uuid_v7_allocation', nextval('ids.locality_uuid_v7_allocation') + 4294967296) > 0},
			"$name: life: $who moves the version 7 allocation on (the documented step for a copy)");
		ok_as($node, 'life', $actor, q{SELECT count(*) >= 0 FROM ids.locality_uuid_release_core_names()},
			"$name: life: $who releases core's names");
	}
	is($s->{drop}->($node, 'life', $actor), '', "$name: life: $who drops it");
	is($s->{install}->($node, 'life', $actor), '', "$name: life: $who installs it again");
	ok_as($node, 'life', $actor, "$GENERATOR_SETUP\n$count_all", "$name: life: every generator works");

	# 12. alice's own uuidv7 and the code that calls it mean the same after the install.
	my $alice_calls = q{SELECT alice_plpgsql() = 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa', alice_sql() = 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa',
		alice_definer() = 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa'; SELECT alice_at() = 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa'};
	my $alice_path = '-c search_path="$user",public';
	ok_as($node, 'poly', 'alice', q{
		CREATE FUNCTION public.uuidv7(at timestamptz DEFAULT clock_timestamp()) RETURNS uuid LANGUAGE sql
		AS $$SELECT 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa'::uuid$$;
		CREATE FUNCTION public.alice_plpgsql() RETURNS uuid LANGUAGE plpgsql AS $$BEGIN RETURN uuidv7(); END$$;
		CREATE FUNCTION public.alice_sql() RETURNS uuid LANGUAGE sql AS $$SELECT uuidv7()$$;
		CREATE FUNCTION public.alice_definer() RETURNS uuid LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
		AS $$BEGIN RETURN uuidv7(); END$$;
		CREATE FUNCTION public.alice_at() RETURNS uuid LANGUAGE plpgsql AS $$BEGIN RETURN uuidv7('2024-01-01'); END$$;},
		"$name: alice has her own uuidv7 and code that calls it");
	my @before = as_role($node, 'poly', 'alice', $alice_calls, options => $alice_path);
	my ($rc, $iout, $ierr) = (0, '', '');
	if ($s->{edition} eq 'C extension')
	{
		$rc = $node->psql('poly', 'CREATE EXTENSION locality_uuid SCHEMA ids', stdout => \$iout, stderr => \$ierr,
			extra_params => [ (defined $actor ? ('-U', $actor) : ()) ]);
	}
	else
	{
		$ierr = install_portable_as($node, 'poly', $actor);
		$rc = $ierr eq '' ? 0 : 3;
	}
	ok($rc == 0 || $ierr =~ /uuidv7/, "$name: $who installs beside alice's uuidv7, or is refused naming it")
	  or diag $ierr;
	note "$name: install beside alice's uuidv7: " . ($rc == 0 ? 'installed' : "refused: $ierr");
	my @after = as_role($node, 'poly', 'alice', $alice_calls, options => $alice_path);
	is("@after", "@before", "$name: every call site of alice's gives what it gave before ($before[0] $before[1])");

	is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'hostile'}), 'f',
		"$name: the hostile role is no superuser");
	$node->stop;
	note sprintf('%s: %.0f s so far', $name, Time::HiRes::time() - $t_start);
}

note sprintf('run time: %.0f s', Time::HiRes::time() - $t_start);
done_testing();
