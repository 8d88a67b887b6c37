#!/bin/sh
# Instructions per click of a stored link, counted by valgrind's callgrind in the running server (as
# bench/serving/instructions.sh counts the serving loads): a repeatable figure for comparing builds on a machine
# whose req/s move by 2x between runs. Two loads, iPhone Safari clicks (the landing page) on one keep-alive
# connection:
#
# - `link`: the first link, asked again every time (its answer and page kept, run.sh's "kept link");
# - `link-distinct`: a different link every click, none asked before (run.sh's "distinct taps": each answered from
#   the link index, docs/LINKS.md "Serving links").
#
# --links links (20,000) are created through the API (NDJSON bulk, slugs as run.sh makes them), then linkd is
# restarted under callgrind and waits until its link index has read them. Each load: warm-up clicks (on other
# links for `link-distinct`), counters zeroed, N clicks, a pause for the hit writer's flush, a dump; the total over
# all threads divided by N, the hit writer's part apart (it depends on batch sizes), and PostgreSQL's CPU time.
#
# Usage: bench/links/instructions.sh [--requests N] [--links N] [--no-build] [--keep DIR]
#   (BENCH_LINKD=/path/to/linkd: another build; --keep DIR: each load's dump and inclusive annotation in DIR)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/serving/lib.sh"

REQUESTS=2000; LINKS=20000; BUILD=1; KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) REQUESTS=$2; shift 2 ;;
        --links) LINKS=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) echo "usage: $0 [--requests N] [--links N] [--no-build] [--keep DIR]" >&2; exit 2 ;;
    esac
done
[ "$LINKS" -ge $((REQUESTS + 1001)) ] || { echo "--links must be at least --requests + 1001" >&2; exit 2; }
HOST=links.example.com

bench_require curl psql initdb valgrind objcopy
bench_linkd_binary "$BUILD"
bench_setup
# As bench/serving/instructions.sh: valgrind's DWARF reader may give up on a Swift release build's debug sections.
objcopy --strip-debug "$LINKD" "$BENCH_TMP/linkd" || bench_die "objcopy --strip-debug failed"
LINKD=$BENCH_TMP/linkd
bench_start_postgres
export LINKD_ACCESS_LOG=off BENCH_READY_TIMEOUT=180
bench_start_linkd 0 --threads 2
PORT=$BENCH_LINKD_PORT
BASE="http://127.0.0.1:$PORT"
bench_seed

# slugs FIRST COUNT: the slugs of links FIRST .. FIRST+COUNT-1 (run.sh's `gen`, tap-distinct.lua's `slug`).
slugs() {
    awk -v first="$1" -v count="$2" 'BEGIN {
        alphabet = "23456789abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
        for (i = first; i < first + count; i++) {
            x = (i * 387420489) % 4294967296; slug = ""
            for (k = 0; k < 6; k++) { d = x % 55; slug = slug substr(alphabet, d + 1, 1); x = int(x / 55) }
            print slug
        }
    }'
}
bench_log "creating $LINKS links"
slugs 0 "$LINKS" | awk -v host="$HOST" -v app="$IOS" '{
    printf "{\"domain\":\"%s\",\"slug\":\"%s\",\"app\":\"%s\",\"destination\":{\"type\":\"widgetDetail\",\"params\":{\"id\":%d}}}\n", host, $1, app, NR
}' >"$BENCH_TMP/links.ndjson"
curl -sf -o "$BENCH_TMP/links.answer" -X POST "$BASE/v1/links/bulk?acknowledgeMoves=true" -H "Authorization: Bearer $ADMIN" \
    -H 'Content-Type: application/x-ndjson' --data-binary "@$BENCH_TMP/links.ndjson" || bench_die "the bulk request failed"
grep -q "\"created\":$LINKS" "$BENCH_TMP/links.answer" || bench_die "not every link was created: $(head -c 300 "$BENCH_TMP/links.answer")"
# Restarted under callgrind, as a node starts with the links stored; ready once its index has read them.
bench_stop_pid "$LINKD_PID"
: >"$BENCH_TMP/linkd.log"
BENCH_WRAPPER="valgrind --tool=callgrind --callgrind-out-file=$BENCH_TMP/callgrind.out.%p --dump-instr=no"
bench_start_linkd "$PORT" --threads 2
i=0
until grep -q '"link index read"' "$BENCH_TMP/linkd.log"; do
    i=$((i + 1)); [ $i -gt 1800 ] && bench_die "the link index was not read: $(tail -n 3 "$BENCH_TMP/linkd.log")"; sleep 0.1
done
bench_log "$(grep '"link index read"' "$BENCH_TMP/linkd.log" | sed 's/.*"links.held":"\([0-9]*\)".*"links.bytes":"\([0-9]*\)".*/index: \1 links, \2 bytes/')"

UA_IPHONE="User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
# count NAME WARM-SLUGS-FILE SLUGS-FILE: instructions per click of the slugs in the file (each line one click).
count() {
    name=$1
    for file in "$2" "$3"; do
        awk -v base="$BASE" '{ printf "url = \"%s/%s\"\noutput = \"/dev/null\"\n", base, $1 }' "$file" >"$file.curl"
    done
    curl -sf -K "$2.curl" -H "Host: $HOST" -H "$UA_IPHONE" || bench_die "$name: warm-up clicks failed"
    callgrind_control -z "$LINKD_PID" >/dev/null 2>&1
    db_before=$(bench_cpu $(bench_postgres_pids))
    curl -sf -K "$3.curl" -H "Host: $HOST" -H "$UA_IPHONE" || bench_die "$name: clicks failed"
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
    writer=$(awk '/HitWriterV3runyyF|RecordWriterV3runyyFAA14HitWriteTarget/ { gsub(",", "", $1); print $1; exit }' "$dump.txt")
    writer=${writer:-0}
    db_us=$(awk -v a="$db_before" -v b="$db_after" -v n="$REQUESTS" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / t * 1e6 / n }')
    echo "$name: $(((total - writer) / REQUESTS)) instructions/click on the request path, + $((writer / REQUESTS)) in the hit" \
        "writer ($REQUESTS clicks); PostgreSQL $db_us us CPU/click"
}
slugs 0 1 >"$BENCH_TMP/kept"
awk -v n=300 '{ for (i = 0; i < n; i++) print }' "$BENCH_TMP/kept" >"$BENCH_TMP/kept.warm"
awk -v n="$REQUESTS" '{ for (i = 0; i < n; i++) print }' "$BENCH_TMP/kept" >"$BENCH_TMP/kept.clicks"
count link "$BENCH_TMP/kept.warm" "$BENCH_TMP/kept.clicks"
slugs 1 300 >"$BENCH_TMP/distinct.warm"
slugs 1001 "$REQUESTS" >"$BENCH_TMP/distinct.clicks"
count link-distinct "$BENCH_TMP/distinct.warm" "$BENCH_TMP/distinct.clicks"
