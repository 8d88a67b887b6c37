#!/bin/sh
# Webhook fairness (issue 45): how long another workspace's next event waits while a noisy workspace
#
# 1. slow: has --slow-subscriptions (20) subscriptions whose receiver never answers (a socket that accepts and
#    says nothing: every attempt runs into --webhook-timeout, 10 s), each with an event to send;
# 2. backlog: has --backlog (1,000,000) deliveries queued for --noisy-subscriptions (10) subscriptions, to nginx
#    answering 204 on loopback (queued with SQL, as a 100,000-link bulk request told link by link would).
#
# In each, the quiet workspace creates --events (30) links, one every 0.5 s, through `POST /v1/links`, each a
# `link.created` for its one subscription; an event's latency is from its row's `created_at` (the write's
# transaction) to nginx's log line for its `webhook-id` (`$msec`). An event not delivered within --wait (60) s
# counts as later than that: the percentiles it reaches are printed as `>60`. The median time of the quiet
# workspace's `POST /v1/links` is printed beside: the part of the latency that is its own write. The run is bounded: about
# 3 minutes plus queueing the backlog.
#
# --root DIR runs the linkd of another worktree (DIR/.build/release/linkd and DIR/migrations): the build before a
# change, against the same bench. linkd runs as in bench/serving (release build, `--threads 2`, access log off) on
# a private PostgreSQL cluster (fsync off); every port is a free one on 127.0.0.1.
#
# Usage: bench/webhooks/fairness.sh [--root DIR] [--backlog N] [--events N] [--wait S] [--no-build]
set -eu
BENCH_HOME=$(cd "$(dirname "$0")/../.." && pwd)
. "$BENCH_HOME/bench/serving/lib.sh"

ROOT=$BENCH_HOME; BACKLOG=1000000; NOISY_SUBS=10; SLOW_SUBS=20; EVENTS=30; WAIT=60; BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=$(cd "$2" && pwd); shift 2 ;;
        --backlog) BACKLOG=$2; shift 2 ;;
        --noisy-subscriptions) NOISY_SUBS=$2; shift 2 ;;
        --slow-subscriptions) SLOW_SUBS=$2; shift 2 ;;
        --events) EVENTS=$2; shift 2 ;;
        --wait) WAIT=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) echo "usage: $0 [--root DIR] [--backlog N] [--noisy-subscriptions N] [--slow-subscriptions N] [--events N] [--wait S] [--no-build]" >&2
           exit 2 ;;
    esac
done
PORT=0   # linkd's port: the kernel's choice (lib.sh)
HOST=links.example.com; QUIET_HOST=quiet.example.com

bench_require curl psql initdb nginx
bench_linkd_binary "$BUILD"
bench_setup
bench_start_postgres
export LINKD_ACCESS_LOG=off
bench_start_linkd "$PORT" --threads 2 --webhook-allow-http on --webhook-allow-private 127.0.0.0/8
PORT=$BENCH_LINKD_PORT; HOOK_PORT=$(bench_free_port); SLOW_PORT=$(bench_free_port)
BASE="http://127.0.0.1:$PORT"
bench_seed
PSQL="$BENCH_PSQL -d linkd -At"
bench_log "linkd $("$LINKD" --version 2>/dev/null || echo "from $ROOT") on port $PORT"
QUIET_KEY=$(bench_workspace quiet "$QUIET_HOST")

# The receivers: nginx answering 204 (the quiet workspace's arrivals logged with the time and the event id), and a
# socket that accepts connections and never answers.
mkdir -p "$BENCH_TMP/hook"
cat >"$BENCH_TMP/hook/nginx.conf" <<CONF
daemon off;
worker_processes 2;
pid $BENCH_TMP/hook/nginx.pid;
error_log $BENCH_TMP/hook/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    log_format arrivals '\$msec \$http_webhook_id';
    keepalive_requests 100000000;
    client_body_temp_path $BENCH_TMP/hook/body;
    proxy_temp_path $BENCH_TMP/hook/proxy;
    fastcgi_temp_path $BENCH_TMP/hook/fastcgi;
    uwsgi_temp_path $BENCH_TMP/hook/uwsgi;
    scgi_temp_path $BENCH_TMP/hook/scgi;
    server {
        listen 127.0.0.1:$HOOK_PORT;
        location /noisy { return 204; }
        location /quiet { access_log $BENCH_TMP/hook/quiet.log arrivals; return 204; }
    }
}
CONF
nginx -c "$BENCH_TMP/hook/nginx.conf" -p "$BENCH_TMP/hook" 2>"$BENCH_TMP/hook/stderr" &
bench_track $!
python3 -c "
import socket, time
s = socket.socket(); s.bind(('127.0.0.1', $SLOW_PORT)); s.listen(4096)
held = []
while True:
    connection, _ = s.accept(); held.append(connection)
" &
SLOW_PID=$!
bench_track "$SLOW_PID"
i=0
until [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$HOOK_PORT/noisy")" = 204 ]; do
    i=$((i + 1)); [ $i -gt 200 ] && bench_die "nginx did not start: $(cat "$BENCH_TMP/hook/stderr")"; sleep 0.05
done

subscribe() {   # subscribe KEY URL: a link.created subscription; prints its id
    out=$(curl -s -w '\n%{http_code}' -X POST "$BASE/v1/webhooks" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
        -d "{\"url\":\"$2\",\"events\":[\"link.created\"]}")
    [ "$(printf '%s' "$out" | tail -n 1)" = 201 ] || bench_die "cannot subscribe: $(printf '%s' "$out" | head -n 1)"
    printf '%s' "$out" | head -n 1 | sed -n 's/^{"id":"\([0-9a-f-]*\)".*/\1/p'
}
link() {   # link KEY DOMAIN SLUG
    curl -sf -o /dev/null -X POST "$BASE/v1/links" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
        -d "{\"domain\":\"$2\",\"slug\":\"$3\",\"url\":\"https://www.example.com/$3\"}" || bench_die "cannot create the link $3"
}
now() { date +%s.%N; }
delivered() { $PSQL -c "SELECT count(*) FROM webhook_outbox WHERE delivered_at IS NOT NULL"; }
QUIET_SUB=$(subscribe "$QUIET_KEY" "http://127.0.0.1:$HOOK_PORT/quiet")

# quiet LABEL: the quiet workspace's events, one every 0.5 s; prints delivered/events, p50, p99 and the largest
# latency in seconds.
quiet() {
    : >"$BENCH_TMP/hook/quiet.log"
    n=1
    : >"$BENCH_TMP/writes"
    while [ "$n" -le "$EVENTS" ]; do
        t0=$(now); link "$QUIET_KEY" "$QUIET_HOST" "$1$n"; awk -v s="$t0" -v e="$(now)" 'BEGIN { print e - s }' >>"$BENCH_TMP/writes"
        sleep 0.5; n=$((n + 1))
    done
    WRITE_P50=$(sort -n "$BENCH_TMP/writes" | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }')
    deadline=$(awk -v t="$(now)" -v w="$WAIT" 'BEGIN { printf "%d", t + w }')
    while [ "$(wc -l <"$BENCH_TMP/hook/quiet.log")" -lt "$EVENTS" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.5; done
    $PSQL -F ' ' -c "SELECT event_id, extract(epoch FROM created_at) FROM webhook_outbox
                     WHERE webhook_id = '$QUIET_SUB' AND payload->'data'->>'slug' LIKE '$1%'" >"$BENCH_TMP/queued"
    awk -v events="$EVENTS" -v wait="$WAIT" '
        NR == FNR { queued[$1] = $2; next }
        ($2 in queued) && !($2 in seen) { seen[$2] = 1; late[++n] = $1 - queued[$2] }
        END {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (late[j] < late[i]) { t = late[i]; late[i] = late[j]; late[j] = t }
            p50 = int((events * 50 + 99) / 100); p99 = int((events * 99 + 99) / 100)
            printf "%d/%d %s %s %s\n", n, events,
                (p50 <= n ? sprintf("%.3f", late[p50]) : ">" wait), (p99 <= n ? sprintf("%.3f", late[p99]) : ">" wait),
                (n == events ? sprintf("%.3f", late[n]) : ">" wait)
        }' "$BENCH_TMP/queued" "$BENCH_TMP/hook/quiet.log"
}
report() {   # report SCENARIO RESULT NOISY-RATE WRITE-P50
    set -- "$1" $2 "$3" "$4"
    printf '%-8s quiet workspace: delivered %-7s p50 %8s s   p99 %8s s   max %8s s   (its POST /v1/links p50 %s s)   noisy deliveries/s %s\n' \
        "$1" "$2" "$3" "$4" "$5" "$7" "$6"
}

# --- 1. Slow receivers ---------------------------------------------------------------------------------------
SLOW_IDS=""
i=0
while [ $i -lt "$SLOW_SUBS" ]; do SLOW_IDS="$SLOW_IDS $(subscribe "$ADMIN" "http://127.0.0.1:$SLOW_PORT/slow")"; i=$((i + 1)); done
link "$ADMIN" "$HOST" slow-1
sleep 1
before=$(delivered); start=$(now)
quiet s >"$BENCH_TMP/result"; RESULT=$(cat "$BENCH_TMP/result")
rate=$(awk -v a="$before" -v b="$(delivered)" -v s="$start" -v e="$(now)" 'BEGIN { printf "%.0f", (b - a) / (e - s) }')
report slow "$RESULT" "0 (none answers)" "$WRITE_P50"
for id in $SLOW_IDS; do curl -s -o /dev/null -X DELETE "$BASE/v1/webhooks/$id" -H "Authorization: Bearer $ADMIN"; done
bench_stop_pid "$SLOW_PID"   # the attempts in flight fail at once

# --- 2. A backlog ---------------------------------------------------------------------------------------------
i=0
while [ $i -lt "$NOISY_SUBS" ]; do subscribe "$ADMIN" "http://127.0.0.1:$HOOK_PORT/noisy" >/dev/null; i=$((i + 1)); done
PER_SUB=$((BACKLOG / NOISY_SUBS))
bench_log "queueing $BACKLOG deliveries ($PER_SUB events x $NOISY_SUBS subscriptions)"
$PSQL -c "UPDATE webhooks SET paused = true WHERE url LIKE '%/noisy'" >/dev/null
$PSQL -c "INSERT INTO webhook_outbox (webhook_id, event_id, event_type, payload)
          SELECT w.id, 'evt_backlog_' || i, 'link.created',
                 json_build_object('type', 'link.created', 'timestamp', now(), 'data', json_build_object('n', i))
          FROM webhooks w CROSS JOIN generate_series(1, $PER_SUB) i WHERE w.url LIKE '%/noisy' ORDER BY i, w.id" >/dev/null
# A build that keeps each subscription's due time (migrations/0027) learns of rows queued behind its back here.
$PSQL -c "DO \$\$ BEGIN
            IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'webhooks' AND column_name = 'due_at') THEN
                EXECUTE 'UPDATE webhooks SET due_at = now() WHERE due_at IS NULL AND url LIKE ''%/noisy''';
            END IF;
          END \$\$" >/dev/null
$PSQL -c "ANALYZE webhook_outbox" >/dev/null
$PSQL -c "UPDATE webhooks SET paused = false WHERE url LIKE '%/noisy'" >/dev/null
i=0
until [ "$(delivered)" -gt 100 ]; do i=$((i + 1)); [ $i -gt 600 ] && bench_die "the backlog is not being delivered"; sleep 0.1; done
before=$(delivered); start=$(now)
quiet b >"$BENCH_TMP/result"; RESULT=$(cat "$BENCH_TMP/result")
rate=$(awk -v a="$before" -v b="$(delivered)" -v s="$start" -v e="$(now)" 'BEGIN { printf "%.0f", (b - a) / (e - s) }')
report backlog "$RESULT" "$rate" "$WRITE_P50"
bench_log "left undelivered: $($PSQL -c "SELECT count(*) FROM webhook_outbox WHERE delivered_at IS NULL")"
