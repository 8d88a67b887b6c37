import ByteText
import Foundation
import LinkKit
import Observability

extension AASACommand {
    /// `linkd aasa bench [--rounds N] [--seconds S]` (hidden; run by `bench/matcher/run.sh`): resolutions per second
    /// for domains of 10, 1,000 and 10,000 rules with distinct literal prefixes, median of N rounds. `--resolve-only`
    /// times resolution of URLs parsed beforehand. `--hostile` times instead the costly rule sets of `hostileFile`
    /// against 7 KB paths; `--passes N` runs N untimed passes over every set's URLs (for callgrind).
    static func bench(_ arguments: Arguments) throws -> Int32 {
        let parsed = arguments.has("resolve-only")
        let rounds = Int(arguments.value("rounds") ?? "7") ?? 7
        let seconds = Double(arguments.value("seconds") ?? "0.3") ?? 0.3
        var generator = SplitMix64(seed: 42) // the same URLs every run
        var setups: [(rules: Int, matcher: AASAMatcher, urls: [String], prepared: [AASAURL], compile: Duration)] = []
        if arguments.has("hostile") {
            for infix in [false, true] {
                let file = hostileFile(infix: infix)
                var matcher = AASAMatcher(AASAFile())
                let compile = ContinuousClock().measure { matcher = AASAMatcher(file) }
                let path = infix ? String(repeating: "ab", count: 3_500) : String(repeating: "a", count: 7_000)
                // No rule matches: every rule is tried.
                let urls = (0..<8).map { "https://example.com/\(path)x\($0)" }
                setups.append(
                    (file.applinks?.details.first?.components?.count ?? 0, matcher, urls, try urls.map { try AASAURL($0) }, compile))
            }
        } else {
            for ruleCount in [10, 1_000, 10_000] {
                let file = benchFile(rules: ruleCount)
                var matcher = AASAMatcher(AASAFile())
                let compile = ContinuousClock().measure { matcher = AASAMatcher(file) }
                // URLs hitting rules spread over the whole file, plus misses, built before timing.
                let urls = (0..<1_024).map { n -> String in
                    let rule = Int(generator.next() % UInt64(ruleCount - 2))
                    return n % 8 == 7
                        ? "https://example.com/unknown/\(n)?utm_source=x" : "https://example.com/section\(rule)/item/\(n)?ref=mail#top"
                }
                setups.append((ruleCount, matcher, urls, try urls.map { try AASAURL($0) }, compile))
            }
        }
        if let passes = arguments.value("passes").flatMap({ Int($0) }) {
            var checksum = 0
            for setup in setups {
                for _ in 0..<passes {
                    for url in setup.urls { checksum &+= setup.matcher.resolve(try AASAURL(url)).componentIndex ?? -1 }
                }
            }
            Output.out("bench: \(passes) passes, checksum \(checksum)")
            return ExitStatus.success
        }
        // Rounds interleave the three sizes, so load from other processes hits them alike.
        var samples: [[Double]] = Array(repeating: [], count: setups.count)
        var checksum = 0
        for _ in 0..<rounds {
            for (index, setup) in setups.enumerated() {
                var count = 0
                let clock = ContinuousClock()
                let start = clock.now
                var elapsed = Duration.zero
                repeat {
                    if parsed {
                        for url in setup.prepared { checksum &+= setup.matcher.resolve(url).componentIndex ?? -1 }
                    } else {
                        for url in setup.urls { checksum &+= setup.matcher.resolve(try AASAURL(url)).componentIndex ?? -1 }
                    }
                    count += setup.urls.count
                    elapsed = clock.now - start
                } while elapsed < .milliseconds(Int(seconds * 1000))
                let total = elapsed.inSeconds
                samples[index].append(Double(count) / total)
            }
        }
        Output.err("bench: checksum \(checksum)")
        let results = setups.enumerated().map { index, setup in
            (rules: setup.rules, perSecond: samples[index].sorted()[rounds / 2], compile: setup.compile)
        }
        var text =
            "AASA matcher: resolutions/second (\(parsed ? "resolve of pre-parsed URLs" : "URL parse + resolve") across apps), median of \(rounds) rounds of ≥\(seconds)s\n"
        for result in results {
            let rules = String(result.rules).padding(toLength: 6, withPad: " ", startingAt: 0)
            text +=
                "  \(rules) rules: \(Int(result.perSecond)) /s, \(String(format: "%.1f", 1e6 / result.perSecond)) µs each  (compile \(result.compile.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1)))))\n"
        }
        let base = results[0].perSecond
        for result in results.dropFirst() where !arguments.has("hostile") {
            text += "  ratio rate(10) / rate(\(result.rules)): \(String(format: "%.2f", base / result.perSecond)) (the bar is ≤ 2.00)\n"
        }
        Output.out(text)
        return ExitStatus.success
    }

    /// A domain with `rules` components with distinct literal prefixes, an exclusion, a query rule and a catch-all
    /// for a second app, so that every resolution crosses the index and both apps.
    static func benchFile(rules: Int) -> AASAFile {
        var components: [AASAComponent] = [AASAComponent(fragment: "no_universal_links", exclude: true)]
        for index in 0..<rules - 2 {
            components.append(
                AASAComponent(
                    path: "/section\(index)/*", query: index % 3 == 0 ? .items([QueryItemPattern(name: "ref", pattern: "*")]) : nil))
        }
        components.append(AASAComponent(path: "/help/*", query: .items([QueryItemPattern(name: "article", pattern: "????")])))
        return AASAFile(
            applinks: AppLinks(details: [
                AppLinksDetail(appIDs: ["ABCDE12345.com.example.app"], components: components),
                AppLinksDetail(appIDs: ["ABCDE12345.com.example.other"], components: [AASAComponent(path: "/other/*")]),
            ]))
    }

    /// The costly rule sets of issue 27: 4,000 components `/*a*a*a*a*a*a*a*a*b<N>` (under 128 KB), or with `infix`
    /// the same followed by `*`, so that `b<N>` must be searched for rather than compared with the path's end.
    static func hostileFile(infix: Bool) -> AASAFile {
        let components = (0..<4_000).map { AASAComponent(path: "/*a*a*a*a*a*a*a*a*b\($0)" + (infix ? "*" : "")) }
        return AASAFile(applinks: AppLinks(details: [AppLinksDetail(appIDs: ["ABCDE12345.com.example.app"], components: components)]))
    }
}
