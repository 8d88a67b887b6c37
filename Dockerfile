# Build stage: the Swift toolchain plus the C libraries' -dev packages.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends pkg-config libpq-dev libmicrohttpd-dev libssl-dev zlib1g-dev libqrencode-dev libcsv-dev libcurl4-openssl-dev libyaml-dev libmaxminddb-dev libargon2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Plugins ./Plugins
COPY Sources ./Sources
# Built into linkd by the EmbedFiles plugin (docs/DESIGN.md, "The house", on `Plugins/`): the run stage needs no copy of them.
COPY migrations ./migrations
COPY console ./console
COPY Tests ./Tests
RUN swift build -c release --product linkd --static-swift-stdlib

# Run stage: only the shared libraries linkd links against, uap-core's User-Agent regexes (read at start) and
# Chart.js; linkd carries its console and its migrations.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libpq5 libmicrohttpd12 libssl3 zlib1g libqrencode4 libcsv3 libcurl4 libyaml-0-2 libmaxminddb0 libargon2-1 uap-core libjs-chart.js ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /var/lib/linkd linkd
COPY --from=build /src/.build/release/linkd /usr/local/bin/linkd
USER linkd
EXPOSE 8080
ENV LINKD_LISTEN=0.0.0.0:8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD curl -fsS http://127.0.0.1:8080/readyz || exit 1
ENTRYPOINT ["/usr/local/bin/linkd"]
CMD ["serve"]
