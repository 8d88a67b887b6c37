#!/usr/bin/perl
# Writes a small MaxMind DB file shaped like GeoLite2 Country, for the tests of the hits' countries.
# Usage: write_country_db.pl OUT NETWORK=CC ...   (e.g. 127.0.0.2/32=DE ::1/128=FR)
# Needs Debian's libmaxmind-db-writer-perl (scripts/install-deps).
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my $out = shift @ARGV or die "usage: $0 OUT NETWORK=CC ...\n";
my %types = (country => 'map', registered_country => 'map', iso_code => 'utf8_string');
my $tree = MaxMind::DB::Writer::Tree->new(
    ip_version            => 6,
    record_size           => 24,
    database_type         => 'linkd-Test-Country',
    languages             => ['en'],
    description           => { en => 'linkd test countries' },
    map_key_type_callback => sub { $types{ $_[0] } },
    # Loopback and documentation ranges are what tests can use: keep them.
    remove_reserved_networks => 0,
);
for my $pair (@ARGV) {
    my ($network, $country) = split /=/, $pair, 2;
    $tree->insert_network($network, { country => { iso_code => $country } });
}
open my $fh, '>:raw', $out or die "cannot write $out: $!\n";
$tree->write_tree($fh);
close $fh or die "cannot write $out: $!\n";
