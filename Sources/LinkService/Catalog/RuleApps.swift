import Foundation
import Postgres

/// The apps of every rule, read in one unsorted pass over `rule_apps`: joining or sorting its rows in PostgreSQL
/// (two per rule, two million for the catalog benchmark) costs the server more than this map costs here.
///
/// Rule id → the rule's apps in `ordinal` order; identical lists (in a workspace, most rules name the same
/// apps) are stored once.
struct RuleApps {
    private var listOfRule: [UUID: Int32] = [:]
    private var lists: [[Member]] = []
    private var listIndex: [[Member]: Int32] = [:]
    /// (list, member added) → the resulting list, so a row costs two lookups and no allocation.
    private var next: [Step: Int32] = [:]

    private struct Member: Hashable {
        let ordinal: Int32
        let app: UUID
    }

    private struct Step: Hashable {
        let list: Int32
        let member: Member
    }

    /// Reads the apps of the rules `filter` selects (`r` is `rules`); `expectedRules` sizes the map up front.
    static func read(filter: String, expectedRules: Int, on connection: Connection) throws -> RuleApps {
        var ruleApps = RuleApps()
        ruleApps.listOfRule.reserveCapacity(expectedRules)
        try connection.copyOut(Query(unsafeSQL: """
            COPY (SELECT ra.rule_id, ra.app_id, ra.ordinal FROM rule_apps ra
                  \(filter.isEmpty ? "" : "WHERE ra.rule_id IN (SELECT r.id FROM rules r \(filter))")) TO STDOUT (FORMAT binary)
            """)) { row in
            guard let rule = row.uuid(0), let app = row.uuid(1), let ordinal = row.int32(2) else { return }
            ruleApps.add(Member(ordinal: ordinal, app: app), to: rule)
        }
        return ruleApps
    }

    /// Calls `body` with each app of `rule`, in order (none when it has no row).
    func forEachApp(of rule: UUID, _ body: (UUID) -> Void) {
        guard let list = listOfRule[rule] else { return }
        for member in lists[Int(list)] { body(member.app) }
    }

    private mutating func add(_ member: Member, to rule: UUID) {
        let from = listOfRule[rule] ?? -1
        let step = Step(list: from, member: member)
        if let known = next[step] {
            listOfRule[rule] = known
            return
        }
        var list = from < 0 ? [] : lists[Int(from)]
        list.insert(member, at: list.firstIndex { $0.ordinal > member.ordinal } ?? list.endIndex)
        let index: Int32
        if let existing = listIndex[list] {
            index = existing
        } else {
            index = Int32(lists.count)
            lists.append(list)
            listIndex[list] = index
        }
        next[step] = index
        listOfRule[rule] = index
    }
}
