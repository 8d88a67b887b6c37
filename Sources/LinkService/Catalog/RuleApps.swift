import Foundation
import Postgres

/// The apps of every rule, read in one unsorted pass over `rule_apps`: joining or sorting its rows in PostgreSQL
/// (two per rule, two million for the catalog benchmark) costs the server more than this map costs here.
///
/// Rule id → the rule's apps in `ordinal` order; identical lists (in a workspace, most rules name the same
/// apps) are stored once.
struct RuleApps {
    private var listOfRule: [UUID: Int32] = [:]
    private var lists = Lists()

    private struct Member: Hashable {
        let ordinal: Int32
        let app: UUID
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
            // One lookup of the rule (the map is large, so each lookup is a cache miss): its list is replaced in place.
            ruleApps.lists.add(Member(ordinal: ordinal, app: app), to: &ruleApps.listOfRule[rule, default: -1])
        }
        return ruleApps
    }

    /// Calls `body` with each app of `rule`, in order (none when it has no row).
    func forEachApp(of rule: UUID, _ body: (UUID) -> Void) {
        guard let list = listOfRule[rule] else { return }
        for member in lists.lists[Int(list)] { body(member.app) }
    }

    /// Distinct app lists, each sorted by ordinal.
    private struct Lists {
        var lists: [[Member]] = []
        var index: [[Member]: Int32] = [:]
        /// (list, member added) → the resulting list, so a row costs one small lookup and no allocation.
        var next: [Step: Int32] = [:]

        struct Step: Hashable {
            let list: Int32
            let member: Member
        }

        /// Replaces `list` (-1: none yet) with the list that also has `member`, in ordinal order.
        mutating func add(_ member: Member, to list: inout Int32) {
            let step = Step(list: list, member: member)
            if let known = next[step] {
                list = known
                return
            }
            var members = list < 0 ? [] : lists[Int(list)]
            members.insert(member, at: members.firstIndex { $0.ordinal > member.ordinal } ?? members.endIndex)
            let added: Int32
            if let existing = index[members] {
                added = existing
            } else {
                added = Int32(lists.count)
                lists.append(members)
                index[members] = added
            }
            next[step] = added
            list = added
        }
    }
}
