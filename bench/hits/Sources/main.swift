import Foundation
import LinkService
import Observability
import Postgres

// hits-bench: see bench/hits/README.md. Options:
//   --seconds N (30)  --baseline-seconds N (10)  --rate HITS_PER_S (120000)  --threads N (2)
//   --rate-of-copy F (offer F times the run's raw COPY rows/s instead of --rate)
//   --batch N (HitsConfiguration's maxBatchSize)  --hits N (10000000)  --rounds N (15)  --only ingest|analytics|agents|events
//   --events N (300000)  --per-request N (500): events through POST /v1/events against raw COPY (only with --only events)
//   --no-fsync  --no-links (ingest samples without stored links and campaigns, as before issue 32)
//   --reuse (analytics on the database a previous run left in DATABASE_URL's cluster, migrated, not generated again)
let options: [String: String] = {
    var options: [String: String] = [:]
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        guard argument.hasPrefix("--") else { continue }
        let name = String(argument.dropFirst(2))
        if ["no-fsync", "no-links", "reuse"].contains(name) { options[name] = "1" } else { options[name] = arguments.popFirst() ?? "" }
    }
    return options
}()
func option(_ name: String, _ fallback: Int) -> Int { options[name].flatMap(Int.init) ?? fallback }

let logger = Logger(label: "hits-bench", level: .warning)
if options["only"] == "agents" {
    let (load, results) = try AgentBenchmark().run()
    say(
        String(format: "RESULT agents: uap-core regexes loaded and compiled in %.0f ms (%.0f ms with the device section)", load[0], load[1])
    )
    for (name, count, micros, p99) in results {
        say(String(format: "RESULT agents: %@: %d new agents, mean %.1f µs each, 99th percentile %.0f µs", name, count, micros, p99))
    }
    exit(0)
}
let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../migrations")
    .standardizedFileURL
let database = try BenchDatabase(logger: logger, durable: options["no-fsync"] == nil)
defer { database.close() }
say(
    "hits-bench: PostgreSQL \(options["no-fsync"] == nil ? "with fsync" : "without fsync"), \(ProcessInfo.processInfo.activeProcessorCount) cores"
)

if options["only"] == "events" {
    let bench = EventIngestBenchmark(
        parameters: try database.create("hits_bench_events", migrations: migrations), events: option("events", 300_000),
        perRequest: option("per-request", 500), threads: option("threads", 2), logger: logger)
    say(
        "events: \(bench.events) events, raw COPY of their rows, then POST /v1/events (\(bench.perRequest) a request, \(bench.threads) clients)"
    )
    let result = try bench.run()
    say(
        String(
            format: """
                RESULT events: raw COPY %.0f rows/s; POST /v1/events to stored %.0f events/s (%d stored in %.2f s); ratio %.2f
                """, result.copyRowsPerSecond, result.pipelineEventsPerSecond, result.stored, result.pipelineSeconds,
            result.pipelineEventsPerSecond / result.copyRowsPerSecond))
    exit(0)
}

if options["only"] == nil || options["only"] == "ingest" {
    var ingest = IngestBenchmark(
        parameters: try database.create("hits_bench_ingest", migrations: migrations), seconds: Double(option("seconds", 30)),
        baselineSeconds: Double(option("baseline-seconds", 10)), rate: option("rate", 120_000), threads: option("threads", 2),
        batch: option("batch", HitsConfiguration().maxBatchSize), logger: logger
    )
    let samples = IngestBenchmark.samples(links: options["no-links"] == nil)
    say("ingest: raw COPY baseline (\(Int(ingest.baselineSeconds)) s, 5,000 prepared rows per COPY)")
    let baseline = try ingest.baseline(samples)
    say(String(format: "  raw COPY: %.0f rows/s", baseline.rowsPerSecond))
    if let factor = options["rate-of-copy"].flatMap(Double.init) { ingest.rate = Int(factor * baseline.rowsPerSecond) }
    say("ingest: pipeline (HitBatcher) offered \(ingest.rate) hits/s for \(Int(ingest.seconds)) s from \(ingest.threads) threads")
    let result = try ingest.pipeline(samples)
    /// Seconds of CPU as µs per hit written during the load.
    func perHit(_ seconds: Double?) -> Double { (seconds ?? 0) * 1e6 / Double(max(result.writtenDuringLoad, 1)) }
    say(
        String(
            format: """
                RESULT ingest: accepted %d, written %d, in database %d, rolled up %d, dropped %d, spooled %d
                RESULT ingest: load %.1f s + drain %.2f s, written during load %d (%.0f/s), max queued %d
                RESULT ingest: pipeline %.0f hits/s end to end; raw COPY %.0f rows/s; ratio %.2f; written == accepted: %@
                RESULT ingest: CPU µs per hit written during the load: writer %.2f, fold %.2f, producers %.2f, PostgreSQL %.2f; \
                raw COPY per row: client %.2f, PostgreSQL %.2f
                """, result.accepted, result.written, result.inDatabase, result.rolledUp, result.dropped, result.spooled,
            result.loadSeconds, result.drainSeconds, result.writtenDuringLoad, Double(result.writtenDuringLoad) / result.loadSeconds,
            result.maxQueued,
            result.throughput, baseline.rowsPerSecond, result.throughput / baseline.rowsPerSecond,
            (result.written == result.accepted && result.inDatabase == result.accepted && result.dropped == 0) ? "yes" : "NO",
            perHit(result.cpu.threads["hits.writer"]), perHit(result.cpu.threads["hits.fold"]), perHit(result.producerSeconds),
            perHit(result.cpu.postgres), baseline.clientMicros, baseline.postgresMicros))
}

if options["only"] == nil || options["only"] == "analytics" {
    let reuse = options["reuse"] != nil
    let analytics = AnalyticsBenchmark(
        parameters: reuse
            ? try database.existing("hits_bench_analytics", migrations: migrations)
            : try database.create("hits_bench_analytics", migrations: migrations),
        migrations: migrations, hits: reuse ? nil : option("hits", 10_000_000), rounds: option("rounds", 15), logger: logger
    )
    say(
        "analytics: \(analytics.hits.map { "\($0) hits" } ?? "the hits generated before") over 30 days, median of \(analytics.rounds) requests per endpoint"
    )
    for (endpoint, median, bytes) in try analytics.run() {
        say(String(format: "RESULT analytics: %7.1f ms  %6d B  %@", median, bytes, endpoint))
    }
}
