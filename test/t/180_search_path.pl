# Look-alike objects planted by an ordinary role never run inside either edition. For every
# function of the C extension and of the portable edition (each installed by a superuser and by
# an ordinary role), the functions, operators and types its body may use are found (pg_depend,
# and the names and operator symbols in the body text), and so are the editions' relations;
# alice, who may create objects in public, plants a look-alike of each: functions and
# operators with the exact argument types of every overload and with the types a body likely
# passes (so that one beats pg_catalog's where that needs an implicit cast), domains, and
# sequences or views; in public, and all but the relations in her pg_temp. Every function is
# then called with valid arguments by a superuser with public on its search_path (unqualified
# with search_path public, ids; as ids.fn(...) with "$user", public) and by alice herself. A
# planted object that runs leaves a trace (a row in alice's table, a WARNING, and alice made
# superuser when it runs as one; a sequence its last value): any trace of one that ran with
# another role's privileges fails the test, naming the object and the function called.
use strict;
use warnings FATAL => 'all';
use JSON::PP;
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The key of uuidv7_to_facade(id) and uuidv7_from_facade(facade), for every role.
my $node = extension_node('search_path', extension => 0,
	conf => [ q{locality_uuid.facade_key = '000102030405060708090a0b0c0d0e0f'} ]);
my $portable = 'portable/locality_uuid_portable.sql';

$node->safe_psql('postgres', q{
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
});
my $superuser = $node->safe_psql('postgres', 'SELECT current_user');

# The four installs: each edition by a superuser and by bob, an ordinary role with CREATE on
# the database (the C extension is trusted; the portable edition needs no privilege).
my @installs = (
	[ c_super => 'C extension installed by a superuser' ],
	[ p_super => 'portable edition installed by a superuser' ],
	[ c_bob => 'C extension installed by an ordinary role' ],
	[ p_bob => 'portable edition installed by an ordinary role' ],
);
for my $i (@installs)
{
	my ($db) = @$i;
	my $installer = $db =~ /_bob$/ ? 'bob' : $superuser;
	$node->safe_psql('postgres', "CREATE DATABASE $db; GRANT CREATE ON DATABASE $db TO bob");
	# From 15 on, only the owner of schema public may create in it: alice gets it explicitly.
	$node->safe_psql($db, q{
GRANT CREATE ON SCHEMA public TO alice;
CREATE SCHEMA fixture;
CREATE SEQUENCE fixture.seq;
CREATE TABLE fixture.t (id uuid PRIMARY KEY);
INSERT INTO fixture.t SELECT gen_random_uuid() FROM generate_series(1, 100);
GRANT USAGE ON SCHEMA fixture TO PUBLIC;
GRANT USAGE ON SEQUENCE fixture.seq TO PUBLIC;
GRANT SELECT ON fixture.t TO PUBLIC;
});
	if ($db =~ /^c_/)
	{
		my ($out, $err) = psql_states($node, $db,
			'CREATE SCHEMA ids; CREATE EXTENSION locality_uuid SCHEMA ids;', user => $installer);
		is($err, '', "$db: CREATE EXTENSION locality_uuid SCHEMA ids as $installer");
	}
	else
	{
		my ($rc, $out, $err) = $node->psql($db, undef,
			extra_params => [ '-U', $installer, '-v', 'schema=ids', '-f', $portable ]);
		is($rc, 0, "$db: psql -v schema=ids -f $portable as $installer") or diag($err);
	}
	$node->safe_psql($db, 'GRANT USAGE ON SCHEMA ids TO PUBLIC');
	# The trace: alice's table, written by whoever runs a planted object.
	$node->safe_psql($db, q{
CREATE TABLE public.attack_trace (object text, caller text, role text, superuser boolean);
GRANT INSERT ON public.attack_trace TO PUBLIC;
CREATE FUNCTION public.attack_ran(object text) RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $f$
DECLARE
    su boolean := (SELECT rolsuper FROM pg_roles WHERE rolname OPERATOR(pg_catalog.=) current_user);
BEGIN
    INSERT INTO public.attack_trace
        VALUES (object, current_setting('attack.caller', true), current_user, su);
    RAISE WARNING 'planted object ran: % (caller %, as %)',
        object, current_setting('attack.caller', true), current_user;
    IF su THEN
        ALTER ROLE alice SUPERUSER;
    END IF;
END
$f$;
-- The check of a look-alike domain.
CREATE FUNCTION public.attack_check(object text) RETURNS boolean LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
    PERFORM public.attack_ran(object);
    RETURN true;
END
$f$;
}, extra_params => [ '-U', 'alice' ]);
}

# Run SQL as a superuser with nothing but pg_catalog on the path (planted objects stay out).
sub catalog_query
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, "SET search_path = pg_catalog;\n$sql");
}

# The functions of the edition installed in $db: members of the extension, or every function in
# schema ids, with their argument types and the number of defaults.
sub edition_functions
{
	my ($db) = @_;
	my $json = catalog_query($db, q{
SELECT json_agg(json_build_object('oid', p.oid, 'sig', p.oid::regprocedure::text, 'name', p.proname,
        'schema', p.pronamespace::regnamespace::text,
        'args', (SELECT coalesce(json_agg(format_type(t, NULL) ORDER BY i), '[]')
                 FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, i)),
        'defaults', p.pronargdefaults) ORDER BY p.oid)
FROM pg_proc p
WHERE p.oid IN (SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
                WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
                  AND d.deptype = 'e' AND e.extname = 'locality_uuid')
   OR p.pronamespace IN ('ids'::regnamespace, to_regnamespace('ids_internal'))});
	# Planner support functions take internal, which no SQL caller can pass: the planner calls them.
	return grep { !grep { $_ eq 'internal' } @{ $_->{args} } } @{ decode_json($json) };
}

# What the bodies of $db's edition may call: [kind (f or o), name, callers], the base types
# they may name (kind t), and every relation of the edition (kind r: schema.name.relkind),
# which C code may look up by name as well. SQL-standard bodies through pg_depend; every other
# body (not C) by its text: each word that is the name of a function anywhere in pg_proc or of
# a base type of pg_catalog, each operator symbol of pg_operator found in it.
sub called_names
{
	my ($db) = @_;
	my $rows = catalog_query($db, q{
WITH target AS (
    SELECT d.objid AS fn FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
      AND d.deptype = 'e' AND e.extname = 'locality_uuid'
    UNION
    SELECT oid FROM pg_proc WHERE pronamespace IN ('ids'::regnamespace, to_regnamespace('ids_internal'))
), body AS (
    SELECT t.fn, lower(p.prosrc || ' ' || coalesce(pg_get_function_sqlbody(p.oid), '')) AS src
    FROM target t JOIN pg_proc p ON p.oid = t.fn JOIN pg_language l ON l.oid = p.prolang
    WHERE l.lanname NOT IN ('c', 'internal')
), called AS (
    SELECT b.fn, 'f' AS kind, m[1] AS name
    FROM body b, regexp_matches(b.src, '[a-z_][a-z0-9_$]*', 'g') m
    WHERE EXISTS (SELECT FROM pg_proc q WHERE q.proname = m[1] AND q.prokind = 'f')
    UNION
    SELECT b.fn, 'o', o.oprname FROM body b, (SELECT DISTINCT oprname FROM pg_operator) o
    WHERE strpos(b.src, o.oprname) > 0
    UNION
    SELECT d.objid, 'f', q.proname FROM pg_depend d JOIN target t ON t.fn = d.objid
    JOIN pg_proc q ON q.oid = d.refobjid
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_proc'::regclass AND q.prokind = 'f'
    UNION
    SELECT d.objid, 'o', o.oprname FROM pg_depend d JOIN target t ON t.fn = d.objid
    JOIN pg_operator o ON o.oid = d.refobjid
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_operator'::regclass
    UNION
    SELECT b.fn, 't', m[1] FROM body b, regexp_matches(b.src, '[a-z_][a-z0-9_$]*', 'g') m
    WHERE EXISTS (SELECT FROM pg_type y WHERE y.typname = m[1] AND y.typtype = 'b'
                  AND y.typcategory <> 'A' AND y.typnamespace = 'pg_catalog'::regnamespace)
)
SELECT kind, name, string_agg(fn::regprocedure::text, ' ' ORDER BY fn::regprocedure::text)
FROM called GROUP BY kind, name
UNION ALL
SELECT 'r', format('%s.%s.%s', n.nspname, c.relname, c.relkind), 'any'
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'v', 'm', 'S', 'p', 'f')
  AND (n.nspname IN ('ids', 'ids_internal')
       OR c.oid IN (SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
                    WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
                      AND d.deptype = 'e' AND e.extname = 'locality_uuid'))
ORDER BY 1, 2});
	return map { [ split /\|/, $_, 3 ] } split /\n/, $rows;
}

# Types a body's argument likely has at a position where the overload takes $type: the type
# itself, text (an unknown literal prefers the string category), the other types of its
# category that the bodies compute with.
my %SAME_CATEGORY = (
	N => [ 'smallint', 'integer', 'bigint', 'numeric', 'double precision' ],
	D => [ 'timestamp with time zone', 'timestamp without time zone', 'date' ],
	S => [ 'text', 'character varying' ],
	V => [ 'bit', 'bit varying' ],
);
my %ARITHMETIC = map { $_ => 1 } ('smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision');
# Pseudo-types of polymorphic overloads are planted as these concrete types.
my @POLY = ('text', 'integer', 'bigint', 'numeric', 'uuid', 'boolean', 'timestamp with time zone');
my %SKIP_TYPE = map { $_ => 1 } qw(internal cstring trigger event_trigger language_handler
  fdw_handler index_am_handler tsm_handler table_am_handler pg_ddl_command unknown record
  anyrange anymultirange anycompatiblerange anycompatiblemultirange);

sub position_options
{
	my ($type, $types) = @_;
	my $t = $types->{$type};
	my @opt;
	if ($t->{pseudo})
	{
		return () if $SKIP_TYPE{ $t->{name} };
		@opt = $t->{name} =~ /array$/ ? (map { "$_\[\]" } @POLY[0 .. 3]) : @POLY;
	}
	else
	{
		@opt = ($t->{name}, 'text');
		push @opt, @{ $SAME_CATEGORY{ $t->{category} } }
		  if $SAME_CATEGORY{ $t->{category} } && ($t->{category} ne 'N' || $ARITHMETIC{ $t->{name} });
		push @opt, 'integer', 'bigint' if $t->{category} eq 'N' && !$ARITHMETIC{ $t->{name} };
	}
	my %seen;
	return grep { !$seen{$_}++ } @opt;
}

# Every argument-type list to plant for one overload: the full product of the positions'
# options when it is small, else each position varied alone.
sub variants
{
	my (@options) = @_;
	my $product = 1;
	$product *= scalar @$_ for @options;
	my @out;
	if ($product <= 256)
	{
		@out = ([]);
		for my $opt (@options)
		{
			@out = map { my $v = $_; map { [ @$v, $_ ] } @$opt } @out;
		}
	}
	else
	{
		my @base = map { $_->[0] } @options;
		push @out, [@base];
		for my $i (0 .. $#options)
		{
			push @out, [ @base[ 0 .. $i - 1 ], $_, @base[ $i + 1 .. $#base ] ]
			  for @{ $options[$i] }[ 1 .. $#{ $options[$i] } ];
		}
	}
	return @out;
}

# The types of expressions (calls on NULLs of the planted argument types), as the server
# resolves them, into %result_types; undef where one does not resolve. A look-alike returns
# what the real one would. One query for all that are not known yet.
my %result_types;

sub resolve_types
{
	my ($db, @exprs) = @_;
	my %want = map { $_ => 1 } grep { !exists $result_types{$_} } @exprs;
	my @todo = sort keys %want;
	return unless @todo;
	my $out = catalog_query($db, q{
CREATE FUNCTION pg_temp.result_type(e text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    t text;
BEGIN
    EXECUTE 'SELECT pg_typeof(' || e || ')::text' INTO t;
    RETURN t;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$f$;
SELECT i, pg_temp.result_type(e) FROM unnest(ARRAY[} . join(",\n", map { "'" . s/'/''/gr . "'" } @todo)
		  . q{]::text[]) WITH ORDINALITY u(e, i)});
	for (split /\n/, $out)
	{
		my ($i, $type) = split /\|/, $_, 2;
		$result_types{ $todo[ $i - 1 ] } = $type eq '' ? undef : $type;
	}
}

# The planted objects for the called names, as [object description, DDL, signature key],
# each in $schema; the overloads are read from $db's catalog.
sub plants
{
	my ($db, $schema, $names) = @_;
	my @fnames = sort map { s/^f://r } grep { /^f:/ } keys %$names;
	my @onames = sort map { s/^o://r } grep { /^o:/ } keys %$names;
	my $types = decode_json(catalog_query($db, q{
SELECT json_object_agg(oid, json_build_object('name', format_type(oid, NULL), 'pseudo', typtype = 'p',
        'category', typcategory)) FROM pg_type}));
	my $in = sub { join ', ', map { "'" . ($_ =~ s/'/''/gr) . "'" } @_ };
	my $fjson = @fnames ? catalog_query($db, sprintf(q{
SELECT json_agg(json_build_object('schema', n.nspname, 'name', p.proname, 'args', p.proargtypes::oid[],
        'allargs', p.proallargtypes, 'modes', p.proargmodes, 'names', p.proargnames,
        'ret', p.prorettype, 'retset', p.proretset, 'variadic', p.provariadic <> 0,
        'defaults', p.pronargdefaults) ORDER BY p.oid)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.prokind = 'f' AND p.proname IN (%s) AND p.proowner <> 'alice'::regrole}, $in->(@fnames))) : 'null';
	my $ojson = @onames ? catalog_query($db, sprintf(q{
SELECT json_agg(json_build_object('schema', n.nspname, 'name', o.oprname, 'left', o.oprleft,
        'right', o.oprright, 'ret', o.oprresult) ORDER BY o.oid)
FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace
WHERE o.oprname IN (%s) AND o.oprowner <> 'alice'::regrole}, $in->(@onames))) : 'null';

	my (%seen, @plants, @unknown);
	my $op_count = 0;
	my $ret_of = sub {
		my ($ret, $args, $variant) = @_;
		my $t = $types->{$ret};
		return $t->{name} unless $t->{pseudo};
		return 'void' if $t->{name} eq 'void';
		return undef if $SKIP_TYPE{ $t->{name} } || $t->{name} !~ /^any/;
		# A polymorphic result: the type planted at the first polymorphic argument.
		for my $i (0 .. $#$args)
		{
			next unless $types->{ $args->[$i] }{pseudo};
			my $v = $variant->[$i];
			my $elem = $v =~ s/\[\]$//r;
			return $t->{name} =~ /array$/ ? "$elem\[\]" : $elem;
		}
		return undef;
	};
	for my $p (@{ decode_json($fjson) // [] })
	{
		my @args = @{ $p->{args} };
		my @outs;
		if ($p->{modes})
		{
			my @all = @{ $p->{allargs} };
			for my $i (0 .. $#all)
			{
				push @outs, [ $p->{names}[$i], $types->{ $all[$i] }{name} ]
				  if $p->{modes}[$i] =~ /^[ot]$/;
			}
		}
		my @innames = $p->{names} && !$p->{modes} ? @{ $p->{names} }
		  : $p->{names} ? map { $p->{names}[$_] } grep { $p->{modes}[$_] !~ /^[ot]$/ } 0 .. $#{ $p->{modes} }
		  : ();
		my @options = map { [ position_options($_, $types) ] } @args;
		next if grep { !@$_ } @options;
		# A variadic overload is also called with its last argument spread out.
		my @lists = variants(@options);
		if ($p->{variadic} && @options)
		{
			my $elem = [ map { s/\[\]$//r } @{ $options[-1] } ];
			my @head = @options[ 0 .. $#options - 1 ];
			push @lists, variants(@head, $elem), variants(@head, $elem, $elem);
		}
		for my $v (@lists)
		{
			my $ret = @outs ? undef : $ret_of->($p->{ret}, \@args, $v);
			next if !@outs && !defined $ret;
			my $key = "f:$p->{name}(" . join(',', @$v) . ')';
			next if $seen{$key}++;
			# Named arguments keep their names, and the trailing ones their defaults (as NULL),
			# so that a call in named notation finds the look-alike too.
			my @defs = map {
				my $n = $innames[$_];
				(defined $n && $n ne '' && $_ <= $#args ? qq{"$n" } : '') . $v->[$_]
				  . (@$v == @args && $_ >= @args - $p->{defaults} ? ' DEFAULT NULL' : '')
			} 0 .. $#$v;
			my $callee = qq{"$p->{schema}"."$p->{name}"(} . join(', ', map { '$' . $_ } 1 .. @$v) . ')';
			my ($returns, $body);
			if (@outs)
			{
				# PL/pgSQL refuses an OUT parameter named as an IN one (locality_uuid_block_advice's
				# retention): such a look-alike's column takes another name.
				my %in = map { $_ => 1 } grep { defined } @innames;
				@outs = map { [ $in{ $_->[0] } ? "$_->[0]_out" : $_->[0], $_->[1] ] } @outs;
				push @defs, map { qq{OUT "$_->[0]" $_->[1]} } @outs;
				$returns = $p->{retset} ? (@outs > 1 ? 'SETOF record' : "SETOF $outs[0][1]") : '';
				$returns = "RETURNS $returns" if $returns;
				$body = $p->{retset} ? "RETURN QUERY SELECT * FROM $callee;"
				  : 'SELECT * INTO ' . join(', ', map { qq{"$_->[0]"} } @outs) . " FROM $callee;";
			}
			elsif ($ret eq 'void')
			{
				($returns, $body) = ('RETURNS void', "PERFORM $callee;");
			}
			elsif ($p->{retset})
			{
				($returns, $body) = ("RETURNS SETOF $ret", "RETURN QUERY SELECT * FROM $callee;");
			}
			else
			{
				my $probe = qq{"$p->{schema}"."$p->{name}"(} . join(', ', map { "NULL::$_" } @$v) . ')';
				push @unknown, $probe unless exists $result_types{$probe};
				push @unknown, $probe unless exists $result_types{$probe};
			$ret = $result_types{$probe} // $ret;
				($returns, $body) = ("RETURNS $ret", "RETURN $callee;");
			}
			my $object = "$schema.$p->{name}(" . join(', ', @$v) . ')';
			push @plants, [ $object, sprintf(qq{CREATE FUNCTION %s."%s"(%s) %s LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS \$p\$ BEGIN PERFORM public.attack_ran(%s); %s END \$p\$;\n},
				$schema, $p->{name}, join(', ', @defs), $returns, $in->($object), $body), $key ];
		}
	}
	for my $o (@{ decode_json($ojson) // [] })
	{
		my @args = grep { $_ } ($o->{left}, $o->{right});
		my @options = map { [ position_options($_, $types) ] } @args;
		next if grep { !@$_ } @options;
		for my $v (variants(@options))
		{
			my $ret = $ret_of->($o->{ret}, \@args, $v);
			next unless defined $ret && $ret ne 'void';
			my $key = "o:$o->{name}(" . join(',', $o->{left} ? () : 'NONE', @$v) . ')';
			next if $seen{$key}++;
			my $fn = 'attack_op_' . ++$op_count;
			my ($l, $r) = $o->{left} ? @$v : ('NONE', $v->[0]);
			my $op = "OPERATOR($o->{schema}.$o->{name})";
			my $expr = $o->{left} ? "\$1 $op \$2" : "$op \$1";
			my $probe = $o->{left} ? "NULL::$l OPERATOR($o->{schema}.$o->{name}) NULL::$r"
			  : "OPERATOR($o->{schema}.$o->{name}) NULL::$r";
			push @unknown, $probe unless exists $result_types{$probe};
			$ret = $result_types{$probe} // $ret;
			my $object = "$schema.$o->{name}($l, $r)";
			push @plants, [ $object, sprintf(qq{CREATE FUNCTION %s.%s(%s) RETURNS %s LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS \$p\$ BEGIN PERFORM public.attack_ran(%s); RETURN %s; END \$p\$;
CREATE OPERATOR %s.%s (%sRIGHTARG = %s, FUNCTION = %s.%s);\n},
				$schema, $fn, join(', ', @$v), $ret, $in->($object), $expr,
				$schema, $o->{name}, $o->{left} ? "LEFTARG = $l, " : '', $r, $schema, $fn), $key ];
		}
	}
	# Look-alike types: a domain over the real one whose check leaves the trace. Types are
	# looked up in pg_temp first unless the path names it, so these come last.
	for my $t (sort map { s/^t://r } grep { /^t:/ } keys %$names)
	{
		my $object = qq{$schema."$t"};
		push @plants, [ $object, sprintf(qq{CREATE DOMAIN %s AS pg_catalog."%s" CHECK (public.attack_check(%s));\n},
			$object, $t, $in->($object)), "t:$t" ];
	}
	# Look-alike relations, in public only (a session's pg_temp is its own): a sequence, whose
	# use shows in its last value, or a view whose check leaves the trace.
	for my $r (sort map { s/^r://r } grep { /^r:/ } keys %$names)
	{
		next unless $schema eq 'public';
		my ($nsp, $rel, $kind) = $r =~ /^(.*)\.(.*)\.(.)$/;
		# a view needs the relation's row type: none of one this database lacks (the portable
		# edition's record, ids_internal.locality_uuid_portable_made, where the C extension is)
		next if $kind ne 'S' && catalog_query($db, qq{SELECT to_regclass('"$nsp"."$rel"') IS NULL}) eq 't';
		my $object = qq{$schema."$rel"};
		push @plants, [ $object, $kind eq 'S' ? "CREATE SEQUENCE $object;\n"
			: sprintf(qq{CREATE VIEW %s AS SELECT (r).* FROM (SELECT NULL::"%s"."%s" AS r) s
WHERE public.attack_check(%s);\n},
				$object, $nsp, $rel, $in->($object)), "r:$rel" ];
	}
	# Once more when the result types were not all known.
	if (@unknown)
	{
		resolve_types($db, @unknown);
		return plants($db, $schema, $names);
	}
	return @plants;
}

# Sample arguments per type: valid values, and ids of each kind for the extractors. Every type an
# edition's function takes has some (checked below), so that no function is called with NULLs alone.
my %SAMPLES = (
	'boolean' => [ 'true', 'false' ],
	'bigint' => [ '5', '3488672514' ],
	'integer' => [ '60', '1', '12618' ],
	'timestamp with time zone' => [ '2012-10-15 18:58:18.450+00', '2022-02-06 00:00:00+00' ],
	'date' => [ '2012-10-15', '2022-02-06' ],
	'uuid' => [
		'20be0ffc-314a-bd53-7a50-013a65ca76d2',    # locality uuid
		'61ff0f80-2211-4433-550a-0b0cd0000000',    # shard-key uuid
		'0001a2b3-c4d5-4e6f-8a9b-0c1d2e3f4a5b',    # block uuid
		'017f22e2-79b0-7cc3-98c4-dc0c0c07398f',    # version 7 uuid (RFC 9562, A.6)
	],
	'interval' => [ '60 s', '250 ms', '7 days' ],
	'bytea' => [ '\x112233', '\x000102030405060708090a0b0c0d0e0f' ],    # a machine hash, a facade key
	'regclass' => [ 'fixture.seq', 'fixture.t' ],    # a sequence, a table with a uuid column id
	'name' => ['id'],
	'double precision' => [ '1000', '0.5' ],
	'numeric' => [ '5', '60000000' ],    # 60 s in microseconds: a valid interval length
	'text' => [ 'x', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f' ],    # a uuid as text: pg_partman's decoders
);

# The calls of one function: every combination of sample arguments (at most 48), with all
# arguments and with the defaulted ones left out; qualified by the function's schema (ids, or
# pg_catalog for PostgreSQL 18's names below 18) if $qualify.
sub calls_of
{
	my ($f, $qualify) = @_;
	my $name = ($qualify || $f->{schema} eq 'ids_internal' ? "$f->{schema}." : '') . qq{"$f->{name}"};
	my @calls;
	for my $n (reverse(@{ $f->{args} } - $f->{defaults} .. scalar @{ $f->{args} }))
	{
		my @lists = ([]);
		for my $type (@{ $f->{args} }[ 0 .. $n - 1 ])
		{
			my @values = map { "'" . s/'/''/gr . "'::$type" } @{ $SAMPLES{$type} // [] };
			@values = ("NULL::$type") unless @values;
			@lists = map { my $l = $_; map { [ @$l, $_ ] } @values } @lists;
		}
		splice @lists, 48 if @lists > 48;
		push @calls, map { "$name(" . join(', ', @$_) . ')' } @lists;
	}
	return @calls;
}

# Call every function of $db's edition, each call a statement of its own, errors ignored,
# first in variable and then in sequential counter mode. Returns the number of functions with
# at least one successful call, the names of those without, and the warnings of planted objects.
sub call_all
{
	my ($db, $user, $search_path, $qualify, $prefix, $funcs) = @_;
	my $sql = "SET search_path = $search_path;\n";
	for my $mode (qw(variable sequential))
	{
		$sql .= "SET locality_uuid.counter_mode = '$mode';\n";
		for my $i (0 .. $#$funcs)
		{
			$sql .= "SET attack.caller = '$funcs->[$i]{sig}';\n";
			$sql .= "SELECT 'called:$i', $_;\n" for calls_of($funcs->[$i], $qualify);
		}
	}
	my ($out, $err) = ('', '');
	$node->psql($db, ($prefix // '') . $sql, stdout => \$out, stderr => \$err, on_error_stop => 0,
		extra_params => [ '-U', $user ]);
	my %ok = map { $_ => 1 } $out =~ /^called:(\d+)\|/mg;
	my @missed = map { $funcs->[$_]{sig} } grep { !$ok{$_} } 0 .. $#$funcs;
	my @ran = $err =~ /WARNING:  planted object ran: (.*)$/mg;
	return (scalar keys %ok, \@missed, \@ran, $out);
}

# The planted objects that ran with another role's privileges since the last look, from the
# trace table, the warnings and alice's superuser flag; then forget them.
sub ran_objects
{
	my ($db, $warned, $own_role) = @_;
	my @ran = split /\n/, catalog_query($db, q{
SELECT format('%s (caller %s, as %s)', object, caller, role) FROM public.attack_trace});
	push @ran, @$warned;
	@ran = grep { !/, as $own_role\)$/ } @ran if $own_role;
	# A look-alike sequence does not know its caller: any use of one by another role shows.
	push @ran, map { "$_ (caller unknown: a look-alike sequence was used)" } split /\n/, catalog_query($db, q{
SELECT format('public.%I', sequencename) FROM pg_sequences
WHERE schemaname = 'public' AND sequenceowner = 'alice' AND last_value IS NOT NULL})
	  unless $own_role;
	catalog_query($db, q{DO $$ DECLARE s text; BEGIN
FOR s IN SELECT format('public.%I', sequencename) FROM pg_sequences
         WHERE schemaname = 'public' AND sequenceowner = 'alice'
LOOP EXECUTE 'ALTER SEQUENCE ' || s || ' RESTART'; END LOOP; END $$});
	unshift @ran, 'alice became a superuser'
	  if catalog_query($db, q{SELECT rolsuper FROM pg_roles WHERE rolname = 'alice'}) eq 't';
	catalog_query($db, 'TRUNCATE public.attack_trace; ALTER ROLE alice NOSUPERUSER');
	my %seen;
	return grep { !$seen{$_}++ } @ran;
}

# The planted objects that ran, one line each with the functions they ran in, for a failure's
# diagnostics.
sub ran_report
{
	my (@ran) = @_;
	my (%in, @order);
	for (@ran)
	{
		my ($object, $caller) = /^(.*) \(caller (.*)\)$/ ? ($1, $2) : ($_, '');
		push @order, $object unless $in{$object};
		$in{$object} //= [];
		push @{ $in{$object} }, $caller if $caller ne '';
	}
	return join("\n", scalar(@order) . ' planted objects ran:',
		map { @{ $in{$_} } ? "$_ in " . join('; ', @{ $in{$_} }) : $_ } @order);
}

my %names;
my %edition_names;
my %funcs;
for my $i (@installs)
{
	my ($db) = @$i;
	$funcs{$db} = [ edition_functions($db) ];
	# 1.1 has 30 functions in the C extension and 29 in the portable edition.
	cmp_ok(scalar @{ $funcs{$db} }, '>=', 29, "$db: the edition's functions are found");
	my %unsampled = map { $_ => 1 } grep { !$SAMPLES{$_} } map { @{ $_->{args} } } @{ $funcs{$db} };
	is(join(', ', sort keys %unsampled), '', "$db: every argument type the edition takes has sample values");
	$edition_names{ $_->{name} } = 1 for @{ $funcs{$db} };
	for my $c (called_names($db))
	{
		$names{"$c->[0]:$c->[1]"} .= " $c->[2]";
	}
}
# The controls below call & on (bigint, integer) and to_timestamp on bigint, and name text and
# a sequence of their own.
$names{'o:&'} .= ' control';
$names{'f:to_timestamp'} .= ' control';
$names{'t:text'} .= ' control';
$names{'r:fixture.control_seq.S'} .= ' control';
note(sprintf('names the bodies may call: %d functions, %d operators, %d types; relations of the editions: %d',
	map { my $k = $_; scalar(grep { /^$k:/ } keys %names) } qw(f o t r)));

for my $i (@installs)
{
	my ($db, $what) = @$i;
	my $funcs = $funcs{$db};
	my @public = plants($db, 'public', \%names);
	my @temp = plants($db, 'pg_temp', \%names);
	my @first = grep { $_->[2] !~ /^f:([^(]*)\(/ || !$edition_names{$1} } @public;
	my @later = grep { $_->[2] =~ /^f:([^(]*)\(/ && $edition_names{$1} } @public;
	my $count = sub {
		my ($kind, @p) = @_;
		return scalar grep { $_->[2] =~ /^$kind:/ } @p;
	};
	# What alice owns in a schema: functions (the operators' own included), operators, domains,
	# sequences and views.
	my $owned = sub {
		my ($ns) = @_;
		return qq{format('%s|%s|%s|%s',
    (SELECT count(*) FROM pg_proc WHERE proowner = 'alice'::regrole AND pronamespace = $ns
     AND proname NOT IN ('attack_ran', 'attack_check')),
    (SELECT count(*) FROM pg_operator WHERE oprowner = 'alice'::regrole AND oprnamespace = $ns),
    (SELECT count(*) FROM pg_type WHERE typowner = 'alice'::regrole AND typnamespace = $ns AND typtype = 'd'),
    (SELECT count(*) FROM pg_class WHERE relowner = 'alice'::regrole AND relnamespace = $ns
     AND relkind IN ('S', 'v') AND relname <> 'attack_trace'))};
	};
	my $expect = sub {
		return sprintf('%d|%d|%d|%d', $count->('f', @_) + $count->('o', @_), $count->('o', @_), $count->('t', @_),
			$count->('r', @_));
	};
	my ($out, $err) = ('', '');
	$node->psql($db, join('', map { $_->[1] } @first), stdout => \$out, stderr => \$err,
		on_error_stop => 0, extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=terse' ]);
	is(catalog_query($db, 'SELECT ' . $owned->(q{'public'::regnamespace})), $expect->(@first),
		"$db: alice planted every look-alike in public") or diag($err);

	# 1. A superuser with public first on the path, calling unqualified.
	my ($called, $missed, $warned) = call_all($db, $superuser, 'public, ids', 0, undef, $funcs);
	my @ran = ran_objects($db, $warned);
	is($called, scalar @$funcs, "$what: every function called by a superuser (search_path public, ids)")
	  or diag('never succeeded: ' . join(', ', @$missed));
	ok(!@ran, "$what: no planted object ran for a superuser (search_path public, ids)")
	  or diag(ran_report(@ran));

	# The control: functions that resolve an operator and a function through the caller's
	# path, in PL/pgSQL and in an inlined SQL body, are caught by the same look-alikes.
	if ($db eq $installs[0][0])
	{
		catalog_query($db, q{
CREATE FUNCTION fixture.control_plpgsql(v bigint) RETURNS bigint LANGUAGE plpgsql
AS $f$ BEGIN RETURN v & 255; END $f$;
CREATE FUNCTION fixture.control_sql(v bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT
AS $f$ SELECT to_timestamp(v) $f$;
CREATE SEQUENCE fixture.control_seq;
CREATE FUNCTION fixture.control_nextval() RETURNS bigint LANGUAGE plpgsql
AS $f$ BEGIN RETURN nextval('control_seq'::regclass); END $f$;});
		$node->safe_psql($db, q{SET search_path = public, ids, fixture; SET attack.caller = 'control';
SELECT fixture.control_plpgsql(5), fixture.control_sql(5), fixture.control_nextval();});
		is(join("\n", sort(ran_objects($db, []))), join("\n", 'alice became a superuser',
			"public.&(bigint, integer) (caller control, as $superuser)",
			'public.control_seq (caller unknown: a look-alike sequence was used)',
			"public.to_timestamp(bigint) (caller control, as $superuser)"),
			'control: look-alikes of &, to_timestamp and a sequence run in functions that do not pin their names');

		# And a type in alice's pg_temp is found first by a SECURITY DEFINER function that
		# does not pin its path.
		catalog_query($db, q{CREATE FUNCTION fixture.control_definer() RETURNS text LANGUAGE sql
SECURITY DEFINER AS $f$ SELECT 'x'::text $f$;});
		my ($out, $err) = ('', '');
		$node->psql($db, join('', map { $_->[1] } grep { $_->[2] eq 't:text' } @temp)
			  . "SET attack.caller = 'control';\nSELECT fixture.control_definer();",
			stdout => \$out, stderr => \$err, extra_params => [ '-U', 'alice' ]);
		is(join("\n", sort(ran_objects($db, [ $err =~ /WARNING:  planted object ran: (.*)$/mg ], 'alice'))),
			join("\n", 'alice became a superuser', qq{pg_temp."text" (caller control, as $superuser)}),
			'control: a domain in pg_temp runs in a SECURITY DEFINER function that does not pin its path');
	}

	# 2. Look-alikes of the edition's own names too; the superuser calls ids.fn(...).
	$node->psql($db, join('', map { $_->[1] } @later), stderr => \$err, on_error_stop => 0,
		extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=terse' ]);
	is(catalog_query($db, 'SELECT ' . $owned->(q{'public'::regnamespace})), $expect->(@public),
		"$db: alice planted look-alikes of the edition's own names in public") or diag($err);
	($called, $missed, $warned) = call_all($db, $superuser, '"$user", public', 1, undef, $funcs);
	@ran = ran_objects($db, $warned);
	is($called, scalar @$funcs,
		"$what: every function called by a superuser as ids.fn(...) (search_path \"\$user\", public)")
	  or diag('never succeeded: ' . join(', ', @$missed));
	ok(!@ran, "$what: no planted object ran for a superuser (search_path \"\$user\", public)")
	  or diag(ran_report(@ran));

	# 3. alice's own session with look-alikes in her pg_temp as well: nothing runs with the
	# privileges of another role (a SECURITY DEFINER function's owner).
	($called, $missed, $warned, $out) = call_all($db, 'alice', 'public, ids', 1,
		"\\set VERBOSITY terse\n" . join('', map { $_->[1] } @temp)
		  . "SET search_path = pg_catalog, pg_temp;\n"
		  . "SELECT 'temp:' || " . $owned->('pg_my_temp_schema()') . ";\n", $funcs);
	is(($out =~ /^temp:(.*)$/m)[0], $expect->(@temp),
		"$db: alice planted every look-alike in her pg_temp");
	@ran = ran_objects($db, $warned, 'alice');
	# The extension's owner-only functions refuse alice, who does not own it.
	my @owner_only = map { $_->{sig} } grep { $db =~ /^c_/ && $_->{sig} =~ /\.locality_uuid_release_core_names\(\)$/ } @$funcs;
	# And the monitoring function, granted to pg_monitor only (alice is no member).
	my @refused = map { $_->{sig} }
	  grep { $db =~ /^c_/ && $_->{sig} =~ /\.locality_uuid_(release_core_names|generators)\(/ } @$funcs;
	is($called, scalar(@$funcs) - @refused,
		"$what: every function called by alice with look-alikes in pg_temp, but the owner's and pg_monitor's")
	  or diag('never succeeded: ' . join(', ', @$missed));
	is(join(', ', @$missed), join(', ', @refused), "$what: alice may not call the owner's nor pg_monitor's functions");
	ok(!@ran, "$what: no planted object ran with another role's privileges for alice")
	  or diag(ran_report(@ran));

	# 4. The owner of a trusted install calls its SECURITY DEFINER function with alice's
	# look-alikes first on the path: nothing runs as the function's owner.
	if ($db eq 'c_bob')
	{
		my @own = grep { my $sig = $_->{sig}; grep { $_ eq $sig } @owner_only } @$funcs;
		($called, $missed, $warned) = call_all($db, 'bob', 'public, ids', 0, undef, \@own);
		@ran = ran_objects($db, $warned, 'bob');
		is($called, scalar @own, "$what: bob, its owner, calls @owner_only (search_path public, ids)")
		  or diag('never succeeded: ' . join(', ', @$missed));
		ok(!@ran, "$what: no planted object ran with another role's privileges for bob")
		  or diag(ran_report(@ran));
	}
	note(sprintf('%s: %d functions, each called by the 3 callers; look-alikes planted by alice: %d functions, '
		  . '%d operators, %d types and relations: %d in public; the same but the relations in pg_temp', $db,
		scalar(@$funcs), $count->('f', @public), $count->('o', @public), $count->('t', @public),
		$count->('r', @public)));
}

# 4. The portable edition's own schema is writable by the attacker: alice gets CREATE on ids
# (as wherever a DBA grants it, or public before 15). From the catalog, for every function of
# the edition, the edition's functions its body may call (pg_depend of SQL-standard bodies, and
# every edition name in a body's text): alice plants beside each, in ids, look-alikes with each
# integer argument (smallint, integer, bigint, numeric) swapped for each other integer type and
# with all of them swapped at once, and, for the helpers (locality_uuid_portable_*, which no
# caller names), one with an extra argument with a default (which would make a call by name
# ambiguous), each recording its call; operators and domains of the names the bodies use go
# into ids as well. Every call of every function, by a superuser and by an ordinary role, must
# then run none of them and succeed wherever it succeeded before.
$node->safe_psql('postgres', 'CREATE ROLE carol LOGIN');
my %INTEGER = map { $_ => 1 } ('smallint', 'integer', 'bigint', 'numeric');

# The look-alikes in ids of the functions that $db's edition calls: [object, DDL].
sub own_plants
{
	my ($db) = @_;
	my $json = catalog_query($db, q{
WITH edition AS (
    SELECT p.oid, p.proname, p.prolang, p.prosrc FROM pg_proc p
    WHERE p.pronamespace IN ('ids'::regnamespace, to_regnamespace('ids_internal'))
), called AS (
    SELECT DISTINCT d.refobjid AS callee FROM pg_depend d JOIN edition e ON e.oid = d.objid
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_proc'::regclass
      AND d.refobjid IN (SELECT oid FROM edition)
    UNION
    SELECT c.oid FROM edition e JOIN pg_language l ON l.oid = e.prolang AND l.lanname = 'plpgsql'
    CROSS JOIN LATERAL regexp_matches(lower(e.prosrc), '[a-z_][a-z0-9_$]*', 'g') AS m
    JOIN edition c ON c.proname = m[1]
)
SELECT json_agg(json_build_object('name', p.proname,
        'args', (SELECT coalesce(json_agg(format_type(t, NULL) ORDER BY i), '[]')
                 FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, i)),
        'full', pg_get_function_arguments(p.oid), 'result', pg_get_function_result(p.oid),
        'outs', p.proallargtypes IS NOT NULL) ORDER BY p.oid)
FROM called c JOIN pg_proc p ON p.oid = c.callee});
	my (@plants, %seen);
	for my $f (@{ decode_json($json) // [] })
	{
		my @args = @{ $f->{args} };
		my @lists;
		for my $i (grep { $INTEGER{ $args[$_] } } 0 .. $#args)
		{
			push @lists, [ @args[ 0 .. $i - 1 ], $_, @args[ $i + 1 .. $#args ] ]
			  for grep { $_ ne $args[$i] } sort keys %INTEGER;
		}
		for my $t (sort keys %INTEGER)
		{
			push @lists, [ map { $INTEGER{$_} ? $t : $_ } @args ] if grep { $INTEGER{$_} } @args;
		}
		my @defs = map { [ join(', ', @$_), $f->{outs} ? 'record' : $f->{result} ] } @lists;
		push @defs, [ ($f->{full} eq '' ? '' : "$f->{full}, ") . 'attack_extra integer DEFAULT 0',
			$f->{result} ] if $f->{name} =~ /^locality_uuid_portable_/;
		for my $d (@defs)
		{
			my ($arglist, $result) = @$d;
			my $object = "ids.$f->{name}($arglist)";
			next if $seen{$object}++;
			my $return = $result eq 'void' || $arglist =~ /\bOUT\b/ ? 'RETURN;' : 'RETURN NULL;';
			push @plants, [ $object, sprintf(qq{CREATE FUNCTION ids."%s"(%s) RETURNS %s LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS \$p\$ BEGIN PERFORM public.attack_ran(%s); %s END \$p\$;\n},
				$f->{name}, $arglist, $result, "'" . ($object =~ s/'/''/gr) . "'", $return) ];
		}
	}
	return @plants;
}

# Each call of each function of $db's edition as its own statement, by $user: the indices of
# the calls that succeeded, and the warnings of planted objects.
sub each_call
{
	my ($db, $user, $funcs) = @_;
	my (@calls, $sql);
	for my $f (@$funcs)
	{
		push @calls, map { [ $f->{sig}, $_ ] } calls_of($f, 1);
	}
	$sql = "SET search_path = \"\$user\", public;\n";
	for my $i (0 .. $#calls)
	{
		$sql .= "SET attack.caller = '$calls[$i][0]';\nSELECT 'ok:$i', $calls[$i][1];\n";
	}
	my ($out, $err) = ('', '');
	$node->psql($db, $sql, stdout => \$out, stderr => \$err, on_error_stop => 0,
		extra_params => [ '-U', $user ]);
	my %ok = map { $_ => 1 } $out =~ /^ok:(\d+)\|/mg;
	return (\%ok, [ $err =~ /WARNING:  planted object ran: (.*)$/mg ], \@calls);
}

for my $db (qw(p_super p_bob))
{
	my $funcs = [ edition_functions($db) ];
	my %before;
	for my $user ($superuser, 'carol')
	{
		($before{$user}) = each_call($db, $user, $funcs);
	}
	$node->safe_psql($db, 'GRANT CREATE ON SCHEMA ids TO alice');
	# The helpers' schema takes nothing from alice: their look-alikes go beside the callers, in ids.
	my ($rc_internal, $out_internal, $err_internal) = ('', '', '');
	$rc_internal = $node->psql($db, 'CREATE FUNCTION ids_internal.locality_uuid_portable_now(integer DEFAULT 0) RETURNS bigint LANGUAGE sql RETURN 0',
		stdout => \$out_internal, stderr => \$err_internal, extra_params => [ '-U', 'alice' ]);
	like($err_internal, qr/permission denied for schema ids_internal/, "$db: alice cannot create in ids_internal");
	my @own = own_plants($db);
	my @more = grep { $_->[2] =~ /^[ot]:/ } plants($db, 'ids', \%names);
	my ($out, $err) = ('', '');
	$node->psql($db, join('', map { $_->[1] } @own, @more), stdout => \$out, stderr => \$err,
		on_error_stop => 0, extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=terse' ]);
	my $planted = catalog_query($db, q{SELECT count(*) FROM pg_proc
WHERE pronamespace = 'ids'::regnamespace AND proowner = 'alice'::regrole});
	cmp_ok($planted, '>=', scalar(@own), "$db: alice planted in ids every look-alike of the functions the edition calls")
	  or diag($err);
	note(sprintf('%s: %d look-alikes of the edition\'s own functions and %d operators and domains in ids',
		$db, scalar(@own), scalar(@more)));
	for my $user ($superuser, 'carol')
	{
		my ($ok, $warned, $calls) = each_call($db, $user, $funcs);
		my @ran = ran_objects($db, $warned);
		ok(!@ran, "$db: no look-alike in ids ran for " . ($user eq 'carol' ? 'an ordinary role' : 'a superuser'))
		  or diag(ran_report(@ran));
		# The helpers (which no caller names) are left out: a look-alike with an extra default
		# makes the caller's own call of one by name ambiguous, not the edition's.
		my @lost = map { $calls->[$_][1] } grep { !$ok->{$_} && $calls->[$_][0] !~ /^ids(?:_internal)?\.locality_uuid_portable_/ }
		  sort { $a <=> $b } keys %{ $before{$user} };
		is(scalar(@lost), 0, "$db: every call that succeeded before the look-alikes still succeeds for "
			  . ($user eq 'carol' ? 'an ordinary role' : 'a superuser'))
		  or diag(join("\n", @lost[ 0 .. ($#lost < 19 ? $#lost : 19) ]));
		cmp_ok(scalar(keys %{ $before{$user} }), '>', scalar(@$funcs), "$db: calls succeeded for $user");
	}
}

$node->stop;
done_testing();
