/// A domain's ordered rules packed into one byte buffer: what a compiled domain keeps of its `LinkRule`s once their
/// files and matchers are built. A `LinkRule` inline is ~150 bytes plus an array and up to two strings on the heap
/// for its path template alone; packed, a typical rule is ~40 bytes. Resolve unpacks only the deciding rule.
///
/// Rule `i` is `bytes[ends[i - 1]..<ends[i]]`: its app list (an index into `appLists`, where equal lists are stored
/// once), a flags byte (`exclude`, `caseSensitive`, `percentEncoded`: 0 absent, 1 false, 2 true, two bits each), then
/// id, path, query, fragment, comment and destination (its type an index into `types`), each absent (0) or present
/// with its fields; numbers are LEB128, strings a length and their UTF-8 bytes.
struct PackedRules: Sendable {
    private let bytes: [UInt8]
    private let ends: [UInt32]
    private let appLists: [[String]]
    /// Destination types, stored once each (most rules of a domain name one of a few).
    private let types: [String]

    init(_ rules: [LinkRule]) {
        var writer = Writer()
        // (A typical rule packs into fewer than 48 bytes: one allocation for most domains.)
        writer.bytes.reserveCapacity(48 * rules.count)
        var ends: [UInt32] = []
        ends.reserveCapacity(rules.count)
        var appLists: [[String]] = []
        var listIndex: [[String]: Int] = [:]
        var types: [String] = []
        var typeIndex: [String: Int] = [:]
        for rule in rules {
            let list: Int
            if let last = appLists.last, last == rule.apps {
                list = appLists.count - 1
            } else if let known = listIndex[rule.apps] {
                list = known
            } else {
                list = appLists.count
                appLists.append(rule.apps)
                listIndex[rule.apps] = list
            }
            writer.number(list)
            writer.bytes.append(Self.flag(rule.exclude) | Self.flag(rule.caseSensitive) << 2 | Self.flag(rule.percentEncoded) << 4)
            writer.string(rule.id)
            writer.pattern(rule.path)
            switch rule.query {
            case nil: writer.bytes.append(0)
            case .string(let pattern)?:
                writer.bytes.append(1)
                writer.string(pattern)
            case .items(let items)?:
                writer.bytes.append(2)
                writer.number(items.count)
                for item in items {
                    writer.string(item.name)
                    writer.pattern(item.pattern)
                }
            }
            writer.pattern(rule.fragment)
            writer.optionalString(rule.comment)
            if let destination = rule.destination {
                writer.bytes.append(1)
                if let last = types.last, last == destination.type {
                    writer.number(types.count - 1)
                } else if let known = typeIndex[destination.type] {
                    writer.number(known)
                } else {
                    writer.number(types.count)
                    typeIndex[destination.type] = types.count
                    types.append(destination.type)
                }
                writer.number(destination.params.count)
                func write(_ name: String, _ source: DestinationBinding.Source) {
                    writer.string(name)
                    switch source {
                    case .capture(let capture):
                        writer.bytes.append(0)
                        writer.string(capture)
                    case .constant(let value):
                        writer.bytes.append(1)
                        writer.string(value)
                    }
                }
                // (Most rules bind no parameter or one: nothing to sort.)
                if destination.params.count <= 1 {
                    for (name, source) in destination.params { write(name, source) }
                } else {
                    for (name, source) in destination.params.sorted(by: { $0.key < $1.key }) { write(name, source) }
                }
            } else {
                writer.bytes.append(0)
            }
            ends.append(UInt32(writer.bytes.count))
        }
        bytes = writer.bytes.compacted()
        self.ends = ends
        self.appLists = appLists.compacted()
        self.types = types.compacted()
    }

    var count: Int { ends.count }

    /// Rule `index`, unpacked.
    subscript(index: Int) -> LinkRule { self[index, id: nil] }

    /// Rule `index`, unpacked, known as `id` when given (a domain reporting its own id for a rule compiled once for
    /// several domains).
    subscript(index: Int, id id: String?) -> LinkRule {
        var reader = Reader(bytes: bytes, offset: index == 0 ? 0 : Int(ends[index - 1]))
        let apps = appLists[reader.number()]
        let flags = reader.byte()
        let ruleID: String
        if let id {
            reader.skipString()
            ruleID = id
        } else {
            ruleID = reader.string()
        }
        let path = reader.pattern()
        let query: RuleQuery?
        switch reader.byte() {
        case 1:
            query = .string(reader.string())
        case 2:
            query = .items(
                (0..<reader.number()).map { _ in
                    let name = reader.string()
                    return RuleQueryItem(name: name, pattern: reader.pattern()!)
                })
        default:
            query = nil
        }
        let fragment = reader.pattern()
        let comment = reader.optionalString()
        var destination: DestinationBinding?
        if reader.byte() == 1 {
            let type = types[reader.number()]
            var params: [String: DestinationBinding.Source] = [:]
            for _ in 0..<reader.number() {
                let name = reader.string()
                params[name] = reader.byte() == 0 ? .capture(reader.string()) : .constant(reader.string())
            }
            destination = DestinationBinding(type: type, params: params)
        }
        return LinkRule(
            id: ruleID, apps: apps, path: path, query: query, fragment: fragment, exclude: Self.flag(flags),
            caseSensitive: Self.flag(flags >> 2),
            percentEncoded: Self.flag(flags >> 4), comment: comment, destination: destination
        )
    }

    /// Every rule, unpacked, in order.
    var all: [LinkRule] { (0..<count).map { self[$0] } }

    private static func flag(_ value: Bool?) -> UInt8 {
        switch value {
        case nil: 0
        case false?: 1
        case true?: 2
        }
    }

    private static func flag(_ bits: UInt8) -> Bool? {
        switch bits & 3 {
        case 1: false
        case 2: true
        default: nil
        }
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func number(_ value: Int) {
            LEB128.append(value, to: &bytes)
        }

        mutating func string(_ text: String) {
            number(text.utf8.count)
            bytes.append(contentsOf: text.utf8)
        }

        mutating func optionalString(_ text: String?) {
            guard let text else { bytes.append(0); return }
            bytes.append(1)
            string(text)
        }

        mutating func pattern(_ pattern: RulePattern?) {
            switch pattern {
            case nil:
                bytes.append(0)
            case .raw(let text)?:
                bytes.append(1)
                string(text)
            case .template(let template)?:
                bytes.append(2)
                number(template.elements.count)
                for element in template.elements {
                    switch element {
                    case .literal(let text):
                        bytes.append(0)
                        string(text)
                    case .capture(let name, let rest):
                        bytes.append(rest ? 2 : template.optionalCaptures.contains(name) ? 3 : 1)
                        string(name)
                    }
                }
            }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func number() -> Int {
            let (value, next) = LEB128.read(bytes, at: offset)
            offset = next
            return value
        }

        mutating func string() -> String {
            let length = number()
            defer { offset += length }
            return bytes.withUnsafeBufferPointer { String(decoding: $0[offset..<offset + length], as: UTF8.self) }
        }

        mutating func skipString() {
            offset += number()
        }

        mutating func optionalString() -> String? {
            byte() == 0 ? nil : string()
        }

        mutating func pattern() -> RulePattern? {
            switch byte() {
            case 1:
                return .raw(string())
            case 2:
                var optional: Set<String> = []
                let elements: [RouteTemplate.Element] = (0..<number()).map { _ in
                    let kind = byte()
                    let text = string()
                    if kind == 3 { optional.insert(text) }
                    return kind == 0 ? .literal(text) : .capture(name: text, rest: kind == 2)
                }
                return .template(RouteTemplate(elements: elements, optionalCaptures: optional))
            default:
                return nil
            }
        }
    }
}
