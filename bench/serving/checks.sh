#!/bin/sh
# Background association checks under load (issue 30): 10,000 domains whose background checks (docs/HEALTH.md,
# "Checks") all wait on a slow Apple CDN and Google API, against the same linkd with the checks off. The checks
# must not take serving from the requests: AASA and resolve req/s and p99 with the checks running stay within
# noise of those without.
#
# The workspace of run.sh (bench_seed) is cloned by SQL into DOMAINS domains with the same rules (the catalog
# compiles them once). A Python server on 127.0.0.1 answers every request after DELAY seconds (404 for the CDN,
# an empty statement list for Google); the origin checks ask the domains' own names, which do not resolve. With
# the checks on, linkd runs with `--check-interval 600`: 10,000 domains are 17 due a second, far more than 4 in
# flight at DELAY seconds each can do, so the checks run at their bound for the whole measurement (the worst
# case: a backlog after an outage). Rounds alternate off and on, each a fresh start of linkd; medians.
#
# Usage: bench/serving/checks.sh [--domains N] [--delay S] [--rounds N] [--seconds S] [--connections C] [--no-build]
#   defaults: 10000 domains, 2 s delay, 3 rounds, 10 s, 64 connections, 2 wrk and 2 linkd threads.
#   BENCH_LINKD=.build/debug/linkd --no-build runs a debug build (figures then only compare off and on).
# Exit status: 0 when req/s with the checks on is >= 0.9x off for both loads, 1 when not, 2 on a setup failure.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/serving/lib.sh"

DOMAINS=10000; DELAY=2; ROUNDS=3; SECONDS_PER_RUN=10; CONNECTIONS=64; BENCH_THREADS=2; BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
        --domains) DOMAINS=$2; shift 2 ;;
        --delay) DELAY=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --seconds) SECONDS_PER_RUN=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) echo "usage: $0 [--domains N] [--delay S] [--rounds N] [--seconds S] [--connections C] [--no-build]" >&2; exit 2 ;;
    esac
done
LINKD_PORT=0; HOST=links.example.com   # the kernel's choice at the first start, kept for the restarts (lib.sh)
WRK="wrk -t$BENCH_THREADS -c$CONNECTIONS -d${SECONDS_PER_RUN}s --latency --timeout 2s"
BENCH_READY_TIMEOUT=120

bench_require wrk curl psql initdb python3
bench_linkd_binary "$BUILD"
bench_setup
bench_start_postgres
export LINKD_ACCESS_LOG=off
bench_start_linkd "$LINKD_PORT" --threads "$BENCH_THREADS" --check-interval 0
LINKD_PORT=$BENCH_LINKD_PORT
BASE="http://127.0.0.1:$LINKD_PORT"
bench_seed
bench_stop_pid "$LINKD_PID"

bench_log "cloning $HOST into $DOMAINS domains"
$BENCH_PSQL -d linkd <<EOF
\set ON_ERROR_STOP 1
BEGIN;
CREATE TEMP TABLE template AS SELECT id, workspace_id, settings FROM domains WHERE hostname = '$HOST';
INSERT INTO domains (workspace_id, hostname, settings)
    SELECT t.workspace_id, 'd' || i || '.bench.example', t.settings FROM template t, generate_series(1, $DOMAINS - 1) i;
INSERT INTO rules (workspace_id, domain_id, position, definition)
    SELECT d.workspace_id, d.id, r.position, r.definition
    FROM domains d JOIN rules r ON r.domain_id = (SELECT id FROM template) WHERE d.hostname LIKE '%.bench.example';
INSERT INTO rule_apps (rule_id, app_id, ordinal)
    SELECT n.id, ra.app_id, ra.ordinal
    FROM rules n JOIN domains d ON d.id = n.domain_id AND d.hostname LIKE '%.bench.example'
    JOIN rules o ON o.domain_id = (SELECT id FROM template) AND o.position = n.position
    JOIN rule_apps ra ON ra.rule_id = o.id;
COMMIT;
VACUUM ANALYZE;
EOF
bench_log "domains: $($BENCH_PSQL -d linkd -At -c 'SELECT count(*) FROM domains')"

# The slow stand-in for Apple's CDN and Google's API.
cat >"$BENCH_TMP/slow.py" <<'PY'
import sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
DELAY = float(sys.argv[1])
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_GET(self):
        time.sleep(DELAY)
        google = self.path.startswith("/v1/")
        body = b'{"maxAge":"600s"}' if google else b"Not Found"
        self.send_response(200 if google else 404)
        self.send_header("Content-Type", "application/json" if google else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
PY
python3 "$BENCH_TMP/slow.py" "$DELAY" >"$BENCH_TMP/slow.port" &
bench_track $!
i=0; until [ -s "$BENCH_TMP/slow.port" ]; do i=$((i + 1)); [ $i -gt 100 ] && bench_die "the slow server did not start"; sleep 0.05; done
SLOW="http://127.0.0.1:$(cat "$BENCH_TMP/slow.port")"
CHECKS_ON="--check-interval 600 --check-timeout 5 --apple-cdn-url $SLOW/a/v1/ --google-dal-url $SLOW/v1/statements:list"

# run MODE NAME URL [header]: one wrk run; appends "rps p99_ms" to $BENCH_TMP/results.MODE.NAME.
run() {
    mode=$1; name=$2; url=$3; shift 3
    $WRK "$@" "$url" >"$BENCH_TMP/wrk.out" 2>&1 || bench_die "wrk failed: $(cat "$BENCH_TMP/wrk.out")"
    grep -q 'Non-2xx' "$BENCH_TMP/wrk.out" && bench_die "$mode $name answered errors: $(grep 'Non-2xx' "$BENCH_TMP/wrk.out")"
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$BENCH_TMP/wrk.out")
    p99=$(bench_ms "$(awk '$1 == "99%" { print $2 }' "$BENCH_TMP/wrk.out")")
    bench_log "  $mode $name: $rps req/s, p99 $p99 ms"
    echo "$rps $p99" >>"$BENCH_TMP/results.$mode.$name"
}
checked() { curl -s "$BASE/metrics" | awk '/^linkd_association_checks_total\{outcome="checked"\}/ { print $2 }'; }
requests() { curl -s "$BASE/metrics" | awk '/^linkd_outbound_requests_total/ { s += $2 } END { print s + 0 }'; }

round=1
while [ $round -le "$ROUNDS" ]; do
    for mode in off on; do
        if [ "$mode" = on ]; then
            # shellcheck disable=SC2086
            bench_start_linkd "$LINKD_PORT" --threads "$BENCH_THREADS" $CHECKS_ON
            sleep 3   # the first claims are in flight
        else
            bench_start_linkd "$LINKD_PORT" --threads "$BENCH_THREADS" --check-interval 0
        fi
        before=$(requests)
        run "$mode" aasa "$BASE$AASA_PATH" -H "Host: $HOST"
        run "$mode" resolve "$BASE$RESOLVE_PATH" -H "Authorization: Bearer $READ"
        bench_log "  $mode: outbound requests during the loads: $(( $(requests) - before )), domains checked since start: $(checked)"
        bench_stop_pid "$LINKD_PID"
    done
    round=$((round + 1))
done

median() { awk -v c="$1" '{ print $c }' "$2" | bench_median; }
echo
echo "background checks: $DOMAINS domains, CDN and Google answering after ${DELAY}s, $ROUNDS rounds, medians"
printf '%-10s %12s %12s %10s %10s %8s\n' load "off req/s" "on req/s" "off p99" "on p99" ratio
status=0
for name in aasa resolve; do
    off=$(median 1 "$BENCH_TMP/results.off.$name"); on=$(median 1 "$BENCH_TMP/results.on.$name")
    ratio=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.2f", a / b }')
    printf '%-10s %12s %12s %10s %10s %8s\n' "$name" "$off" "$on" "$(median 2 "$BENCH_TMP/results.off.$name")" \
        "$(median 2 "$BENCH_TMP/results.on.$name")" "$ratio"
    awk -v r="$ratio" 'BEGIN { exit !(r >= 0.9) }' || status=1
done
exit $status
