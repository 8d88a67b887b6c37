import Foundation
import TestSupport
import Testing

/// No Docker engine runs here, so `docker-compose.yml` and the `Dockerfile` are checked as files:
/// parsed with a real YAML parser (Debian's python3-yaml, installed by scripts/install-deps) and held
/// against what linkd actually reads.
@Suite("Deployment files")
struct DeploymentFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The compose file as JSON, through PyYAML's safe loader.
    static func compose() throws -> [String: Any] {
        let process = try Subprocess(
            "/usr/bin/python3",
            [
                "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
                root.appendingPathComponent("docker-compose.yml").path,
            ])
        let status = try process.wait()
        let data = Data(process.standardOutput.utf8)
        guard status == 0 else { throw TestFailure("docker-compose.yml is not valid YAML (or python3-yaml is missing)") }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test func composeRunsLinkdAgainstAHealthyPostgres15WithHLL() throws {
        let services = try #require(try Self.compose()["services"] as? [String: [String: Any]])
        let postgres = try #require(services["postgres"])
        // postgres:15 with the hll extension the analytics' visitor sketches need, built from deploy/.
        let build = try #require(postgres["build"] as? [String: String])
        let dockerfile = try String(
            contentsOf: Self.root.appendingPathComponent("deploy").appendingPathComponent(build["dockerfile"] ?? "Dockerfile"),
            encoding: .utf8)
        #expect(build["context"] == "deploy")
        #expect(dockerfile.contains("FROM postgres:15\n") && dockerfile.contains("postgresql-15-hll"))
        #expect(postgres["healthcheck"] != nil)
        let environment = try #require(postgres["environment"] as? [String: String])

        let linkd = try #require(services["linkd"])
        let linkdEnvironment = try #require(linkd["environment"] as? [String: String])
        let url = try #require(linkdEnvironment["DATABASE_URL"])
        #expect(
            url
                == "postgresql://\(environment["POSTGRES_USER"]!):\(environment["POSTGRES_PASSWORD"]!)@postgres:5432/\(environment["POSTGRES_DB"]!)"
        )
        #expect(linkdEnvironment["LINKD_LISTEN"]?.hasPrefix("0.0.0.0:") == true)
        let dependsOn = try #require(linkd["depends_on"] as? [String: [String: String]])
        #expect(dependsOn["postgres"]?["condition"] == "service_healthy")
        let healthcheck = try #require(linkd["healthcheck"] as? [String: Any])
        #expect((healthcheck["test"] as? [String])?.joined(separator: " ").contains("/readyz") == true)
        // Every variable compose sets is one linkd reads.
        let help = try LinkdProcess.run(["serve", "--help"]).stdout
        for name in linkdEnvironment.keys { #expect(help.contains(name), "linkd serve does not read \(name)") }
    }

    @Test func composePutsCaddyInFrontOfTwoNodes() throws {
        let services = try #require(try Self.compose()["services"] as? [String: [String: Any]])
        let caddy = try #require(services["caddy"])
        #expect((caddy["image"] as? String)?.hasPrefix("caddy:2") == true)
        #expect(Set(caddy["ports"] as? [String] ?? []) == ["80:80", "443:443"])
        let volumes = caddy["volumes"] as? [String] ?? []
        #expect(volumes.contains("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"))
        #expect(volumes.contains { $0.hasSuffix(":/data") }, "Caddy's certificates survive a restart")
        let caddyEnvironment = try #require(caddy["environment"] as? [String: String])
        #expect(caddyEnvironment["LINKD_UPSTREAMS"] == "linkd:8080 linkd-2:8080")
        let caddyAddress = try #require((caddy["networks"] as? [String: [String: String]])?["front"]?["ipv4_address"])
        let caddyfile = try String(contentsOf: Self.root.appendingPathComponent("deploy/Caddyfile"), encoding: .utf8)
        for name in caddyEnvironment.keys { #expect(caddyfile.contains("{$\(name)"), "the Caddyfile does not read \(name)") }
        let help = try LinkdProcess.run(["serve", "--help"]).stdout
        for name in ["linkd", "linkd-2"] {
            let node = try #require(services[name], "\(name)")
            #expect(node["ports"] == nil, "\(name) is reached through Caddy only")
            let environment = try #require(node["environment"] as? [String: String])
            #expect(environment["LINKD_TRUSTED_PROXIES"] == caddyAddress)
            #expect(
                environment["DATABASE_URL"] == (services["linkd"]?["environment"] as? [String: String])?["DATABASE_URL"], "one PostgreSQL")
            for variable in environment.keys { #expect(help.contains(variable), "linkd serve does not read \(variable)") }
            let healthcheck = try #require(node["healthcheck"] as? [String: Any])
            #expect((healthcheck["test"] as? [String])?.joined(separator: " ").contains("/readyz") == true)
            #expect((caddy["depends_on"] as? [String: [String: String]])?[name]?["condition"] == "service_healthy")
        }
    }

    @Test func dockerfileInstallsTheLibrariesAndShipsTheMigrations() throws {
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        // Every C library's -dev package, as Package.swift names its provider, is built against and installed.
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let providers = manifest.matches(of: /\.apt\(\["([^"]+)"\]\)/).map { String($0.1) }
        #expect(providers.count >= 6)
        let install = try String(contentsOf: Self.root.appendingPathComponent("scripts/install-deps"), encoding: .utf8)
        for package in providers {
            #expect(dockerfile.contains(package), "the Dockerfile's build stage installs \(package)")
            #expect(install.contains(package), "scripts/install-deps installs \(package)")
        }
        // And the shared libraries linkd links against, in the run stage.
        for package in [
            "libpq5", "libmicrohttpd12", "libssl3", "zlib1g", "libqrencode4", "libcsv3", "libcurl4", "libyaml-0-2", "libmaxminddb0",
            "libargon2-1", "uap-core",
            "libjs-chart.js",
        ] {
            #expect(dockerfile.contains(package), "\(package)")
        }
        // The build stage gives the EmbedFiles plugin the console and the migrations; the binary carries them.
        #expect(dockerfile.contains("COPY migrations ./migrations") && dockerfile.contains("COPY console ./console"))
        #expect(
            !dockerfile.contains("/usr/share/linkd") && !dockerfile.contains("LINKD_MIGRATIONS_DIR")
                && !dockerfile.contains("LINKD_CONSOLE_DIR"))
        #expect(dockerfile.contains("/readyz"))
        for package in [
            "libpq-dev", "libmicrohttpd-dev", "libssl-dev", "postgresql", "python3-yaml", "caddy", "curl", "zlib1g-dev",
            "libcsv-dev", "libjs-chart.js", "chromium", "chromium-driver", "python3-selenium", "uap-core",
            "libmaxmind-db-writer-perl",
        ] {
            #expect(install.contains(package), "scripts/install-deps installs \(package)")
        }
    }
}
