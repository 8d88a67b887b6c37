#!/bin/sh
# Webhooks (issue 31), each figure against a baseline measured in the same run:
#
# 1. write cost: --links links (20,000) created through `POST /v1/links/bulk` in chunks of --chunk (2,000), half
#    of the chunks in a workspace with a `link.created` subscription that asked for each link of a bulk request
#    (`bulkEvents: each`: each link queues an event in the write's transaction) and half in a workspace without one, alternating which goes first; the ratio of the two rates.
# 2. delivery: the events queued by (1), delivered to nginx answering 204 on loopback (plain http and
#    127.0.0.0/8 allowed), against wrk POSTing the same body to the same nginx on as many connections as
#    deliveries can run at once (one per subscription: a subscription's events go in order, one at a time; and
#    4 workers a node), for --subscriptions 1 and 4 (each subscription of the workspace gets every event).
#
# linkd runs as in bench/serving (release build, `--threads 2`, access log off) on a private PostgreSQL cluster
# (fsync off), seeded with bench/serving/lib.sh `bench_seed`.
#
# Usage: bench/webhooks/run.sh [--links N] [--chunk N] [--seconds S] [--no-build]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/serving/lib.sh"

LINKS=20000; CHUNK=2000; SECONDS_PER_RUN=5; BUILD=1; BENCH_THREADS=2
while [ $# -gt 0 ]; do
    case "$1" in
        --links) LINKS=$2; shift 2 ;;
        --chunk) CHUNK=$2; shift 2 ;;
        --seconds) SECONDS_PER_RUN=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) echo "usage: $0 [--links N] [--chunk N] [--seconds S] [--no-build]" >&2; exit 2 ;;
    esac
done
PORT=0; HOST=links.example.com; PLAIN_HOST=plain.example.com   # linkd's port: the kernel's choice (lib.sh)

bench_require wrk curl psql initdb nginx
bench_linkd_binary "$BUILD"
bench_setup
bench_start_postgres
export LINKD_ACCESS_LOG=off
bench_start_linkd "$PORT" --threads "$BENCH_THREADS" --webhook-allow-http on --webhook-allow-private 127.0.0.0/8
PORT=$BENCH_LINKD_PORT
HOOK_PORT=$(bench_free_port)
BASE="http://127.0.0.1:$PORT"
bench_seed
PSQL="$BENCH_PSQL -d linkd -At"
PLAIN_KEY=$(bench_workspace plain "$PLAIN_HOST")

# The receiver: nginx answering 204 to every POST, as many workers as linkd has threads.
mkdir -p "$BENCH_TMP/hook"
cat >"$BENCH_TMP/hook/nginx.conf" <<CONF
daemon off;
worker_processes $BENCH_THREADS;
pid $BENCH_TMP/hook/nginx.pid;
error_log $BENCH_TMP/hook/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 100000000;
    client_body_temp_path $BENCH_TMP/hook/body;
    proxy_temp_path $BENCH_TMP/hook/proxy;
    fastcgi_temp_path $BENCH_TMP/hook/fastcgi;
    uwsgi_temp_path $BENCH_TMP/hook/uwsgi;
    scgi_temp_path $BENCH_TMP/hook/scgi;
    server { listen 127.0.0.1:$HOOK_PORT; location / { return 204; } }
}
CONF
nginx -c "$BENCH_TMP/hook/nginx.conf" -p "$BENCH_TMP/hook" 2>"$BENCH_TMP/hook/stderr" &
bench_track $!
i=0
until [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$HOOK_PORT/")" = 204 ]; do
    i=$((i + 1)); [ $i -gt 200 ] && bench_die "nginx did not start: $(cat "$BENCH_TMP/hook/stderr")"; sleep 0.05
done

subscribe() {   # subscribe KEY: a link.created subscription to the receiver, told of each link of a bulk request
    curl -sf -o /dev/null -X POST "$BASE/v1/webhooks" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
        -d "{\"url\":\"http://127.0.0.1:$HOOK_PORT/hook\",\"events\":[\"link.created\"],\"bulkEvents\":\"each\"}" || bench_die "cannot subscribe"
}
pause_all() { $PSQL -c "UPDATE webhooks SET paused = $1" >/dev/null; }
undelivered() { $PSQL -c "SELECT count(*) FROM webhook_outbox WHERE delivered_at IS NULL"; }
now() { date +%s.%N; }
elapsed() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.3f", e - s }'; }

# bulk KEY DOMAIN FIRST COUNT: links FIRST.. as one NDJSON bulk request; prints the seconds it took.
bulk() {
    awk -v d="$2" -v f="$3" -v n="$4" 'BEGIN { for (i = f; i < f + n; i++) printf "{\"domain\":\"%s\",\"slug\":\"w%d\",\"url\":\"https://www.example.com/%d\"}\n", d, i, i }' \
        >"$BENCH_TMP/bulk.ndjson"
    start=$(now)
    status=$(curl -s -o "$BENCH_TMP/bulk.out" -w '%{http_code}' -X POST "$BASE/v1/links/bulk" -H "Authorization: Bearer $1" \
        -H 'Content-Type: application/x-ndjson' --data-binary "@$BENCH_TMP/bulk.ndjson")
    end=$(now)
    [ "$status" = 200 ] || [ "$status" = 201 ] || [ "$status" = 207 ] || bench_die "bulk: $status $(head -c 300 "$BENCH_TMP/bulk.out")"
    elapsed "$start" "$end"
}

# --- 1. Write cost ---------------------------------------------------------------------------------------------
subscribe "$ADMIN"
pause_all true   # queue only: delivery is measured on its own below
WITH=0; WITHOUT=0; first=0; round=0
while [ "$first" -lt "$LINKS" ]; do
    if [ $((round % 2)) = 0 ]; then
        a=$(bulk "$ADMIN" "$HOST" "$first" "$CHUNK"); b=$(bulk "$PLAIN_KEY" "$PLAIN_HOST" "$first" "$CHUNK")
    else
        b=$(bulk "$PLAIN_KEY" "$PLAIN_HOST" "$first" "$CHUNK"); a=$(bulk "$ADMIN" "$HOST" "$first" "$CHUNK")
    fi
    WITH=$(awk -v x="$WITH" -v y="$a" 'BEGIN { print x + y }'); WITHOUT=$(awk -v x="$WITHOUT" -v y="$b" 'BEGIN { print x + y }')
    first=$((first + CHUNK)); round=$((round + 1))
done
QUEUED=$(undelivered)
[ "$QUEUED" = "$LINKS" ] || bench_die "expected $LINKS events queued, found $QUEUED"
bench_log "write: $LINKS links with a subscription in ${WITH}s, without in ${WITHOUT}s"
printf 'write cost   links/s with a link.created subscription %8.0f   without %8.0f   ratio %.2fx\n' \
    "$(awk -v n="$LINKS" -v t="$WITH" 'BEGIN { print n / t }')" "$(awk -v n="$LINKS" -v t="$WITHOUT" 'BEGIN { print n / t }')" \
    "$(awk -v a="$WITH" -v b="$WITHOUT" 'BEGIN { print b / a }')"

# --- 2. Delivery ----------------------------------------------------------------------------------------------
BODY=$($PSQL -c "SELECT payload::text FROM webhook_outbox LIMIT 1")
cat >"$BENCH_TMP/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["webhook-id"] = "evt_0123456789abcdef0123456789abcdef"
wrk.headers["webhook-timestamp"] = "1764700000"
wrk.headers["webhook-signature"] = "v1,ngUr1sImKc7eqIxR4RMjWrpMLRVU5m+D7ZFE/xpzBsU="
wrk.body = [[$BODY]]
LUA
deliver() {   # deliver SUBSCRIPTIONS: events/s until the outbox is empty
    n=$(undelivered)
    start=$(now)
    pause_all false
    curl -s -o /dev/null -X POST "$BASE/v1/webhooks/$($PSQL -c "SELECT id FROM webhooks LIMIT 1")/resume" -H "Authorization: Bearer $ADMIN"
    while [ "$(undelivered)" != 0 ]; do sleep 0.1; done
    end=$(now)
    awk -v n="$n" -v t="$(elapsed "$start" "$end")" 'BEGIN { printf "%.0f", n / t }'
}
baseline() {   # baseline CONNECTIONS: wrk's POSTs/s of the same body to the same receiver
    wrk -t1 -c"$1" -d"${SECONDS_PER_RUN}s" -s "$BENCH_TMP/post.lua" "http://127.0.0.1:$HOOK_PORT/hook" | awk '/^Requests\/sec/ { printf "%.0f", $2 }'
}
ONE=$(deliver 1)
WRK_ONE=$(baseline 1)
printf 'delivery     1 subscription    events/s %8s   wrk POST 1 connection  %8s   ratio %.2fx\n' "$ONE" "$WRK_ONE" \
    "$(awk -v a="$ONE" -v b="$WRK_ONE" 'BEGIN { print a / b }')"
# Three more subscriptions; the same events queued again for all four.
for _ in 1 2 3; do subscribe "$ADMIN"; done
pause_all true
$PSQL -c "INSERT INTO webhook_outbox (webhook_id, event_id, event_type, payload)
          SELECT w.id, o.event_id || '-4', o.event_type, o.payload FROM webhooks w CROSS JOIN (SELECT DISTINCT ON (event_id) event_id, event_type, payload FROM webhook_outbox ORDER BY event_id) o" >/dev/null
# A build that keeps each subscription's due time (migrations/0027) learns of rows queued behind its back here.
$PSQL -c "DO \$\$ BEGIN
            IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'webhooks' AND column_name = 'due_at') THEN
                EXECUTE 'UPDATE webhooks SET due_at = now() WHERE due_at IS NULL';
            END IF;
          END \$\$" >/dev/null
FOUR=$(deliver 4)
WRK_FOUR=$(baseline 4)
printf 'delivery     4 subscriptions   events/s %8s   wrk POST 4 connections %8s   ratio %.2fx\n' "$FOUR" "$WRK_FOUR" \
    "$(awk -v a="$FOUR" -v b="$WRK_FOUR" 'BEGIN { print a / b }')"
