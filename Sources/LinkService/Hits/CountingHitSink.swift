import Observability

/// Counts hits in `/metrics` by source and outcome. The stand-in until a sink that stores hits is wired.
struct CountingHitSink: HitSink {
    let metrics: MetricsRegistry

    func record(_ hit: Hit) {
        metrics.increment("linkd_hits_total", help: "Link hits by source and outcome.",
                          labels: ["source": hit.source.rawValue, "outcome": hit.outcome.rawValue])
    }
}
