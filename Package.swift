// swift-tools-version:6.0
import PackageDescription

// The module layering is described in docs/DESIGN.md: lower targets never import higher ones.
let package = Package(
    name: "linkd",
    products: [
        .executable(name: "linkd", targets: ["linkd"])
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // QR codes of links (docs/LANDING.md) and the PNG's compression and CRCs.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // CSV files (RFC 4180) read in chunks: the Firebase Dynamic Links Takeout import (docs/LINKS-IMPORT.md).
        // Debian's libcsv ships no pkg-config file: the module map links it (`link "csv"`).
        .systemLibrary(name: "CCSV", providers: [.apt(["libcsv-dev"])]),
        // People's passwords, hashed with Argon2id (docs/PEOPLE.md).
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        // MHD_start_daemon is C-variadic, which Swift cannot call: non-variadic wrappers, and MHD_queue_response
        // for libmicrohttpd's own error answers (docs/CONNECTIONS.md).
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),
        // Outbound HTTP for the association health checks (docs/HEALTH.md); curl_easy_setopt and
        // curl_easy_getinfo are C-variadic too: typed non-variadic wrappers.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        // Hit dimensions (docs/HITS.md): uap-core's User-Agent regexes are YAML, read with libyaml; countries come
        // from an operator's MaxMind DB file, read with libmaxminddb.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CMaxMindDB", pkgConfig: "libmaxminddb", providers: [.apt(["libmaxminddb-dev"])]),

        .target(name: "ByteText"),
        .target(name: "Observability", dependencies: ["ByteText"]),
        // The generated routers' runtimes are .swift, .kt and .ts files (Codegen/Runtime), embedded as strings at
        // build time by the EmbedFiles plugin, so linkd stays one self-contained binary (docs/CODEGEN.md); the
        // same plugin embeds console/ and migrations/ into LinkService (docs/DESIGN.md, "The house", on `Plugins/`).
        .target(name: "LinkKit", dependencies: ["ByteText"], exclude: ["Codegen/Runtime"], plugins: ["EmbedFiles"]),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedText"]),
        .executableTarget(name: "EmbedText", path: "Plugins/EmbedText"),
        .target(name: "Postgres", dependencies: ["CLibPQ", "ByteText", "Observability"]),
        .target(name: "EmbeddedPostgres", dependencies: ["Observability"]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CMicroHTTPDShim", "ByteText", "Observability"]),
        .target(name: "Outbound", dependencies: ["CCurl", "CCurlShim", "Observability"]),
        // OpenID Connect as a relying party (docs/PEOPLE.md, "Single sign-on"): discovery, JWK sets, ID tokens
        // verified with libcrypto, PKCE; the provider asked through Outbound's HTTPClient.
        .target(name: "OpenID", dependencies: ["CCrypto", "LinkKit", "Outbound"]),
        .target(name: "UserAgents", dependencies: ["CYAML"]),
        .target(name: "GeoIP", dependencies: ["CMaxMindDB"]),
        .target(
            name: "LinkService",
            dependencies: [
                "ByteText", "LinkKit", "Postgres", "HTTPServer", "Outbound", "OpenID", "Observability",
                "UserAgents", "GeoIP", "CCrypto", "CQRencode", "CZlib", "CCSV", "CArgon2",
            ],
            plugins: ["EmbedFiles"]),
        .executableTarget(
            name: "linkd",
            dependencies: ["LinkService", "LinkKit", "EmbeddedPostgres", "Postgres", "HTTPServer", "Outbound", "Observability", "ByteText"]),

        // bench/hits: ingestion and analytics benchmarks (bench/hits/run.sh); never part of `swift test`.
        .executableTarget(
            name: "hits-bench",
            dependencies: ["LinkService", "UserAgents", "EmbeddedPostgres", "Postgres", "HTTPServer", "Observability", "TestSupport"],
            path: "bench/hits/Sources"),

        .target(
            name: "TestSupport", dependencies: ["Postgres", "EmbeddedPostgres", "HTTPServer", "Observability"], path: "Tests/TestSupport",
            exclude: ["OpenIDProvider/oidc_provider.py", "Servers/smtp_server.py", "Servers/trickle_server.py"]),
        .testTarget(name: "ByteTextTests", dependencies: ["ByteText"]),
        .testTarget(name: "ObservabilityTests", dependencies: ["Observability"]),
        .testTarget(name: "LinkKitTests", dependencies: ["LinkKit", "ByteText"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "OpenIDTests", dependencies: ["OpenID", "Outbound", "LinkKit", "TestSupport"]),
        .testTarget(
            name: "OutboundTests", dependencies: ["Outbound", "Observability", "TestSupport"], exclude: ["Servers/outbound_server.py"]),
        .testTarget(
            name: "LinkServiceTests",
            dependencies: ["LinkService", "Outbound", "UserAgents", "GeoIP", "TestSupport", "EmbeddedPostgres", "CZlib"],
            exclude: [
                "Browser/landing_page.py", "Browser/sso_sign_in.py", "Health/health_server.py", "Webhooks/webhook_receiver.py",
                "Hits/write_country_db.pl",
            ]),
        .testTarget(name: "linkdTests", dependencies: ["TestSupport", "Postgres"]),
    ]
)
