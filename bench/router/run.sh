#!/bin/sh
# Router benchmark: decisions/second of a generated Swift router (compiled -O) for a 10-rule domain, beside the
# server's matcher bench (bench/matcher) in the same run, and the ratio between them (bench/router/README.md).
# Usage: bench/router/run.sh [--rules N] [--rounds N]
set -eu
cd "$(dirname "$0")/../.."
rules=10
rounds=5
while [ $# -gt 0 ]; do
  case "$1" in
    --rules) rules="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) echo "usage: bench/router/run.sh [--rules N] [--rounds N]" >&2; exit 2 ;;
  esac
done
swift build -c release --product linkd >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
.build/release/linkd codegen bench-source --rules "$rules" > "$work/Links.swift"
swiftc -O -o "$work/router" "$work/Links.swift" bench/router/main.swift >&2
router=$("$work/router" "$rules" "$rounds")
matcher_output=$(.build/release/linkd aasa bench --rounds "$rounds")
echo "$matcher_output"
matcher=$(echo "$matcher_output" | awk '$1 == "10" && $2 == "rules:" { print $3; exit }')
echo "generated Swift router ($rules rules, -O): $router decisions/s (LinkRouter.route: URL split, rule table, typed destination)"
awk -v r="$router" -v m="$matcher" 'BEGIN { if (m > 0) printf "ratio router / server matcher (10 rules): %.2f\n", r / m }'
