#!/usr/bin/env perl
# Check META.json against the PGXN Meta Spec 1.0.0 (pgxn.org/meta/spec.txt) and the tree: required
# keys, value types, semantic versions, known licenses, phases and relations of prereqs, files that
# exist, and the version of locality_uuid.control. Usage: perl test/check_meta.pl [META.json]
# (make meta-check). Prints each fault on a line and exits 1 if there is any.
use strict;
use warnings;
use JSON::PP;

my $file = shift // 'META.json';
open my $fh, '<', $file or die "$file: $!";
my $meta = eval { JSON::PP->new->utf8->relaxed(0)->decode(join '', <$fh>) };
close $fh;
die "$file: not JSON: $@" unless $meta;

my @faults;
sub fault { push @faults, "$file: @_" }

# SemVer 1.0.0, as the spec requires of every version.
my $semver = qr/^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:[a-zA-Z][a-zA-Z0-9-]*)?$/;
my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd freebsd gfdl_1_2
  gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5 postgresql
  qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);
my %required = map { $_ => 1 } qw(name version abstract maintainer license provides meta-spec);
my %optional = map { $_ => 1 } qw(description generated_by tags no_index prereqs release_status resources);

sub is_string { defined $_[0] && !ref $_[0] && length $_[0] }

# A string or a non-empty list of strings.
sub strings
{
	my ($v) = @_;
	return is_string($v) || (ref $v eq 'ARRAY' && @$v && !grep { !is_string($_) } @$v);
}

for my $k (sort keys %required) { fault("required key $k is missing") unless exists $meta->{$k} }
for my $k (sort keys %$meta)
{
	fault("unknown key $k (custom keys begin with x_ or X_)")
	  unless $required{$k} || $optional{$k} || $k =~ /^[xX]_/;
}

fault('name must be a string of 2 or more characters without /, \\ or spaces')
  unless is_string($meta->{name}) && $meta->{name} =~ m{^[^/\\\s]{2,}$};
fault("version $meta->{version} is not a semantic version") unless is_string($meta->{version}) && $meta->{version} =~ $semver;
fault('abstract must be a string') unless is_string($meta->{abstract});
fault('description must be a string') if exists $meta->{description} && !is_string($meta->{description});
fault('maintainer must be a string or a list of strings') unless strings($meta->{maintainer});

my $license = $meta->{license};
if (ref $license eq 'HASH')
{
	fault('license must name at least one license') unless %$license;
	for (sort keys %$license) { fault("license $_ needs a URL") unless is_string($license->{$_}) && $license->{$_} =~ m{^https?://} }
}
elsif (strings($license))
{
	for (ref $license ? @$license : $license) { fault("license $_ is none of the spec's") unless $licenses{$_} }
}
else { fault('license must be a string, a list or a hash') }

my $spec = $meta->{'meta-spec'};
fault('meta-spec must be {"version": "1.0.0", ...}')
  unless ref $spec eq 'HASH' && ($spec->{version} // '') eq '1.0.0';

my $provides = $meta->{provides};
if (ref $provides eq 'HASH' && %$provides)
{
	for my $ext (sort keys %$provides)
	{
		my $p = $provides->{$ext};
		if (ref $p ne 'HASH') { fault("provides.$ext must be an object"); next; }
		for my $k (sort keys %$p)
		{
			fault("provides.$ext has unknown key $k") unless $k =~ /^(?:file|version|abstract|docfile)$/ || $k =~ /^[xX]_/;
		}
		fault("provides.$ext.file is required") unless is_string($p->{file});
		fault("provides.$ext.version is not a semantic version") unless is_string($p->{version}) && $p->{version} =~ $semver;
		for my $k (qw(file docfile))
		{
			fault("provides.$ext.$k $p->{$k} is not in the tree") if is_string($p->{$k}) && !-f $p->{$k};
		}
	}
}
else { fault('provides must be an object naming at least one extension') }

if (exists $meta->{prereqs})
{
	my $prereqs = $meta->{prereqs};
	if (ref $prereqs ne 'HASH') { fault('prereqs must be an object') }
	else
	{
		for my $phase (sort keys %$prereqs)
		{
			fault("prereqs phase $phase is none of configure, build, test, runtime, develop")
			  unless $phase =~ /^(?:configure|build|test|runtime|develop)$/;
			for my $rel (sort keys %{ $prereqs->{$phase} // {} })
			{
				fault("prereqs.$phase relation $rel is none of requires, recommends, suggests, conflicts")
				  unless $rel =~ /^(?:requires|recommends|suggests|conflicts)$/;
				my $deps = $prereqs->{$phase}{$rel};
				for my $name (sort keys %{ ref $deps eq 'HASH' ? $deps : {} })
				{
					my $range = $deps->{$name} // '';
					my @parts = split /\s*,\s*/, $range;
					my @bad = grep { $_ ne '0' && !(/^(?:[<>]=?|==|!=)?\s*(\S+)$/ && $1 =~ $semver) } @parts;
					fault("prereqs.$phase.$rel.$name: $range is no version range") if !@parts || @bad;
				}
			}
		}
	}
}

fault('release_status must be stable, testing or unstable')
  if exists $meta->{release_status} && ($meta->{release_status} // '') !~ /^(?:stable|testing|unstable)$/;
fault('tags must be a list of strings of at most 255 characters')
  if exists $meta->{tags} && !(ref $meta->{tags} eq 'ARRAY' && !grep { !is_string($_) || length > 255 } @{ $meta->{tags} });
fault('generated_by must be a string') if exists $meta->{generated_by} && !is_string($meta->{generated_by});
if (exists $meta->{resources})
{
	my $r = $meta->{resources};
	if (ref $r ne 'HASH') { fault('resources must be an object') }
	else
	{
		for my $k (sort keys %$r)
		{
			fault("resources has unknown key $k") unless $k =~ /^(?:homepage|bugtracker|repository)$/ || $k =~ /^[xX]_/;
		}
	}
}

# The tree: the distribution's version is the control file's default_version, as x.y.0.
if (open my $ctl, '<', 'locality_uuid.control')
{
	my ($default) = join('', <$ctl>) =~ /^default_version\s*=\s*'([^']+)'/m;
	close $ctl;
	my $want = defined $default && $default =~ /^\d+\.\d+$/ ? "$default.0" : $default // '';
	fault("version $meta->{version} is not default_version $default of locality_uuid.control as x.y.0")
	  unless ($meta->{version} // '') eq $want;
	for my $ext (sort keys %{ ref $provides eq 'HASH' ? $provides : {} })
	{
		fault("provides.$ext.version $provides->{$ext}{version} is not $want")
		  unless ($provides->{$ext}{version} // '') eq $want;
	}
}
else { fault('locality_uuid.control is missing') }

print "$_\n" for @faults;
print "$file: PGXN Meta Spec 1.0.0 and the tree agree\n" unless @faults;
exit(@faults ? 1 : 0);
