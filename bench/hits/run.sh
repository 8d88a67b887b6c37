#!/bin/sh
# Hit benchmarks: ingestion through the pipeline (30 s at a fixed offered rate, next to a raw COPY baseline
# measured in the same run), analytics latency over 10 million generated hits, and a new User-Agent's parse.
# Usage: bench/hits/run.sh [--seconds 30] [--rate 120000 | --rate-of-copy 0.9] [--threads 2] [--hits 10000000] [--rounds 15]
#                          [--only ingest|analytics|agents] [--no-fsync] [--reuse]
# Uses DATABASE_URL when set, otherwise a private PostgreSQL cluster (fsync on) in /tmp, removed afterwards.
set -eu
cd "$(dirname "$0")/../.."
swift build -c release --product hits-bench >&2
exec .build/release/hits-bench "$@"
