# Build stage: the Swift toolchain plus the C libraries' -dev packages.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends pkg-config libpq-dev libmicrohttpd-dev libssl-dev zlib1g-dev libqrencode-dev libcsv-dev libcurl4-openssl-dev libyaml-dev libmaxminddb-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Plugins ./Plugins
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product linkd --static-swift-stdlib

# Run stage: only the shared libraries linkd links against, and uap-core's User-Agent regexes (read at start).
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libpq5 libmicrohttpd12 libssl3 zlib1g libqrencode4 libcsv3 libcurl4 libyaml-0-2 libmaxminddb0 uap-core libjs-chart.js ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /var/lib/linkd linkd
COPY --from=build /src/.build/release/linkd /usr/local/bin/linkd
COPY migrations /usr/share/linkd/migrations
COPY console /usr/share/linkd/console
USER linkd
EXPOSE 8080
ENV LINKD_LISTEN=0.0.0.0:8080 LINKD_MIGRATIONS_DIR=/usr/share/linkd/migrations LINKD_CONSOLE_DIR=/usr/share/linkd/console
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD curl -fsS http://127.0.0.1:8080/readyz || exit 1
ENTRYPOINT ["/usr/local/bin/linkd"]
CMD ["serve"]
