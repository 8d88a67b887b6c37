#!/bin/sh
# What the front costs (issue 22): AASA fetches and clicks per second straight to linkd (plain HTTP) against
# the same requests through Caddy running deploy/Caddyfile (HTTPS with its internal CA, on-demand
# certificate, reverse_proxy to linkd with the forwarded headers), in one run, alternating, median of the
# rounds; the AASA also through Caddy's plain-HTTP `/.well-known/*` route, which tells the proxy hop from
# TLS. wrk keeps its connections open, so TLS handshakes are not what is measured: the proxy hop and
# TLS record encryption are. Caddy, linkd and wrk share the machine's cores.
#
# wrk takes the TLS server name from the URL, so the Caddy loads run in a private mount namespace whose
# /etc/hosts maps the link domain to 127.0.0.1 (`unshare -m`, root): the machine's own /etc/hosts is untouched.
#
# Usage: bench/serving/through-caddy.sh [--rounds N] [--seconds S] [--connections C] [--no-build]
#   defaults: 3 rounds, 10 s, 64 connections, 2 wrk threads, linkd --threads 2, access log off.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/serving/lib.sh"

ROUNDS=3; SECONDS_PER_RUN=10; CONNECTIONS=64; BENCH_THREADS=2; BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS=$2; shift 2 ;;
        --seconds) SECONDS_PER_RUN=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) echo "usage: $0 [--rounds N] [--seconds S] [--connections C] [--no-build]" >&2; exit 2 ;;
    esac
done
LINKD_PORT=0; HOST=links.example.com   # linkd's port: the kernel's choice (lib.sh)
WRK="wrk -t$BENCH_THREADS -c$CONNECTIONS -d${SECONDS_PER_RUN}s --latency --timeout 2s"

bench_require wrk curl psql initdb
command -v caddy >/dev/null 2>&1 || bench_die "caddy is missing (scripts/install-deps installs it)"
bench_linkd_binary "$BUILD"

bench_setup
bench_start_postgres
export LINKD_ACCESS_LOG=off
bench_start_linkd "$LINKD_PORT" --threads "$BENCH_THREADS" --trusted-proxies 127.0.0.1
LINKD_PORT=$BENCH_LINKD_PORT
CADDY_HTTP=$(bench_free_port); CADDY_HTTPS=$(bench_free_port)
BASE="http://127.0.0.1:$LINKD_PORT"
bench_seed

mkdir -p "$BENCH_TMP/caddy"
env -i HOME="$BENCH_TMP/caddy" XDG_CONFIG_HOME="$BENCH_TMP/caddy/config" XDG_DATA_HOME="$BENCH_TMP/caddy/data" \
    CADDY_ADMIN=off CADDY_BIND=127.0.0.1 CADDY_HTTP_PORT=$CADDY_HTTP CADDY_HTTPS_PORT=$CADDY_HTTPS \
    CADDY_STORAGE="$BENCH_TMP/caddy/storage" CADDY_ISSUER=internal \
    LINKD_ASK=127.0.0.1:$LINKD_PORT LINKD_UPSTREAMS=127.0.0.1:$LINKD_PORT \
    caddy run --config "$ROOT/deploy/Caddyfile" --adapter caddyfile >"$BENCH_TMP/caddy/log" 2>&1 &
CADDY_PID=$!
bench_track "$CADDY_PID"
ROOT_CA="$BENCH_TMP/caddy/storage/pki/authorities/local/root.crt"
i=0
until [ -f "$ROOT_CA" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' --resolve "$HOST:$CADDY_HTTPS:127.0.0.1" --cacert "$ROOT_CA" \
        "https://$HOST:$CADDY_HTTPS$AASA_PATH")" = 200 ]; do
    kill -0 "$CADDY_PID" 2>/dev/null || bench_die "caddy exited: $(tail -n 5 "$BENCH_TMP/caddy/log")"
    i=$((i + 1)); [ $i -gt 200 ] && bench_die "caddy does not serve the AASA: $(tail -n 5 "$BENCH_TMP/caddy/log")"
    sleep 0.05
done
printf '127.0.0.1 localhost\n127.0.0.1 %s\n' "$HOST" >"$BENCH_TMP/hosts"
CLICK_PATH="/widget/42?tab=reviews"

# run NAME URL [wrk args]: one wrk run (through Caddy when NAME starts with caddy-); appends req/s and p99 (ms).
run() {
    name=$1; url=$2; shift 2
    case "$name" in
        caddy-*) unshare -m sh -c "mount --bind '$BENCH_TMP/hosts' /etc/hosts && exec $WRK $* '$url'" >"$BENCH_TMP/wrk.out" 2>&1 \
                     || bench_die "wrk failed: $(cat "$BENCH_TMP/wrk.out")" ;;
        *) $WRK "$@" "$url" >"$BENCH_TMP/wrk.out" 2>&1 || bench_die "wrk failed: $(cat "$BENCH_TMP/wrk.out")" ;;
    esac
    grep -q -e 'Non-2xx' "$BENCH_TMP/wrk.out" && bench_die "$name answered errors: $(grep Non-2xx "$BENCH_TMP/wrk.out")"
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$BENCH_TMP/wrk.out")
    p99=$(bench_ms "$(awk '$1 == "99%" { print $2 }' "$BENCH_TMP/wrk.out")")
    echo "$rps $p99" >>"$BENCH_TMP/results.$name"
    bench_log "  $name: $rps req/s, p99 $p99 ms"
}

round=1
while [ $round -le "$ROUNDS" ]; do
    bench_log "round $round"
    run direct-aasa "http://127.0.0.1:$LINKD_PORT$AASA_PATH" -H "Host: $HOST"
    run caddy-aasa "https://$HOST:$CADDY_HTTPS$AASA_PATH"
    run caddy-http-aasa "http://$HOST:$CADDY_HTTP$AASA_PATH"
    run direct-click "http://127.0.0.1:$LINKD_PORT$CLICK_PATH" -H "Host: $HOST"
    run caddy-click "https://$HOST:$CADDY_HTTPS$CLICK_PATH"
    round=$((round + 1))
done

median() { cut -d' ' -f"$2" "$BENCH_TMP/results.$1" | bench_median; }
printf '%-6s %14s %14s %7s %12s %12s\n' load "direct req/s" "caddy req/s" ratio "direct p99" "caddy p99"
for load in aasa click http-aasa; do
    [ -f "$BENCH_TMP/results.direct-$load" ] || cp "$BENCH_TMP/results.direct-aasa" "$BENCH_TMP/results.direct-$load"
    direct=$(median "direct-$load" 1); caddy=$(median "caddy-$load" 1)
    printf '%-6s %14.0f %14.0f %7.2f %10.2fms %10.2fms\n' "$load" "$direct" "$caddy" \
        "$(awk -v a="$caddy" -v b="$direct" 'BEGIN { print a / b }')" "$(median "direct-$load" 2)" "$(median "caddy-$load" 2)"
done
