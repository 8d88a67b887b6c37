import Foundation
import LinkKit
import LinkService
import Observability
import Postgres
import Synchronization

/// 30 s of hits offered at a fixed rate through `HitBatcher` (the same pipeline the service runs), next to
/// a raw `COPY` of prepared rows into `hits` measured in the same run.
struct IngestBenchmark {
    let parameters: ConnectionParameters
    let seconds: Double
    let baselineSeconds: Double
    /// Hits offered per second (`--rate`, or `--rate-of-copy` times the run's raw COPY, set once that is measured).
    var rate: Int
    let threads: Int
    let batch: Int
    let logger: Logger

    /// A pool of plausible hits: 3 workspaces, 3 hosts, 1,300 paths, 5 outcomes, 4 platforms, 10 % bots,
    /// half with a referrer, 20,000 visitors; a country, OS, browser and device class as their platform has them;
    /// the taps that open the app on 1,000 stored links, most with a campaign.
    /// - Parameter links: whether taps that open the app are on stored links, with campaigns (else none is).
    static func samples(count: Int = 10_000, links withLinks: Bool = true) -> [Hit] {
        var generator = SystemRandomNumberGenerator()
        let workspaces = (0..<3).map { _ in UUID() }
        let apps = (0..<2).map { _ in UUID() }
        let rules = (0..<12).map { _ in UUID() }
        let links = (0..<1000).map { _ in UUID() }
        return (0..<count).map { _ in
            let o = Int.random(in: 0..<100, using: &generator)
            let opens = o < 70
            // A link (of 1,000) lives on one host and opens one rule.
            let link = Int.random(in: 0..<1000, using: &generator)
            let host = opens ? link % 3 : Int.random(in: 0..<3, using: &generator)
            let rule = host * 4 + (opens ? link / 3 % 4 : Int.random(in: 0..<4, using: &generator))
            let outcome: Hit.Outcome = opens ? .openApp : o < 85 ? .noMatch : o < 90 ? .excluded : o < 95 ? .invalidParam : .unknownDomain
            let claimed = opens || outcome == .invalidParam
            var hit = Hit(
                workspaceID: workspaces[host % 3], hostname: "h\(host).bench.example",
                path: opens ? "/w/\(link)" : "/old/\(Int.random(in: 0..<300, using: &generator))",
                query: Bool.random(using: &generator) ? "utm_source=mail&id=\(o)" : nil, outcome: outcome,
                appID: claimed ? apps[rule % 2] : nil, ruleID: claimed ? rules[rule] : nil,
                destinationType: claimed ? "dest\(rule % 6)" : nil,
                source: Int.random(in: 0..<10, using: &generator) < 3 ? .resolve : .click,
                platform: DevicePlatform.allCases.randomElement(using: &generator)!, isBot: Int.random(in: 0..<10, using: &generator) == 0,
                referrerHost: Bool.random(using: &generator) ? "ref\(Int.random(in: 0..<20, using: &generator)).example" : nil,
                visitorHash: SHA256.hex("visitor-\(Int.random(in: 0..<20_000, using: &generator))").prefix(32).description
            )
            if opens, withLinks {
                hit.linkID = links[link]
                // 80% of the links have a campaign of their own (one of 30).
                if link % 10 >= 2 {
                    hit.campaign = Hit.Campaign(
                        source: ["newsletter", "twitter", "facebook", "google"][link % 4], campaign: "campaign-\(link % 30)")
                }
            }
            hit.country = ["US", "DE", "FR", "GB", "JP", "BR", "IN"].randomElement(using: &generator)
            switch hit.platform {
            case .ios: (hit.os, hit.browser, hit.device) = ("iOS", "Mobile Safari", .mobile)
            case .android: (hit.os, hit.browser, hit.device) = ("Android", "Chrome Mobile", .mobile)
            case .desktop: (hit.os, hit.browser, hit.device) = ("Windows", "Chrome", .desktop)
            case .other: hit.device = .other
            }
            if hit.isBot { hit.device = .bot }
            return hit
        }
    }

    /// What the raw COPY did: rows a second, and the CPU a row cost this client and PostgreSQL.
    struct Baseline {
        var rowsPerSecond: Double
        var clientMicros: Double
        var postgresMicros: Double
    }

    /// Raw COPY of the same rows, every column the pipeline writes, prepared once, 5,000 per COPY.
    func baseline(_ samples: [Hit]) throws -> Baseline {
        let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: logger)
        defer { pool.shutdown() }
        let columns =
            "time, workspace_id, hostname, path, query, outcome, app_id, rule_id, destination_type, source, platform, is_bot, referrer_host, "
            + "visitor_hash, served, link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, os, browser, device"
        let now = Date()
        let stamp = ISO8601DateFormatter().string(from: now)
        let rows: [[String?]] = samples.prefix(5_000).map { hit in
            [
                stamp, hit.workspaceID?.uuidString, hit.hostname, hit.path, hit.query, hit.outcome.rawValue, hit.appID?.uuidString,
                hit.ruleID?.uuidString,
                hit.destinationType, hit.source.rawValue, hit.platform.rawValue, hit.isBot ? "t" : "f", hit.referrerHost, hit.visitorHash,
                hit.served?.rawValue, hit.linkID?.uuidString, hit.utmSource, hit.utmMedium, hit.utmCampaign, hit.utmTerm, hit.utmContent,
                hit.country, hit.os, hit.browser, hit.device?.rawValue,
            ]
        }
        // Let the pipeline create today's partitions first (a batcher's maintenance), so both runs write alike.
        let warmup = try HitBatcher(pool: pool, configuration: HitsConfiguration(), logger: logger)
        warmup.shutdown()
        var copied = 0
        // Looked up before the clock starts: the query is not part of the COPY's time.
        let postmaster = try pool.withConnection(CPUTimes.postmaster(of:))
        let clock = ContinuousClock()
        let start = clock.now
        let (client, cpu) = (CPUTimes.thisThread(), CPUTimes.now(postmaster: postmaster))
        while clock.now - start < .seconds(baselineSeconds) {
            copied += try pool.withConnection { try $0.copyFrom(Query(unsafeSQL: "COPY hits (\(columns)) FROM STDIN"), rows: rows) }
        }
        let elapsed = (clock.now - start).seconds
        let (clientUsed, used) = (CPUTimes.thisThread() - client, CPUTimes.now(postmaster: postmaster).since(cpu))
        try pool.withConnection { try $0.executeScript("TRUNCATE hits") }
        return Baseline(
            rowsPerSecond: Double(copied) / elapsed, clientMicros: clientUsed * 1e6 / Double(copied),
            postgresMicros: used.postgres * 1e6 / Double(copied))
    }

    struct Result {
        var offered: Double
        var accepted: Int
        var written: Int
        var dropped: Int
        /// Hits the writer put in its spool (beyond a million queued while the database is up) during the run.
        var spooled: Int
        var inDatabase: Int
        var rolledUp: Int
        var loadSeconds: Double
        var drainSeconds: Double
        var maxQueued: Int
        var writtenDuringLoad: Int
        /// CPU used during the load, by thread name and PostgreSQL's; the producers' (request threads') apart.
        var cpu: CPUTimes
        var producerSeconds: Double
        var throughput: Double { Double(written) / (loadSeconds + drainSeconds) }
    }

    func pipeline(_ samples: [Hit]) throws -> Result {
        let pool = ConnectionPool(parameters: parameters, maxConnections: 4, logger: logger)
        defer { pool.shutdown() }
        let batcher = try HitBatcher(pool: pool, configuration: HitsConfiguration(maxBatchSize: batch), logger: logger)
        batcher.start()
        let running = Atomic<Bool>(true)
        let done = DispatchSemaphore(value: 0)
        let postmaster = try pool.withConnection(CPUTimes.postmaster(of:))
        let clock = ContinuousClock()
        let start = clock.now
        let perThread = Double(rate) / Double(threads)
        let producerMicros = Atomic<Int>(0)
        let cpu = CPUTimes.now(postmaster: postmaster)
        for thread in 0..<threads {
            Thread {
                let used = CPUTimes.thisThread()
                var sent = 0
                var index = thread * 997
                while running.load(ordering: .relaxed) {
                    let due = Int((clock.now - start).seconds * perThread) - sent
                    if due <= 0 { usleep(500); continue }
                    let time = Date()
                    for _ in 0..<due {
                        var hit = samples[index % samples.count]
                        hit.time = time
                        batcher.record(hit)
                        index += 1
                    }
                    sent += due
                }
                producerMicros.add(Int((CPUTimes.thisThread() - used) * 1e6), ordering: .relaxed)
                done.signal()
            }.start()
        }
        var maxQueued = 0
        var last = batcher.counters
        for second in 1...Int(seconds) {
            usleep(1_000_000)
            let now = batcher.counters
            maxQueued = max(maxQueued, now.queued)
            say(
                String(
                    format: "  t=%2ds accepted %9d (+%6d/s) written %9d (+%6d/s) queued %6d spooled %d dropped %d",
                    second, now.accepted, now.accepted - last.accepted, now.written, now.written - last.written, now.queued, now.spooled,
                    now.dropped))
            last = now
        }
        running.store(false, ordering: .relaxed)
        for _ in 0..<threads { done.wait() }
        let loadEnd = clock.now
        let writtenDuringLoad = batcher.counters.written
        let used = CPUTimes.now(postmaster: postmaster).since(cpu)
        batcher.shutdown()
        let drained = clock.now
        let counters = batcher.counters
        let (inDatabase, rolledUp) = try pool.withConnection { connection in
            (
                try connection.query("SELECT count(*)::int8 FROM hits").first!.decode(0, as: Int.self),
                // Rolled up: in the cubes, or pending (`HitFold`).
                try connection.query(
                    """
                    SELECT ((SELECT coalesce(sum(hits), 0) FROM hit_cubes_hourly WHERE cube = 1) + (SELECT coalesce(sum(hits), 0) FROM hit_rollups_pending))::int8
                    """
                ).first!.decode(0, as: Int.self)
            )
        }
        return Result(
            offered: Double(rate), accepted: counters.accepted, written: counters.written, dropped: counters.dropped,
            spooled: counters.spooledTotal,
            inDatabase: inDatabase, rolledUp: rolledUp, loadSeconds: (loadEnd - start).seconds, drainSeconds: (drained - loadEnd).seconds,
            maxQueued: maxQueued, writtenDuringLoad: writtenDuringLoad, cpu: used,
            producerSeconds: Double(producerMicros.load(ordering: .relaxed)) / 1e6)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
