#!/bin/sh
# Funnel benchmark (issue 52, item 3; docs/EVENTS.md, "Funnels"): N events (default 10 million) of one workspace over
# 90 days, generated with generate_series in the bench's own database (the rollup trigger of migrations/0034 and 0038 runs as
# they land, a million rows a statement), then each funnel read from the rollups (the SQL EventFunnelStore.counts
# writes) beside the same question asked of the raw events (EventFunnelStore.scannedCounts), ROUNDS times each,
# in the same run. Also: what the trigger adds to an INSERT of 200,000 events (rolled back), and its own time.
# Usage: bench/events/run.sh [--events 10000000] [--rounds 15] [--reuse]
# Uses DATABASE_URL when set (it must be an empty database, or one this script filled: --reuse keeps its events),
# otherwise a private PostgreSQL 15 cluster (fsync on) in /tmp, removed afterwards.
#
# Event ingestion (issue 52, "Performance"): POST /v1/events through a running service (HTTP on loopback, checks, the
# event writer's batches, attribution and COPY) against a raw COPY of the same rows into the same table, in the same
# run (bench/hits's hits-bench, --only events).
# Usage: bench/events/run.sh ingest [--events 300000] [--per-request 500] [--threads 2] [--no-fsync]
# Uses DATABASE_URL when set, otherwise a private PostgreSQL cluster (fsync on) in /tmp, removed afterwards.
set -eu
cd "$(dirname "$0")/../.."
if [ "${1:-}" = ingest ]; then
  shift
  swift build -c release --product hits-bench >&2
  exec .build/release/hits-bench --only events "$@"
fi
events=10000000 rounds=15 reuse=no
while [ $# -gt 0 ]; do
  case $1 in
    --events) events=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --reuse) reuse=yes; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin=/usr/lib/postgresql/15/bin
work=""
if [ -z "${DATABASE_URL:-}" ]; then
  work=$(mktemp -d /tmp/linkd-events-bench.XXXXXX)
  chmod 755 "$work"
  as() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else sh -c "$*"; fi; }
  [ "$(id -u)" = 0 ] && chown postgres "$work"
  as "$bin/initdb -D $work/data -A trust -U postgres" >/dev/null
  as "$bin/pg_ctl -D $work/data -o '-p 55499 -k $work -c listen_addresses= -c shared_buffers=512MB' -l $work/log -w start" >/dev/null
  trap 'as "$bin/pg_ctl -D $work/data -m fast -w stop" >/dev/null; rm -rf "$work"' EXIT
  as "$bin/createdb -h $work -p 55499 -U postgres bench"
  DATABASE_URL="postgresql://postgres@/bench?host=$work&port=55499"
fi
psql="psql -X -q -v ON_ERROR_STOP=1 $DATABASE_URL"
if [ "$reuse" = no ] || [ "$($psql -At -c "SELECT to_regclass('events') IS NULL")" = t ]; then
  for file in migrations/*.sql; do $psql -1 -f "$file" >/dev/null; done
  start=$(date +%s)
  $psql -v events="$events" -v now='2026-12-07T00:00:00Z' -f bench/events/generate.sql >/dev/null
  echo "generated $events events in $(( $(date +%s) - start )) s"
fi
$psql -At -c "SELECT 'events: ' || count(*) || ', rollup rows: ' || (SELECT count(*) FROM event_rollups_daily) || ' daily (' ||
  (SELECT string_agg(cube || ': ' || n, ', ' ORDER BY cube) FROM (SELECT cube, count(*) n FROM event_rollups_daily GROUP BY cube) c) || '), ' ||
  (SELECT count(*) FROM event_rollups_weekly) || ' weekly (' ||
  (SELECT string_agg(cube || ': ' || n, ', ' ORDER BY cube) FROM (SELECT cube, count(*) n FROM event_rollups_weekly GROUP BY cube) c) || ')' FROM events"

# One question, ROUNDS times, after one warm-up: the median and the slowest, in milliseconds.
time_sql() {
  { printf '%s\n' "SET jit = off; SET work_mem = '32MB';" '\timing on'; i=0
    while [ $i -le "$rounds" ]; do printf '%s\n' "$1"; i=$((i + 1)); done; } |
    $psql 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n "$rounds" | sort -n |
    awk '{ a[NR] = $1 } END { printf "median %8.1f ms  max %8.1f ms", a[int((NR + 1) / 2)], a[NR] }'
}
w="'00000000-0000-0000-0000-0000000000e1'"
link="'$($psql -At -c "SELECT md5('link7')::uuid")'"
# A range of UTC days as EventFunnelStore.counts splits it: from, the first and the last Monday of its whole weeks
# (the same day twice, to, when it holds none), to.
range() {
  first=$(date -u -d "$1 +$(( (8 - $(date -u -d "$1" +%u)) % 7 )) days" +%F)
  last=$(date -u -d "$2 -$(( $(date -u -d "$2" +%u) - 1 )) days" +%F)
  if [ "$first" \< "$last" ]; then echo "$1 $first $last $2"; else echo "$1 $2 $2 $2"; fi
}
r30=$(range 2026-11-07 2026-12-07) r90=$(range 2026-09-08 2026-12-07)
# The rollups' read: the weekly rows of the whole weeks, the daily rows of the days before and after them.
rollup() {
  group=$1 cube=$2 filter=$3; set -- $4
  rows() { echo "SELECT $group AS g, name, currency, events, value FROM $1 WHERE workspace_id = $w AND cube = $cube AND $2 >= date '$3' AND $2 < date '$4'$filter"; }
  echo "SELECT g::text, name, currency, e, v FROM (SELECT g, name, currency, sum(events)::int8 AS e, sum(value)::int8 AS v FROM ($(rows event_rollups_weekly week "$2" "$3") UNION ALL $(rows event_rollups_daily day "$1" "$2") UNION ALL $(rows event_rollups_daily day "$3" "$4")) kept GROUP BY 1, 2, 3) grouped;"
}
scan() {
  group=$1 filter=$2; set -- $3
  echo "SELECT g::text, name, currency, e, v FROM (SELECT $group AS g, name, currency, count(*)::int8 AS e, coalesce(sum(value_minor), 0)::int8 AS v FROM events WHERE workspace_id = $w AND occurred_at >= timestamptz '$1 00:00:00+00' AND occurred_at < timestamptz '$4 00:00:00+00'$filter GROUP BY 1, 2, 3) grouped;"
}
# label, the group's column, the cube read, the filter's conditions, the range.
question() {
  printf '%-52s rollups: %s   raw scan: %s\n' "$1" "$(time_sql "$(rollup "$2" "$3" "$4" "$5")")" "$(time_sql "$(scan "$2" "$4" "$5")")"
}
campaign=" AND utm_campaign = 'campaign-7'"
question "workspace, 30 days" "NULL::text" 63 "" "$r30"
question "workspace, 90 days: all the events" "NULL::text" 63 "" "$r90"
question "workspace, 30 days, by link" "link_id" 31 "" "$r30"
question "workspace, 90 days, by link" "link_id" 31 "" "$r90"
question "one link, 90 days" "NULL::text" 31 " AND link_id = $link" "$r90"
question "workspace, 30 days, by country" "country" 55 "" "$r30"
question "one campaign, 30 days, by OS" "os" 15 "$campaign" "$r30"
question "one campaign and country, 30 days, by OS" "os" 0 "$campaign AND country = 'DE'" "$r30"
question "one link's variants, 90 days" "variant" 28 " AND link_id = $link" "$r90"
question "workspace, 90 days, by variant" "variant" 28 "" "$r90"
question "one country, 90 days, by link" "link_id" 0 " AND country = 'DE'" "$r90"

# The trigger's cost: 200,000 events inserted in one statement with and without it, each rolled back.
insert="INSERT INTO events (workspace_id, kind, name, occurred_at, idempotency_key, link_id, country, os, attribution)
  SELECT $w, 'open', 'open', timestamptz '2026-12-06 12:00:00+00' - make_interval(secs => i % 86400), 'trigger-' || i,
         md5('link' || i % 500)::uuid, 'DE', 'iOS', 'link_url' FROM generate_series(1, 200000) i;"
with=$(printf 'BEGIN;\n\\timing on\n%s\n\\timing off\nROLLBACK;\n' "$insert" | $psql 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
without=$(printf 'BEGIN;\nALTER TABLE events DISABLE TRIGGER events_rollup;\n\\timing on\n%s\n\\timing off\nROLLBACK;\n' "$insert" | $psql 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
trigger=$(printf 'BEGIN;\nEXPLAIN ANALYZE %s\nROLLBACK;\n' "$insert" | $psql 2>&1 | sed -n 's/.*Trigger events_rollup: time=\([0-9.]*\).*/\1/p')
echo "INSERT of 200,000 events: $with ms with the rollup trigger, $without ms without; the trigger's own time: $trigger ms"
