#!/bin/sh
# Serving benchmark (issue 5): linkd's AASA endpoint and GET /v1/resolve against nginx serving the same AASA
# bytes as a static file, measured in the same run with the same wrk settings, runs alternating
# (nginx, linkd AASA, linkd resolve, then again), median of the rounds. And clicks (issue 20): the landing page
# of a typed link for iPhone Safari (hit logged) against nginx serving the same page's bytes as a static file.
#
# Targets: AASA >= 1.0x nginx req/s; resolve (typed destination, hit logging on) >= 0.7x nginx; resolve p99
# at the given connections < 5 ms; landing page >= 0.7x nginx's req/s for the same bytes, p99 <= 2x nginx's. An
# Android click (whose page carries a new click token every time) is reported beside it without a target. A fourth load, resolve of a different URL on every request
# (resolve-distinct.lua: no answer is ever asked again, so none comes from the answer cache), is reported
# beside them without a target: what the resolver itself costs.
#
# linkd runs as an operator would start it (release build, `--threads 2`, default log level, its JSON log
# to a file) on a private PostgreSQL cluster this script creates; the workspace is seeded through the API
# with curl. Everything started here is stopped on exit.
#
# Usage: bench/serving/run.sh [--rounds N] [--seconds S] [--connections C] [--threads T] [--no-build] [--only NAME] [--access-log]
#   defaults: 3 rounds, 10 s, 64 connections, 2 wrk threads and 2 linkd threads / nginx workers.
#   --only nginx|linkd-aasa|linkd-resolve|linkd-cookie|linkd-distinct|nginx-landing|linkd-landing|linkd-android runs just that load (for profiling: `perf record -p <linkd pid>`
#   meanwhile); the linkd pid is printed at start.
#   --access-log runs linkd with its per-request access log on; by default the bench turns it off
#   (LINKD_ACCESS_LOG=off), as nginx runs with access_log off: both servers log nothing per request.
# Exit status: 0 when every target holds, 1 when one does not, 2 on a setup failure.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/serving/lib.sh"

ROUNDS=3; SECONDS_PER_RUN=10; CONNECTIONS=64; BENCH_THREADS=2; BUILD=1; ONLY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS=$2; shift 2 ;;
        --seconds) SECONDS_PER_RUN=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --threads) BENCH_THREADS=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --only) ONLY=$2; shift 2 ;;
        --access-log) export LINKD_ACCESS_LOG=on; shift ;;
        *) echo "usage: $0 [--rounds N] [--seconds S] [--connections C] [--threads T] [--no-build] [--only NAME] [--access-log]" >&2; exit 2 ;;
    esac
done
LINKD_PORT=0; HOST=links.example.com   # linkd's port: the kernel's choice (lib.sh)
WRK="wrk -t$BENCH_THREADS -c$CONNECTIONS -d${SECONDS_PER_RUN}s --latency --timeout 2s"

bench_require wrk nginx curl psql initdb
bench_linkd_binary "$BUILD"

bench_setup
bench_start_postgres
export LINKD_ACCESS_LOG="${LINKD_ACCESS_LOG:-off}"
bench_start_linkd "$LINKD_PORT" --threads "$BENCH_THREADS"
LINKD_PORT=$BENCH_LINKD_PORT
BASE="http://127.0.0.1:$LINKD_PORT"
bench_log "linkd pid $LINKD_PID"

bench_seed
# A person signed in (a viewer of the bench workspace): resolve with their session cookie instead of a key.
LINK=$("$LINKD" users create --workspace bench --email bench@example.com --role viewer --database-url "$BENCH_DATABASE_URL" \
    --migrations "$ROOT/migrations" 2>/dev/null)
curl -sf -o /dev/null -X POST "$BASE/v1/password" -H 'Content-Type: application/json' \
    -d "{\"token\":\"${LINK##*token=}\",\"password\":\"bench password 1\"}" || bench_die "cannot set the bench person's password"
COOKIE=$(curl -sf -D - -o /dev/null -X POST "$BASE/v1/sessions" -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"bench password 1"}' | sed -n 's/^Set-Cookie: \(linkd_session=[^;]*\).*/\1/p')
[ -n "$COOKIE" ] || bench_die "cannot sign the bench person in"
NGINX_PORT=$(bench_free_port)
bench_start_nginx "$NGINX_PORT" "$BENCH_TMP/www"
curl -sf -o "$BENCH_TMP/nginx.aasa" "http://127.0.0.1:$NGINX_PORT$AASA_PATH"
cmp -s "$BENCH_TMP/www$AASA_PATH" "$BENCH_TMP/nginx.aasa" || bench_die "nginx does not serve the same bytes"
SIZE=$(wc -c <"$BENCH_TMP/nginx.aasa")
curl -sf -o "$BENCH_TMP/nginx.landing" "http://127.0.0.1:$NGINX_PORT/landing.html"
cmp -s "$BENCH_TMP/www/landing.html" "$BENCH_TMP/nginx.landing" || bench_die "nginx does not serve the same landing page"
LANDING_SIZE=$(wc -c <"$BENCH_TMP/nginx.landing")
ANDROID_AGENT="User-Agent: Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"

# --- Measure ---------------------------------------------------------------------------------------------
# run NAME URL [header]: one wrk run; appends "rps p99_ms server_cpu_us_per_request db_cpu_us_per_request" to
# $BENCH_TMP/results.NAME. The server is nginx's workers or the linkd process (all its threads, the hit writer
# included); the database is the bench cluster's PostgreSQL (the hits linkd logs).
run() {
    name=$1; url=$2; shift 2
    [ -z "$ONLY" ] || [ "$ONLY" = "$name" ] || return 0
    case "$name" in nginx*) server_pids=$(pgrep -P "$NGINX_PID" | tr '\n' ' ') ;; *) server_pids=$LINKD_PID ;; esac
    db_pids=$(bench_postgres_pids)
    server_before=$(bench_cpu $server_pids); db_before=$(bench_cpu $db_pids)
    $WRK "$@" "$url" >"$BENCH_TMP/wrk.out" 2>&1 || bench_die "wrk failed: $(cat "$BENCH_TMP/wrk.out")"
    server_after=$(bench_cpu $server_pids); db_after=$(bench_cpu $db_pids)
    if grep -q -e 'Non-2xx' -e 'Socket errors' "$BENCH_TMP/wrk.out"; then
        bench_log "$name: $(grep -e 'Non-2xx' -e 'Socket errors' "$BENCH_TMP/wrk.out")"
        grep -q 'Non-2xx' "$BENCH_TMP/wrk.out" && bench_die "$name answered errors"
    fi
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$BENCH_TMP/wrk.out")
    p99=$(bench_ms "$(awk '$1 == "99%" { print $2 }' "$BENCH_TMP/wrk.out")")
    requests=$(awk '/requests in/ { print $1 }' "$BENCH_TMP/wrk.out")
    tick=$(getconf CLK_TCK)
    server_us=$(awk -v a="$server_before" -v b="$server_after" -v n="$requests" -v t="$tick" 'BEGIN { printf "%.1f", (b - a) / t * 1e6 / n }')
    db_us=$(awk -v a="$db_before" -v b="$db_after" -v n="$requests" -v t="$tick" 'BEGIN { printf "%.1f", (b - a) / t * 1e6 / n }')
    echo "$rps $p99 $server_us $db_us" >>"$BENCH_TMP/results.$name"
    printf '  %-14s %10.0f req/s  p99 %6.2f ms  server CPU %5.1f us/req  PostgreSQL %4.1f us/req\n' "$name" "$rps" "$p99" "$server_us" "$db_us" >&2
}
# drain_hits: waits (up to 30 s) until linkd has written every hit it queued, so that a load's hits are not
# written, by linkd and PostgreSQL, during the next load's measurement (distinct URLs leave a backlog).
drain_hits() {
    [ -z "$ONLY" ] || return 0
    i=0
    while [ $i -lt 300 ]; do
        queued=$(curl -sf "$BASE/metrics" | awk '$1 == "linkd_hits_queued" { print $2 }')
        [ "${queued:-1}" = 0 ] && return 0
        i=$((i + 1)); sleep 0.1
    done
    bench_log "the hit queue did not drain within 30 s"
}
# Requests carry a User-Agent as real ones do (the association fetch log and the hit record classify it): Apple's
# CDN for the association file, an iPhone for resolve.
CDN_AGENT="User-Agent: AASA-Bot/1.0.0"
APP_AGENT="User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
bench_log "warm-up (2 s each)"
wrk -t"$BENCH_THREADS" -c"$CONNECTIONS" -d2s -H "Host: $HOST" -H "$CDN_AGENT" "http://127.0.0.1:$NGINX_PORT$AASA_PATH" >/dev/null
wrk -t"$BENCH_THREADS" -c"$CONNECTIONS" -d2s -H "Host: $HOST" -H "$CDN_AGENT" "$BASE$AASA_PATH" >/dev/null
wrk -t"$BENCH_THREADS" -c"$CONNECTIONS" -d2s -H "Authorization: Bearer $READ" -H "$APP_AGENT" "$BASE$RESOLVE_PATH" >/dev/null
wrk -t"$BENCH_THREADS" -c"$CONNECTIONS" -d2s -H "Host: $HOST" -H "$IPHONE_AGENT" "$BASE$CLICK_PATH" >/dev/null
r=1
while [ $r -le "$ROUNDS" ]; do
    bench_log "round $r/$ROUNDS: $WRK"
    run nginx "http://127.0.0.1:$NGINX_PORT$AASA_PATH" -H "Host: $HOST" -H "$CDN_AGENT"
    run linkd-aasa "$BASE$AASA_PATH" -H "Host: $HOST" -H "$CDN_AGENT"
    run linkd-resolve "$BASE$RESOLVE_PATH" -H "Authorization: Bearer $READ" -H "$APP_AGENT"
    run linkd-cookie "$BASE$RESOLVE_PATH" -H "Cookie: $COOKIE" -H "$APP_AGENT"
    run linkd-distinct "$BASE/" -s "$ROOT/bench/serving/resolve-distinct.lua" -H "Authorization: Bearer $READ" -H "$APP_AGENT"
    drain_hits
    run nginx-landing "http://127.0.0.1:$NGINX_PORT/landing.html" -H "Host: $HOST" -H "$IPHONE_AGENT"
    run linkd-landing "$BASE$CLICK_PATH" -H "Host: $HOST" -H "$IPHONE_AGENT"
    run linkd-android "$BASE$CLICK_PATH" -H "Host: $HOST" -H "$ANDROID_AGENT"
    drain_hits
    r=$((r + 1))
done

# --- Report ----------------------------------------------------------------------------------------------
if [ -n "$ONLY" ]; then
    echo "$ONLY: median $(awk '{ print $1 }' "$BENCH_TMP/results.$ONLY" | bench_median) req/s, p99 $(awk '{ print $2 }' "$BENCH_TMP/results.$ONLY" | bench_median) ms," \
        "server CPU $(awk '{ print $3 }' "$BENCH_TMP/results.$ONLY" | bench_median) us/req"
    exit 0
fi
column() { awk -v c="$2" '{ print $c }' "$BENCH_TMP/results.$1"; }
row() { printf '%-15s' "$1"; column "$2" "$3" | while read -r v; do printf ' %10.0f' "$v"; done; }
N_RPS=$(column nginx 1 | bench_median)
A_RPS=$(column linkd-aasa 1 | bench_median)
R_RPS=$(column linkd-resolve 1 | bench_median)
N_P99=$(column nginx 2 | bench_median)
A_P99=$(column linkd-aasa 2 | bench_median)
R_P99=$(column linkd-resolve 2 | bench_median)
C_RPS=$(column linkd-cookie 1 | bench_median)
C_P99=$(column linkd-cookie 2 | bench_median)
C_RATIO=$(awk -v a="$C_RPS" -v n="$N_RPS" 'BEGIN { printf "%.2f", a / n }')
D_RPS=$(column linkd-distinct 1 | bench_median)
D_P99=$(column linkd-distinct 2 | bench_median)
D_RATIO=$(awk -v a="$D_RPS" -v n="$N_RPS" 'BEGIN { printf "%.2f", a / n }')
NL_RPS=$(column nginx-landing 1 | bench_median); NL_P99=$(column nginx-landing 2 | bench_median)
L_RPS=$(column linkd-landing 1 | bench_median); L_P99=$(column linkd-landing 2 | bench_median)
G_RPS=$(column linkd-android 1 | bench_median); G_P99=$(column linkd-android 2 | bench_median)
L_RATIO=$(awk -v a="$L_RPS" -v n="$NL_RPS" 'BEGIN { printf "%.2f", a / n }')
G_RATIO=$(awk -v a="$G_RPS" -v n="$NL_RPS" 'BEGIN { printf "%.2f", a / n }')
L_P99_RATIO=$(awk -v a="$L_P99" -v n="$NL_P99" 'BEGIN { printf "%.2f", (n > 0) ? a / n : 0 }')
A_RATIO=$(awk -v a="$A_RPS" -v n="$N_RPS" 'BEGIN { printf "%.2f", a / n }')
R_RATIO=$(awk -v a="$R_RPS" -v n="$N_RPS" 'BEGIN { printf "%.2f", a / n }')
verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN { ok = (op == ">=") ? (v >= t) : (v < t); print ok ? "ok" : "MISSED" }'; }
A_OK=$(verdict "$A_RATIO" 1.0 ">="); R_OK=$(verdict "$R_RATIO" 0.7 ">="); P_OK=$(verdict "$R_P99" 5 "<")
L_OK=$(verdict "$L_RATIO" 0.7 ">="); LP_OK=$(awk -v v="$L_P99_RATIO" 'BEGIN { print v <= 2 ? "ok" : "MISSED" }')

echo
echo "serving benchmark: $WRK, $ROUNDS rounds, AASA $SIZE bytes, host $(nproc) cores, linkd access log $LINKD_ACCESS_LOG"
printf '%-15s' "req/s"; r=1; while [ $r -le "$ROUNDS" ]; do printf ' %10s' "round $r"; r=$((r + 1)); done
printf ' %10s %8s %10s\n' median ratio "p99 ms"
row nginx nginx 1;                printf ' %10.0f %8s %10.2f\n' "$N_RPS" "1.00" "$N_P99"
row "linkd AASA" linkd-aasa 1;    printf ' %10.0f %8s %10.2f\n' "$A_RPS" "$A_RATIO" "$A_P99"
row "linkd resolve" linkd-resolve 1; printf ' %10.0f %8s %10.2f\n' "$R_RPS" "$R_RATIO" "$R_P99"
row "  with a cookie" linkd-cookie 1; printf ' %10.0f %8s %10.2f   (no target: a session cookie, not a key)\n' "$C_RPS" "$C_RATIO" "$C_P99"
row "  distinct URLs" linkd-distinct 1; printf ' %10.0f %8s %10.2f   (no target: every answer computed)\n' "$D_RPS" "$D_RATIO" "$D_P99"
echo "clicks: the landing page ($LANDING_SIZE bytes for iPhone Safari), ratios to nginx serving the same bytes"
row "nginx landing" nginx-landing 1; printf ' %10.0f %8s %10.2f\n' "$NL_RPS" "1.00" "$NL_P99"
row "linkd landing" linkd-landing 1; printf ' %10.0f %8s %10.2f\n' "$L_RPS" "$L_RATIO" "$L_P99"
row "  Android+token" linkd-android 1; printf ' %10.0f %8s %10.2f   (no target: a click token per page)\n' "$G_RPS" "$G_RATIO" "$G_P99"
echo
echo
echo "CPU per request (median, microseconds; less moved by other load than req/s):"
printf '%-15s %10s %12s\n' "" server PostgreSQL
for pair in "nginx:nginx" "linkd AASA:linkd-aasa" "linkd resolve:linkd-resolve" "  with a cookie:linkd-cookie" "  distinct URLs:linkd-distinct" \
    "nginx landing:nginx-landing" "linkd landing:linkd-landing" "  Android+token:linkd-android"; do
    printf '%-15s %10.1f %12.1f\n' "${pair%%:*}" "$(column "${pair#*:}" 3 | bench_median)" "$(column "${pair#*:}" 4 | bench_median)"
done
echo
echo "target AASA >= 1.00x nginx:      $A_RATIO  $A_OK"
echo "target resolve >= 0.70x nginx:   $R_RATIO  $R_OK"
echo "target resolve p99 < 5 ms:       $R_P99  $P_OK"
echo "target landing >= 0.70x nginx:   $L_RATIO  $L_OK"
echo "target landing p99 <= 2x nginx:  $L_P99_RATIO  $LP_OK"
[ "$A_OK" = ok ] && [ "$R_OK" = ok ] && [ "$P_OK" = ok ] && [ "$L_OK" = ok ] && [ "$LP_OK" = ok ]
