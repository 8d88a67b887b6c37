#!/bin/sh
# Catalog load benchmark (issue 5): a catalog of 10,000 domains x 100 rules loads in < 5 s with resident memory
# < 300 MB.
#
# A template workspace (team, iOS and Android app, their destination type, one domain) is created through the
# API, so every row has the shape the API writes; then SQL `generate_series` clones it straight into the tables:
# 100 workspaces (teams, apps, destinations), 100 domains each, 100 rules each (`definition` json: typed
# path templates, a query item, exclusions; distinct literal prefixes), each rule for both apps (`rule_apps`).
# linkd is then started afresh and timed from the start of `linkd serve` to `/readyz` 200; the load itself is
# the "catalog loaded" log line's `catalog.duration_ms`. Memory is read from /proc/<pid>/status (VmRSS after
# the load, VmHWM the peak). Everything started here is stopped on exit.
#
# Usage: bench/serving/catalog-load.sh [--domains N] [--rules N] [--runs N] [--distinct] [--no-build] [--compare LINKD]
#                                      [--keep DIR]
#   defaults: 10000 domains (100 workspaces x 100), 100 rules, 3 runs (median).
#   --distinct: every domain's paths carry the domain's number (`/s7/d42/{id}`), so no two domains have the same
#   rules; by default the domains of a workspace are clones, and linkd compiles (and holds) their rules once.
#   --compare LINKD: also start the linkd binary at LINKD (another build, e.g. the previous commit's) on the same
#   seeded database, alternating with the build measured run by run, and print both builds' medians and their
#   ratios (measured / compared); the targets are checked on the measured build.
#   --keep DIR: keep the seeded PostgreSQL cluster in DIR (stopped on exit, not removed); a later run with the same
#   DIR and the same --domains, --rules and --distinct starts it again instead of seeding (which takes minutes).
# Exit status: 0 when both targets hold, 1 when one does not, 2 on a setup failure.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/serving/lib.sh"

DOMAINS=10000; RULES=100; RUNS=3; BUILD=1; DISTINCT=0; COMPARE=""; KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --domains) DOMAINS=$2; shift 2 ;;
        --rules) RULES=$2; shift 2 ;;
        --runs) RUNS=$2; shift 2 ;;
        --distinct) DISTINCT=1; shift ;;
        --no-build) BUILD=0; shift ;;
        --compare) COMPARE=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        *) echo "usage: $0 [--domains N] [--rules N] [--runs N] [--distinct] [--no-build] [--compare LINKD] [--keep DIR]" >&2; exit 2 ;;
    esac
done
WORKSPACES=100
[ $((DOMAINS % WORKSPACES)) -eq 0 ] || bench_die "--domains must be a multiple of $WORKSPACES"
PER_WORKSPACE=$((DOMAINS / WORKSPACES))
PORT=0   # the kernel's choice at the first start, kept for the restarts (lib.sh)
BENCH_READY_TIMEOUT=120

bench_require curl psql initdb
bench_linkd_binary "$BUILD"
[ -z "$COMPARE" ] || [ -x "$COMPARE" ] || bench_die "no linkd binary at $COMPARE"

SHAPE="$DOMAINS domains x $RULES rules, distinct $DISTINCT"
if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP" && BENCH_PG_DIR=$(cd "$KEEP" && pwd) || bench_die "cannot use $KEEP"
    [ ! -f "$BENCH_PG_DIR/data/PG_VERSION" ] || [ "$(cat "$BENCH_PG_DIR/seeded" 2>/dev/null)" = "$SHAPE" ] \
        || bench_die "$KEEP holds another catalog than $SHAPE ($(cat "$BENCH_PG_DIR/seeded" 2>/dev/null || echo 'not seeded'))"
fi
bench_setup
bench_start_postgres
if [ "$BENCH_PG_REUSED" = 1 ]; then
    bench_log "reusing the catalog seeded in $KEEP: $SHAPE"
else
bench_start_linkd "$PORT"
PORT=$BENCH_LINKD_PORT
BASE="http://127.0.0.1:$PORT"

# --- The template workspace, through the API ---------------------------------------------------------------
ADMIN=$("$LINKD" keys create --workspace template --scope admin --database-url "$BENCH_DATABASE_URL" \
    --migrations "$ROOT/migrations" 2>/dev/null)
api() {
    out=$(curl -s -w '\n%{http_code}' -X "$1" "$BASE$2" -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' -d "$3")
    status=$(printf '%s' "$out" | tail -n 1)
    [ "$status" = "$4" ] || bench_die "$1 $2: expected $4, got $status: $(printf '%s' "$out" | head -n 1)"
}
api POST /v1/teams '{"teamId":"ABCDE12345","name":"Acme"}' 201
api POST /v1/apps '{"platform":"ios","name":"Widgets","teamId":"ABCDE12345","bundleId":"com.example.widgets","appStoreId":"1234567890"}' 201
api POST /v1/apps '{"platform":"android","name":"Widgets","packageName":"com.example.widgets","sha256CertFingerprints":[{"value":"14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5","label":"Play App Signing"}]}' 201
for app in $($BENCH_PSQL -d linkd -At -c "SELECT id FROM apps"); do
    api POST "/v1/apps/$app/destinations" '{"name":"widgetDetail","title":"Widget","params":{"id":{"type":"int","min":1},"tab":{"type":"enum","values":["info","reviews"],"optional":true}}}' 201
done
api POST /v1/domains '{"hostname":"template.bench.example","webFallbackUrl":"https://www.example.com","carryPathToFallback":true}' 201
bench_stop_pid "$LINKD_PID"

# --- Clone it with generate_series --------------------------------------------------------------------------
# --distinct: a path segment naming the domain (`d42ws7/`) after the rule's own prefix.
SEGMENT=""
[ "$DISTINCT" = 1 ] && SEGMENT="split_part(d.hostname, '.', 1) || split_part(d.hostname, '.', 2) || '/' ||"
bench_log "seeding $DOMAINS domains x $RULES rules$([ "$DISTINCT" = 1 ] && echo ', distinct per domain')"
SEED_START=$(date +%s.%N)
$BENCH_PSQL -d linkd <<EOF
\set ON_ERROR_STOP 1
BEGIN;
CREATE TEMP TABLE template AS SELECT id FROM workspaces WHERE name = 'template';
INSERT INTO workspaces (name) SELECT 'ws' || w FROM generate_series(1, $WORKSPACES) w;
INSERT INTO teams (workspace_id, team_id, name)
    SELECT w.id, t.team_id, t.name FROM workspaces w, teams t
    WHERE w.name LIKE 'ws%' AND t.workspace_id = (SELECT id FROM template);
INSERT INTO apps (workspace_id, platform, name, team_id, bundle_id, app_store_id, custom_scheme, package_name,
                  sha256_cert_fingerprints, play_store_url)
    SELECT w.id, a.platform, a.name, a.team_id, a.bundle_id, a.app_store_id, a.custom_scheme, a.package_name,
           a.sha256_cert_fingerprints, a.play_store_url
    FROM workspaces w, apps a WHERE w.name LIKE 'ws%' AND a.workspace_id = (SELECT id FROM template);
INSERT INTO destinations (workspace_id, app_id, name, title, params)
    SELECT n.workspace_id, n.id, d.name, d.title, d.params
    FROM apps n JOIN apps t ON t.workspace_id = (SELECT id FROM template) AND t.platform = n.platform
    JOIN destinations d ON d.app_id = t.id
    WHERE n.workspace_id <> (SELECT id FROM template);
INSERT INTO domains (workspace_id, hostname, settings)
    SELECT w.id, 'd' || i || '.' || w.name || '.bench.example', t.settings
    FROM workspaces w, generate_series(1, $PER_WORKSPACE) i, (SELECT settings FROM domains WHERE hostname = 'template.bench.example') t
    WHERE w.name LIKE 'ws%';
-- Per domain: every 10th rule excludes a section, every 10th (+1) has a query item, the rest are typed
-- path templates; each with its own literal prefix (with --distinct, also the domain's own segment).
INSERT INTO rules (workspace_id, domain_id, position, definition)
    SELECT d.workspace_id, d.id, p, CASE p % 10
        WHEN 0 THEN jsonb_build_object('path', '/x' || p || '/' || $SEGMENT '*', 'exclude', true)
        WHEN 1 THEN jsonb_build_object('path', '/q' || p || '/' || $SEGMENT '{id}', 'query', jsonb_build_object('tab', '*'),
                                       'destination', jsonb_build_object('type', 'widgetDetail'))
        ELSE jsonb_build_object('path', '/s' || p || '/' || $SEGMENT '{id}', 'destination', jsonb_build_object('type', 'widgetDetail')) END
    FROM domains d, generate_series(0, $RULES - 1) p WHERE d.hostname LIKE '%.ws%.bench.example';
INSERT INTO rule_apps (rule_id, app_id, ordinal)
    SELECT r.id, a.id, CASE a.platform WHEN 'ios' THEN 0 ELSE 1 END
    FROM rules r JOIN apps a ON a.workspace_id = r.workspace_id;
DELETE FROM domains WHERE hostname = 'template.bench.example';
COMMIT;
VACUUM ANALYZE;
EOF
SEED_SECONDS=$(awk -v s="$SEED_START" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
COUNTS=$($BENCH_PSQL -d linkd -At -F ' ' -c "SELECT (SELECT count(*) FROM domains), (SELECT count(*) FROM rules), (SELECT count(*) FROM rule_apps)")
bench_log "seeded in ${SEED_SECONDS}s: domains rules rule_apps = $COUNTS"
[ -z "$KEEP" ] || echo "$SHAPE" >"$BENCH_PG_DIR/seeded"
fi
COUNTS=$($BENCH_PSQL -d linkd -At -F ' ' -c "SELECT (SELECT count(*) FROM domains), (SELECT count(*) FROM rules), (SELECT count(*) FROM rule_apps)")

# --- Time the start ------------------------------------------------------------------------------------------
# One start of the linkd at $1, its figures appended to the file $2 and printed with the label $3.
time_start() {
    LINKD=$1
    START=$(date +%s.%N)
    bench_start_linkd "$PORT"
    READY=$(awk -v s="$START" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", (e - s) * 1000 }')
    LOAD=$(grep '"catalog loaded"' "$BENCH_TMP/linkd.log" | tail -n 1 | sed -n 's/.*"catalog.duration_ms":"\([0-9]*\)".*/\1/p')
    LOADED=$(grep '"catalog loaded"' "$BENCH_TMP/linkd.log" | tail -n 1 | sed -n 's/.*"catalog.domains":"\([0-9]*\)".*/\1/p')
    RSS=$(awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$LINKD_PID/status")
    HWM=$(awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$LINKD_PID/status")
    PORT=$BENCH_LINKD_PORT   # (0 on a kept catalog's first start: the kernel's choice, kept for the restarts)
    curl -sf -H 'Host: d1.ws1.bench.example' "http://127.0.0.1:$PORT/.well-known/apple-app-site-association" | grep -q '/s99/' \
        || bench_die "linkd does not serve the seeded AASA"
    printf '  run %d%s: %s domains, load %s ms, start to ready %s ms, RSS %s MB, peak %s MB\n' \
        "$run" "$3" "$LOADED" "$LOAD" "$READY" "$RSS" "$HWM" >&2
    echo "$LOAD $READY $RSS $HWM" >>"$2"
    bench_stop_pid "$LINKD_PID"
}

MEASURED=$LINKD
: >"$BENCH_TMP/results"
: >"$BENCH_TMP/compared"
run=1
while [ $run -le "$RUNS" ]; do
    if [ -n "$COMPARE" ]; then
        time_start "$MEASURED" "$BENCH_TMP/results" " (measured)"
        time_start "$COMPARE" "$BENCH_TMP/compared" " (compared)"
    else
        time_start "$MEASURED" "$BENCH_TMP/results" ""
    fi
    run=$((run + 1))
done

median() { awk -v c="$1" '{ print $c }' "${2:-$BENCH_TMP/results}" | bench_median; }
LOAD=$(median 1); READY=$(median 2); RSS=$(median 3); HWM=$(median 4)
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v < t) ? "ok" : "MISSED" }'; }
echo
echo "catalog load: $COUNTS (domains rules rule_apps), $RUNS runs, medians"
if [ -n "$COMPARE" ]; then
    echo "measured: $MEASURED"
    echo "compared: $COMPARE"
    printf '%-34s %10s %10s %8s\n' "" "measured" "compared" "ratio"
    for column in "1 catalog.duration_ms" "2 linkd serve start to /readyz (ms)" "3 VmRSS after load (MB)" "4 VmHWM peak (MB)"; do
        c=${column%% *}
        a=$(median "$c"); b=$(median "$c" "$BENCH_TMP/compared")
        printf '%-34s %10s %10s %8s\n' "${column#* }" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
    done
else
    printf '%-34s %10s\n' "catalog.duration_ms" "$LOAD"
    printf '%-34s %10s\n' "linkd serve start to /readyz (ms)" "$READY"
    printf '%-34s %10s\n' "VmRSS after load (MB)" "$RSS"
    printf '%-34s %10s\n' "VmHWM peak (MB)" "$HWM"
fi
echo
echo "target load < 5000 ms:      $LOAD  $(verdict "$LOAD" 5000)"
echo "target resident < 300 MB:   $HWM (peak)  $(verdict "$HWM" 300)"
[ "$(verdict "$LOAD" 5000)" = ok ] && [ "$(verdict "$HWM" 300)" = ok ]
