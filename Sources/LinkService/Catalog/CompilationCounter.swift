import Synchronization

/// Counts domain compilations (`CompiledDomain`s built by catalog loads and by validated writes), served as
/// `linkd_catalog_compilations_total`: a rule change compiles its domain once on the node that writes it.
final class CompilationCounter: Sendable {
    private let count = Atomic<Int>(0)

    func add(_ compilations: Int) {
        count.add(compilations, ordering: .relaxed)
    }

    var value: Int { count.load(ordering: .relaxed) }
}
