import LinkKit

/// The difference of two JSON documents as a list of JSON-Patch-like operations (RFC 6902's `add`, `remove`,
/// `replace`, each with its RFC 6901 `path`; `replace` also says what it replaces as `from`): objects member by
/// member, arrays element by element (an element added or removed at the end is one operation; elsewhere the
/// elements after it read as replaced).
enum JSONDifference {
    /// At most `limit` operations; `cut` says whether there were more.
    static func operations(from old: JSONValue, to new: JSONValue, limit: Int = 1_000) -> (operations: [JSONValue], cut: Bool) {
        var operations: [JSONValue] = []
        var cut = false
        func emit(_ op: String, _ path: String, value: JSONValue? = nil, from: JSONValue? = nil) {
            guard operations.count < limit else {
                cut = true
                return
            }
            var members = [JSONMember(key: "op", value: .string(op)), JSONMember(key: "path", value: .string(path))]
            if let from { members.append(JSONMember(key: "from", value: from)) }
            if let value { members.append(JSONMember(key: "value", value: value)) }
            operations.append(.object(members))
        }
        func walk(_ old: JSONValue, _ new: JSONValue, _ path: String) {
            guard old != new, !cut else { return }
            if let before = old.objectMembers, let after = new.objectMembers {
                for member in before {
                    let pointer = JSONPointer.appending(path, member.key)
                    if let now = after.first(where: { $0.key == member.key }) {
                        walk(member.value, now.value, pointer)
                    } else {
                        emit("remove", pointer, from: member.value)
                    }
                }
                for member in after where !before.contains(where: { $0.key == member.key }) {
                    emit("add", JSONPointer.appending(path, member.key), value: member.value)
                }
            } else if let before = old.arrayValue, let after = new.arrayValue {
                for index in 0..<min(before.count, after.count) { walk(before[index], after[index], JSONPointer.appending(path, index)) }
                if before.count > after.count {
                    // (From the end, so each path names an element that is there when it is applied.)
                    for index in (after.count..<before.count).reversed() {
                        emit("remove", JSONPointer.appending(path, index), from: before[index])
                    }
                }
                for index in before.count..<max(before.count, after.count) {
                    emit("add", JSONPointer.appending(path, index), value: after[index])
                }
            } else {
                emit("replace", path, value: new, from: old)
            }
        }
        walk(old, new, "")
        return (operations, cut)
    }
}
