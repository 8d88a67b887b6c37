# Shared by bench/serving/*.sh (sourced, not run). POSIX sh.
#
# Everything a benchmark starts is recorded here and stopped by `bench_cleanup` (installed as the EXIT trap):
# linkd by its PID (SIGTERM, then SIGKILL), nginx by its master PID, the private PostgreSQL cluster with
# `pg_ctl stop`, then the temporary directory is removed.
#
# Ports: no fixed port. linkd listens on port 0 and the port it bound is read from its log (`bench_start_linkd`);
# servers that must be told a port (nginx, caddy, a webhook receiver) get one the kernel finds free
# (`bench_free_port`) and a bench stops at once with their own message when it is taken after all. A linkd the
# bench started that exits during the run stops the bench, with the last lines of its log (`bench_watch`).

BENCH_TMP=""
BENCH_PIDS=""
BENCH_PGDATA=""
BENCH_WRAPPER=${BENCH_WRAPPER:-}
# "watcher:watched" process id pairs (`bench_watch`).
BENCH_WATCHES=""

bench_log() { printf '%s\n' "$*" >&2; }
bench_die() { bench_log "error: $*"; exit 2; }

# A TCP port free on 127.0.0.1 at this moment (the kernel's choice), for a server that must be told its port.
bench_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' \
        || bench_die "cannot find a free port"
}

# Watches process $1 (named $2, logging to $3): if it exits before the bench stops it (`bench_stop_pid`), says so
# with its log's last lines and stops the bench (its current command included) with status 2.
bench_watch() {
    (
        while kill -0 "$1" 2>/dev/null; do sleep 0.2; done
        : >"$BENCH_TMP/died"
        bench_log "error: $2 (pid $1) exited during the run: $(tail -n 5 "$3" 2>/dev/null)"
        kill -TERM $$ 2>/dev/null
        pkill -TERM -P $$ 2>/dev/null   # the bench's current command, so that the bench stops now
    ) &
    BENCH_WATCHES="$BENCH_WATCHES $!:$1"
}

# Stops watching process $1 ("all": every one), before the bench stops it on purpose.
bench_unwatch() {
    kept=""
    for pair in $BENCH_WATCHES; do
        if [ "$1" = all ] || [ "${pair#*:}" = "$1" ]; then
            kill "${pair%%:*}" 2>/dev/null || true
            wait "${pair%%:*}" 2>/dev/null || true
        else
            kept="$kept $pair"
        fi
    done
    BENCH_WATCHES=$kept
}

# SIGINT or SIGTERM: 2 when a watched process died (`bench_watch` said so), else 130.
bench_signalled() {
    [ -n "$BENCH_TMP" ] && [ -f "$BENCH_TMP/died" ] && exit 2
    exit 130
}

# Installs what the benchmark needs and this image may lack (Debian packages; bench-only, so not in
# scripts/install-deps).
bench_require() {
    missing=""
    for tool in "$@"; do
        case "$tool" in
            wrk) command -v wrk >/dev/null 2>&1 || missing="$missing wrk" ;;
            nginx) command -v nginx >/dev/null 2>&1 || missing="$missing nginx-light" ;;
            curl) command -v curl >/dev/null 2>&1 || missing="$missing curl" ;;
            psql) command -v psql >/dev/null 2>&1 || missing="$missing postgresql-client" ;;
            initdb) ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql" ;;
            valgrind) command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind" ;;
            objcopy) command -v objcopy >/dev/null 2>&1 || missing="$missing binutils" ;;
        esac
    done
    if [ -n "$missing" ]; then
        bench_log "installing:$missing"
        apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2 \
            || bench_die "cannot install$missing"
    fi
}

bench_setup() {
    BENCH_TMP=$(mktemp -d /tmp/linkd-bench.XXXXXX)
    chmod 755 "$BENCH_TMP"
    trap bench_cleanup EXIT
    trap bench_signalled INT TERM
}

bench_track() { BENCH_PIDS="$BENCH_PIDS $1"; }

# Stops one tracked process: SIGTERM, up to 15 s, then SIGKILL.
bench_stop_pid() {
    pid=$1
    bench_unwatch "$pid"
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || true
}

bench_cleanup() {
    bench_unwatch all
    for pid in $BENCH_PIDS; do bench_stop_pid "$pid"; done
    BENCH_PIDS=""
    if [ -n "$BENCH_PGDATA" ] && [ -f "$BENCH_PGDATA/postmaster.pid" ]; then
        # A kept cluster (BENCH_PG_DIR) is stopped cleanly, so that its next start replays nothing.
        mode=immediate; [ -n "${BENCH_PG_DIR:-}" ] && mode=fast
        runuser -u postgres -- "$PG_BIN/pg_ctl" stop -D "$BENCH_PGDATA" -m $mode -w >/dev/null 2>&1 || true
    fi
    [ -n "$BENCH_TMP" ] && rm -rf "$BENCH_TMP"
    BENCH_TMP=""
}

# A private PostgreSQL cluster on a unix socket under $BENCH_TMP/pg (no TCP), fsync off (benchmark data).
# BENCH_PG_DIR names another directory to keep it in: a cluster already there is started again as it was (its
# `linkd` database and all; BENCH_PG_REUSED=1 then), and it is stopped, not removed, on exit.
# Sets BENCH_DATABASE_URL (libpq keyword form) and BENCH_PSQL (a psql command line for the linkd database).
bench_start_postgres() {
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    [ -x "$PG_BIN/initdb" ] || bench_die "PostgreSQL server binaries not found"
    pg=${BENCH_PG_DIR:-$BENCH_TMP/pg}
    mkdir -p "$pg"
    chown postgres:postgres "$pg"
    BENCH_PGDATA="$pg/data"
    BENCH_PG_REUSED=0
    if [ -f "$BENCH_PGDATA/PG_VERSION" ]; then
        BENCH_PG_REUSED=1
    else
        runuser -u postgres -- "$PG_BIN/initdb" -D "$BENCH_PGDATA" -U postgres --auth=trust -E UTF8 --no-locale --no-sync >/dev/null \
            || bench_die "initdb failed"
    fi
    runuser -u postgres -- "$PG_BIN/pg_ctl" start -w -t 60 -D "$BENCH_PGDATA" -l "$pg/log" \
        -o "-p 5499 -k $pg -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null \
        || bench_die "PostgreSQL did not start: $(tail -n 5 "$pg/log")"
    BENCH_PSQL="psql -X -q -v ON_ERROR_STOP=1 -h $pg -p 5499 -U postgres"
    [ "$BENCH_PG_REUSED" = 1 ] || $BENCH_PSQL -d postgres -c "CREATE DATABASE linkd" >/dev/null
    BENCH_DATABASE_URL="host=$pg port=5499 user=postgres dbname=linkd"
}

# Sets LINKD to the release build to measure, building it first when $1 is 1; BENCH_LINKD names another
# build to compare.
bench_linkd_binary() {
    if [ "$1" = 1 ]; then
        (cd "$ROOT" && swift build -c release --product linkd >&2) || bench_die "release build failed"
    fi
    LINKD=${BENCH_LINKD:-$ROOT/.build/release/linkd}
    [ -x "$LINKD" ] || bench_die "no release build at $LINKD"
}

# Starts `linkd serve` on 127.0.0.1:$1 with extra arguments; stderr (the JSON log) to $BENCH_TMP/NAME.log, NAME
# being `linkd` unless `--name NAME` comes first (a second node: its own log, out file and spool). $1 is 0 for a port
# the kernel finds free (what every bench passes first), or the port a previous start found (a restart).
# Sets LINKD_PID and BENCH_LINKD_PORT (the port it listens on). Stops the bench with linkd's own words when it
# exits while starting (a port taken: "Address already in use"), and waits (up to $BENCH_READY_TIMEOUT s,
# default 60) for /readyz 200; then watches it for the rest of the run (`bench_watch`).
# BENCH_WRAPPER (e.g. "perf record -g -o /tmp/load.data --") prefixes the command, for profiling.
bench_start_linkd() {
    name=linkd; spool=spool
    if [ "$1" = --name ]; then name=$2; spool=spool-$2; shift 2; fi
    port=$1; shift
    # The hit spool in the bench's own directory: the default (./.linkd/spool) is locked by any other linkd run
    # from the same directory.
    $BENCH_WRAPPER "$LINKD" serve --listen "127.0.0.1:$port" --database-url "$BENCH_DATABASE_URL" --migrations "$ROOT/migrations" \
        --spool-dir "$BENCH_TMP/$spool" "$@" \
        >"$BENCH_TMP/$name.out" 2>"$BENCH_TMP/$name.log" &
    LINKD_PID=$!
    bench_track "$LINKD_PID"
    i=0
    limit=$(( ${BENCH_READY_TIMEOUT:-60} * 20 ))
    # The port it bound: its "listening" log line says (with port 0, the only way to know).
    until BENCH_LINKD_PORT=$(sed -n 's/.*"message":"listening".*"http.port":"\([0-9]*\)".*/\1/p' "$BENCH_TMP/$name.log" | head -n 1) \
            && [ -n "$BENCH_LINKD_PORT" ]; do
        kill -0 "$LINKD_PID" 2>/dev/null || bench_die "$name exited: $(tail -n 5 "$BENCH_TMP/$name.log")"
        i=$((i + 1)); [ $i -gt "$limit" ] && bench_die "$name not listening: $(tail -n 5 "$BENCH_TMP/$name.log")"
        sleep 0.05
    done
    until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$BENCH_LINKD_PORT/readyz")" = 200 ]; do
        kill -0 "$LINKD_PID" 2>/dev/null || bench_die "$name exited: $(tail -n 5 "$BENCH_TMP/$name.log")"
        i=$((i + 1)); [ $i -gt "$limit" ] && bench_die "$name not ready: $(tail -n 5 "$BENCH_TMP/$name.log")"
        sleep 0.05
    done
    bench_watch "$LINKD_PID" "$name" "$BENCH_TMP/$name.log"
}

# nginx serving directory $2 on 127.0.0.1:$1, configured for a fair comparison: as many workers as cores
# (linkd runs that many threads), keep-alive connections kept open (keepalive_requests raised from 1000,
# which would otherwise close connections linkd keeps), no access log. Sets NGINX_PID.
bench_start_nginx() {
    port=$1; root=$2
    mkdir -p "$BENCH_TMP/nginx"
    cat >"$BENCH_TMP/nginx/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes ${BENCH_THREADS:-2};
pid $BENCH_TMP/nginx/nginx.pid;
error_log $BENCH_TMP/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 100000000;
    keepalive_timeout 60s;
    sendfile on;
    tcp_nopush on;
    client_body_temp_path $BENCH_TMP/nginx/body;
    proxy_temp_path $BENCH_TMP/nginx/proxy;
    fastcgi_temp_path $BENCH_TMP/nginx/fastcgi;
    uwsgi_temp_path $BENCH_TMP/nginx/uwsgi;
    scgi_temp_path $BENCH_TMP/nginx/scgi;
    server {
        listen 127.0.0.1:$port;
        root $root;
        default_type application/json;
        etag on;
        add_header Cache-Control "public, max-age=3600";
    }
}
EOF
    nginx -c "$BENCH_TMP/nginx/nginx.conf" -p "$BENCH_TMP/nginx" 2>"$BENCH_TMP/nginx/stderr" &
    NGINX_PID=$!
    bench_track "$NGINX_PID"
    i=0
    until curl -s -o /dev/null "http://127.0.0.1:$port/"; do
        kill -0 "$NGINX_PID" 2>/dev/null || bench_die "nginx exited: $(cat "$BENCH_TMP/nginx/stderr")"
        i=$((i + 1)); [ $i -gt 200 ] && bench_die "nginx did not start"
        sleep 0.05
    done
}

# Median of the numbers on standard input, one a line.
bench_median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# `wrk` latency (e.g. `1.23ms`, `850.00us`, `1.2s`) in milliseconds.
bench_ms() {
    awk -v t="$1" 'BEGIN {
        if (t ~ /us$/) { sub(/us$/, "", t); print t / 1000 }
        else if (t ~ /ms$/) { sub(/ms$/, "", t); print t + 0 }
        else if (t ~ /m$/) { sub(/m$/, "", t); print t * 60000 }
        else if (t ~ /s$/) { sub(/s$/, "", t); print t * 1000 }
        else print "nan" }'
}

# CPU time (user + system, in clock ticks) of processes $@ and all their threads, summed: with bench_cpu before
# and after a load, CPU per request is a figure that other load on the machine moves far less than req/s.
bench_cpu() {
    total=0
    for pid in "$@"; do
        [ -r "/proc/$pid/stat" ] || continue
        # Fields 14 and 15 (utime, stime) after the ")" that ends the command name.
        ticks=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')
        total=$((total + ticks))
    done
    echo "$total"
}

# The PostgreSQL postmaster of the bench cluster and its children (backends, writers).
bench_postgres_pids() {
    pm=$(head -n 1 "$BENCH_PGDATA/postmaster.pid" 2>/dev/null) || return 0
    echo "$pm $(pgrep -P "$pm" | tr '\n' ' ')"
}

# Seeds linkd at $BASE through the API, as a user would (same shape as Tests/LinkServiceTests/Fixture.swift): a team,
# an iOS and an Android app with a typed destination, the domain $HOST with 13 rules (the typed rule resolve hits
# is the 12th), waits until the catalog serves them and checks resolve's typed answer. Sets ADMIN and READ (API
# keys), AASA_PATH and RESOLVE_PATH, and leaves the domain's AASA bytes in $BENCH_TMP/www (for nginx).
# Another workspace $1 with a link domain $2 (web fallback www.example.com), on the linkd at $BASE: prints an
# admin key of it.
bench_workspace() {
    key=$("$LINKD" keys create --workspace "$1" --scope admin --database-url "$BENCH_DATABASE_URL" --migrations "$ROOT/migrations" \
        2>/dev/null) || bench_die "cannot create a key of workspace $1"
    curl -sf -o /dev/null -X POST "$BASE/v1/domains" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
        -d "{\"hostname\":\"$2\",\"webFallbackUrl\":\"https://www.example.com\"}" || bench_die "cannot create $2"
    printf '%s\n' "$key"
}

bench_seed() {
    ADMIN=$("$LINKD" keys create --workspace bench --scope admin --database-url "$BENCH_DATABASE_URL" \
        --migrations "$ROOT/migrations" 2>/dev/null)
    READ=$("$LINKD" keys create --workspace bench --scope read --name bench-read --database-url "$BENCH_DATABASE_URL" \
        --migrations "$ROOT/migrations" 2>/dev/null)
    api() {   # api METHOD PATH JSON EXPECTED-STATUS → body on stdout
        out=$(curl -s -w '\n%{http_code}' -X "$1" "$BASE$2" -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' -d "$3")
        status=$(printf '%s' "$out" | tail -n 1)
        [ "$status" = "$4" ] || bench_die "$1 $2: expected $4, got $status: $(printf '%s' "$out" | head -n 1)"
        printf '%s' "$out" | sed '$d'
    }
    json_id() { sed -n 's/^{"id":"\([0-9a-f-]*\)".*/\1/p'; }
    api POST /v1/teams '{"teamId":"ABCDE12345","name":"Acme"}' 201 >/dev/null
    IOS=$(api POST /v1/apps '{"platform":"ios","name":"Widgets","teamId":"ABCDE12345","bundleId":"com.example.widgets","appStoreId":"1234567890","customScheme":"widgets"}' 201 | json_id)
    ANDROID=$(api POST /v1/apps '{"platform":"android","name":"Widgets","packageName":"com.example.widgets","sha256CertFingerprints":[{"value":"14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5","label":"Play App Signing"}]}' 201 | json_id)
    [ -n "$IOS" ] && [ -n "$ANDROID" ] || bench_die "could not read the app ids"
    for app in "$IOS" "$ANDROID"; do
        api POST "/v1/apps/$app/destinations" '{"name":"widgetDetail","title":"Widget","params":{"id":{"type":"int","min":1},"tab":{"type":"enum","values":["info","reviews"],"optional":true}}}' 201 >/dev/null
    done
    api POST /v1/domains "{\"hostname\":\"$HOST\",\"webFallbackUrl\":\"https://www.example.com\",\"carryPathToFallback\":true}" 201 >/dev/null
    # A realistic rule list: the typed rule resolve hits is not the first one the matcher tries.
    RULES="{\"apps\":[\"$IOS\",\"$ANDROID\"],\"path\":\"/private/*\",\"exclude\":true}"
    for section in account cart checkout help news offers orders profile search settings; do
        RULES="$RULES,{\"apps\":[\"$IOS\"],\"path\":\"/$section/*\"}"
    done
    RULES="$RULES,{\"apps\":[\"$IOS\",\"$ANDROID\"],\"path\":\"/widget/{id}\",\"query\":{\"tab\":\"*\"},\"destination\":{\"type\":\"widgetDetail\"}}"
    RULES="$RULES,{\"apps\":[\"$IOS\"],\"path\":\"/w/{id}/{tab}\",\"destination\":{\"type\":\"widgetDetail\"}}"
    api PUT "/v1/domains/$HOST/rules" "{\"rules\":[$RULES]}" 200 >/dev/null

    AASA_PATH=/.well-known/apple-app-site-association
    RESOLVE_PATH="/v1/resolve?url=https%3A%2F%2F$HOST%2Fwidget%2F42%3Ftab%3Dreviews"
    i=0
    until curl -sf -H "Host: $HOST" "$BASE$AASA_PATH" | grep -q widget; do   # the catalog follows by NOTIFY
        i=$((i + 1)); [ $i -gt 100 ] && bench_die "the catalog did not pick up the rules"; sleep 0.05
    done
    mkdir -p "$BENCH_TMP/www/.well-known"
    curl -sf -H "Host: $HOST" -o "$BENCH_TMP/www$AASA_PATH" "$BASE$AASA_PATH"
    ANSWER=$(curl -sf -H "Authorization: Bearer $READ" "$BASE$RESOLVE_PATH")
    case "$ANSWER" in
        *'"widgetDetail"'*'"id":42'*) ;;
        *) bench_die "resolve did not return the typed destination: $ANSWER" ;;
    esac
    # The click load: the landing page of a typed link for iPhone Safari (the domain's default clickBehavior,
    # docs/LANDING.md), saved for nginx to serve the same bytes.
    CLICK_PATH="/widget/42?tab=reviews"
    IPHONE_AGENT="User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
    curl -sf -H "Host: $HOST" -H "$IPHONE_AGENT" -o "$BENCH_TMP/www/landing.html" "$BASE$CLICK_PATH"
    grep -q 'href="widgets://widget/42?tab=reviews"' "$BENCH_TMP/www/landing.html" || bench_die "the click did not get the landing page"
}
