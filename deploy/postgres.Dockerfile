# PostgreSQL 15 with the hll extension, whose sketches count the analytics' unique visitors (docs/HITS.md).
FROM postgres:15
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15-hll \
 && rm -rf /var/lib/apt/lists/*
