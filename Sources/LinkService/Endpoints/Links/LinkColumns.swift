import LinkKit

/// The columns of an import format, each naming the member of a link's JSON body (`POST /v1/links`) it fills, as
/// an RFC 6901 pointer: a row becomes a body (`body(_:)`) checked as any other, and each problem found at a
/// pointer is reported at its column (`column(for:)`).
struct LinkColumns {
    let columns: [(name: String, pointer: String)]

    /// The column a problem at `pointer` (relative to the row's body) names: the column with the longest pointer
    /// that is `pointer` or above it; the row itself ("") when none is.
    func column(for pointer: String) -> String {
        var best: (name: String, length: Int)?
        for column in columns where pointer == column.pointer || pointer.hasPrefix(column.pointer + "/") {
            if column.pointer.count > best?.length ?? -1 { best = (column.name, column.pointer.count) }
        }
        if let best { return best.name }
        // A member above every column (`/destination`, `/campaign`): the first column under it.
        return columns.first { $0.pointer.hasPrefix(pointer + "/") }?.name ?? ""
    }

    /// A JSON object with each value at its pointer (`/campaign/source`), nested objects made as needed, in the
    /// order of `values`.
    static func body(_ values: [(pointer: String, value: JSONValue)]) -> JSONValue {
        var members: [JSONMember] = []
        for (pointer, value) in values {
            let path = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
            insert(value, at: path[...], into: &members)
        }
        return .object(members)
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into members: inout [JSONMember]) {
        guard let key = path.first else { return }
        guard path.count > 1 else {
            members.append(JSONMember(key: key, value: value))
            return
        }
        var inner: [JSONMember] = []
        if let index = members.firstIndex(where: { $0.key == key }), case .object(let found) = members[index].value {
            inner = found
            members.remove(at: index)
        }
        insert(value, at: path.dropFirst(), into: &inner)
        members.append(JSONMember(key: key, value: .object(inner)))
    }
}
