#!/bin/sh
# Matcher benchmark: resolutions/second for AASA files of 10, 1,000 and 10,000 rules with distinct literal
# prefixes (median of several rounds) and the ratios between them.
# Usage: bench/matcher/run.sh [--rounds N] [--seconds S]
set -eu
cd "$(dirname "$0")/../.."
swift build -c release --product linkd >&2
exec .build/release/linkd aasa bench "$@"
