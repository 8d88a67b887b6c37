import Testing
@testable import LinkKit

/// The matcher is a `Sendable` value: one compiled copy answers from many threads at once.
@Suite struct AASAMatcherConcurrencyTests {
    @Test func resolvesFromManyTasks() async throws {
        let components = (0..<500).map { AASAComponent(path: "/p\($0)/*", caseSensitive: $0 % 2 == 0 ? false : nil) }
        let matcher = AASAMatcher(AASAFile(applinks: AppLinks(details: [AppLinksDetail(appIDs: [appA], components: components)])))
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<500 {
                        let index = (n + task * 37) % 500
                        let resolution = matcher.resolve(try AASAURL("https://example.com/P\(index)/x"))
                        // Only the case-insensitive (even) rules accept the upper-case P.
                        if resolution.componentIndex != (index % 2 == 0 ? index : nil) { return false }
                    }
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 8 && results.allSatisfy { $0 })
    }
}
