#!/bin/sh
# Instructions per request of linkd's AASA endpoint, of GET /v1/resolve (one URL asked again, and a different URL
# every request: every answer computed), and of the clicks run.sh measures (the iPhone's landing page, and
# Android's with its click token), counted by valgrind's callgrind
# in the running server: a repeatable figure (the same build gives the same count whatever else the machine
# does), for comparing builds where wrk's req/s moves by 2x between runs. Not a target check: run.sh is.
#
# linkd runs under callgrind on a private PostgreSQL cluster, seeded as run.sh seeds it (lib.sh bench_seed).
# For each load: warm-up requests, counters zeroed (callgrind_control -z), N sequential requests on one
# keep-alive connection (curl), a pause for the hit writer's next flush (resolve logs hits), a dump; the
# dump's total over all threads divided by N, the hit writer's and the click tokens' writer's parts apart (they
# depend on batch sizes).
# Kernel time is not counted; libc's memset counts one instruction per byte for `rep stosb` (MHD zeroes its
# per-connection memory pool after each request, and half of it again when it shrinks the read buffer: ~43,000
# of the AASA figure).
#
# The last load, `resolve-context`, is GET /v1/resolve of a targeted link (five targets, the last one with a
# two-variant split) with the visitor's whole context (country, language, visitorId, app, platform, osVersion),
# the visitor taken by the last target and given a variant: docs/LINKS.md, "Targeting and experiments". Compare
# it with `resolve` of the same run (issue 51: at most 1.1x), and with `resolve-link`, the same link without a
# context (its own destination). The link is made after the first two loads, so they count what they always
# counted.
#
# Usage: bench/serving/instructions.sh [--requests N] [--no-build] [--keep DIR]     (BENCH_LINKD=/path/to/linkd: another build;
#   --keep DIR: each load's callgrind dump and its inclusive annotation are copied to DIR as NAME.callgrind, NAME.txt)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/serving/lib.sh"

REQUESTS=2000; BUILD=1; KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) REQUESTS=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) echo "usage: $0 [--requests N] [--no-build] [--keep DIR]" >&2; exit 2 ;;
    esac
done
LINKD_PORT=0; HOST=links.example.com   # linkd's port: the kernel's choice (lib.sh)

bench_require curl psql initdb valgrind objcopy
bench_linkd_binary "$BUILD"
bench_setup
# valgrind 3.19's DWARF reader gives up on some Swift 6.3 release builds ("Possibly corrupted debuginfo file",
# seen at 034b23e); the counts need only the symbol table, so a copy without debug sections is measured.
objcopy --strip-debug "$LINKD" "$BENCH_TMP/linkd" || bench_die "objcopy --strip-debug failed"
LINKD=$BENCH_TMP/linkd
bench_start_postgres
export LINKD_ACCESS_LOG=off BENCH_READY_TIMEOUT=180
BENCH_WRAPPER="valgrind --tool=callgrind --callgrind-out-file=$BENCH_TMP/callgrind.out.%p --dump-instr=no"
bench_start_linkd "$LINKD_PORT" --threads 2
LINKD_PORT=$BENCH_LINKD_PORT
BASE="http://127.0.0.1:$LINKD_PORT"
bench_seed

# count NAME URL HEADER...: instructions per request for N requests of URL with the given headers. A URL with
# `{n}` in it is a different URL every request: n counts from 1 for the measured requests and from 1,000,001 for
# the warm-up, so no measured answer was asked before (the resolver's own cost, not its answer cache's).
count() {
    name=$1; url=$2; shift 2
    config="$BENCH_TMP/$name.curl"
    awk -v url="$url" -v n="$REQUESTS" 'BEGIN { for (i = 1; i <= n; i++) { u = url; gsub(/\{n\}/, i, u); printf "url = \"%s\"\noutput = \"/dev/null\"\n", u } }' >"$config"
    awk -v url="$url" 'BEGIN { for (i = 1000001; i <= 1000300; i++) { u = url; gsub(/\{n\}/, i, u); printf "url = \"%s\"\noutput = \"/dev/null\"\n", u } }' >"$config.warm"
    curl -sf -K "$config.warm" "$@" || bench_die "$name: warm-up requests failed"
    callgrind_control -z "$LINKD_PID" >/dev/null 2>&1
    db_before=$(bench_cpu $(bench_postgres_pids))
    curl -sf -K "$config" "$@" || bench_die "$name: requests failed"
    sleep 1   # the hit writer flushes every 200 ms
    db_after=$(bench_cpu $(bench_postgres_pids))
    before=$(ls "$BENCH_TMP"/callgrind.out.* | wc -l)
    callgrind_control -d "$LINKD_PID" >/dev/null 2>&1
    i=0
    until [ "$(ls "$BENCH_TMP"/callgrind.out.* | wc -l)" -gt "$before" ]; do
        i=$((i + 1)); [ $i -gt 100 ] && bench_die "callgrind wrote no dump"; sleep 0.1
    done
    sleep 0.5
    dump=$(ls -t "$BENCH_TMP"/callgrind.out.*.* | head -n 1)
    callgrind_annotate --inclusive=yes "$dump" >"$dump.txt" 2>/dev/null
    if [ -n "$KEEP" ]; then mkdir -p "$KEEP"; cp "$dump" "$KEEP/$name.callgrind"; cp "$dump.txt" "$KEEP/$name.txt"; fi
    total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$dump.txt")
    # The hit writer thread's share (its run loop, inclusive): it varies with how many hits each 200 ms flush
    # finds, so it is reported apart from the request path, which is repeatable.
    writer=$(awk '/HitWriterV3runyyF|RecordWriterV3runyyFAA14HitWriteTarget/ { gsub(",", "", $1); print $1; exit }' "$dump.txt")
    writer=${writer:-0}
    # The click tokens' thread (its run loop: inserting the queued tokens), apart for the same reason.
    tokens=$(awk '/ClickTokensC5startyyF/ { gsub(",", "", $1); print $1; exit }' "$dump.txt")
    tokens=${tokens:-0}
    # PostgreSQL's CPU time (its processes' user and system ticks, not instructions): what the hits and tokens cost
    # the database, a time and so not as repeatable as the counts.
    db_us=$(awk -v a="$db_before" -v b="$db_after" -v n="$REQUESTS" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / t * 1e6 / n }')
    echo "$name: $(((total - writer - tokens) / REQUESTS)) instructions/request on the request path," \
        "+ $((writer / REQUESTS)) in the hit writer, + $((tokens / REQUESTS)) in the click tokens' writer ($REQUESTS requests);" \
        "PostgreSQL $db_us us CPU/request"
}

UA_BOT="User-Agent: AASA-Bot/1.0.0"
UA_IPHONE="User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
count aasa "$BASE$AASA_PATH" -H "Host: $HOST" -H "$UA_BOT"
count resolve "$BASE$RESOLVE_PATH" -H "Authorization: Bearer $READ" -H "$UA_IPHONE"
# run.sh's "distinct URLs" (resolve-distinct.lua): every answer computed.
count resolve-distinct "$BASE/v1/resolve?url=https%3A%2F%2F$HOST%2Fwidget%2F{n}%3Ftab%3Dreviews" -H "Authorization: Bearer $READ" -H "$UA_IPHONE"
# run.sh's clicks: the iPhone's landing page, and Android's, which carries a new click token every time.
UA_ANDROID="User-Agent: Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
count landing "$BASE$CLICK_PATH" -H "Host: $HOST" -H "$UA_IPHONE"
count android "$BASE$CLICK_PATH" -H "Host: $HOST" -H "$UA_ANDROID"

# A targeted link: five targets whose conditions the visitor below fails but the last, which splits them.
widget() { printf '"app":"%s","destination":{"type":"widgetDetail","params":{"id":%s}}' "$IOS" "$1"; }
TARGETS="[{\"name\":\"france\",\"conditions\":{\"countries\":[\"FR\"]},$(widget 1)},
 {\"name\":\"french\",\"conditions\":{\"languages\":[\"fr\"]},$(widget 2)},
 {\"name\":\"android\",\"conditions\":{\"platforms\":[{\"platform\":\"android\"}]},$(widget 3)},
 {\"name\":\"other-app\",\"conditions\":{\"apps\":[\"$ANDROID\"]},$(widget 4)},
 {\"name\":\"dach\",\"conditions\":{\"countries\":[\"DE\",\"AT\",\"CH\"],\"platforms\":[{\"platform\":\"ios\",\"minVersion\":\"17\"}],\"languages\":[\"de\"]},$(widget 5),
  \"variants\":[{\"name\":\"a\",\"weight\":50,$(widget 6)},{\"name\":\"b\",\"weight\":50,$(widget 7)}]}]"
api POST "/v1/links?acknowledgeMoves=true" "{\"domain\":\"$HOST\",\"slug\":\"spring\",$(widget 8),\"targets\":$TARGETS}" 201 >/dev/null
CONTEXT_PATH="/v1/resolve?url=https%3A%2F%2F$HOST%2Fspring&platform=ios&country=DE&language=de-AT%2Cen%3Bq%3D0.5&visitorId=visitor-42&app=$IOS&osVersion=17.4"
ANSWER=$(curl -sf -H "Authorization: Bearer $READ" "$BASE$CONTEXT_PATH")
case "$ANSWER" in
    *'"target":"dach"'*'"variant":"'*) ;;
    *) bench_die "resolve with the context did not choose the split target: $ANSWER" ;;
esac
count resolve-link "$BASE/v1/resolve?url=https%3A%2F%2F$HOST%2Fspring&platform=ios" -H "Authorization: Bearer $READ" -H "$UA_IPHONE"
count resolve-context "$BASE$CONTEXT_PATH" -H "Authorization: Bearer $READ" -H "$UA_IPHONE"
