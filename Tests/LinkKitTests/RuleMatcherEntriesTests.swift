import Testing
@testable import LinkKit

/// Entries are stored as detail starts and (unless entry `i` is rule `i`) each entry's rule.
@Suite struct RuleMatcherEntriesTests {
    @Test func identityTakesNoRules() {
        let entries = RuleMatcher.Entries([[0, 1], [2]])
        #expect(entries.count == 3)
        #expect(entries.all.map { [$0.rule, $0.detail, $0.component] } == [[0, 0, 0], [1, 0, 1], [2, 1, 0]])
        #expect(entries != RuleMatcher.Entries([[0], [1, 2]]), "different details")
    }

    @Test func rulesRepeatedAndEmptyDetails() {
        let entries = RuleMatcher.Entries([[], [0, 1, 2], [], [1, 2]])
        #expect(entries.count == 5)
        #expect(entries.all.map { [$0.rule, $0.detail, $0.component] } == [[0, 1, 0], [1, 1, 1], [2, 1, 2], [1, 3, 0], [2, 3, 1]])
        #expect(entries.rule(3) == 1)
    }
}
