import Observability

extension Catalog {
    /// `linkd_catalog_compilations_total` (`CompilationCounter`).
    func register(in metrics: MetricsRegistry) {
        metrics.gauge("linkd_catalog_compilations_total", help: "Domains compiled: by catalog loads and by validated rule changes.") {
            [self] in
            [([:], Double(compilationCount))]
        }
    }
}
