import CYAML
import Foundation

/// A YAML document read with libyaml, as a tree: what `regexes.yaml` and uap-core's test files hold (mappings,
/// sequences and scalars; no anchors are resolved, none are used there).
public enum YAMLNode: Sendable, Equatable {
    /// A scalar; nil for YAML's null (a plain empty value, `~`, `null`), which uap-core writes for absent fields.
    case scalar(String?)
    case sequence([YAMLNode])
    /// Members in the order written.
    case mapping([(key: String, value: YAMLNode)])

    public static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case let (.scalar(a), .scalar(b)): a == b
        case let (.sequence(a), .sequence(b)): a == b
        case let (.mapping(a), .mapping(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value of member `key` of a mapping (nil for other nodes or a missing member).
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The items of a sequence; empty for other nodes.
    public var items: [YAMLNode] {
        if case .sequence(let items) = self { return items }
        return []
    }

    /// The text of a scalar; nil for null and for other nodes.
    public var text: String? {
        if case .scalar(let text) = self { return text }
        return nil
    }

    /// The first document of the YAML file at `path`.
    /// - Throws: `UserAgentsError` (`.unreadable`, `.invalidYAML` with libyaml's problem and line).
    public static func load(contentsOf path: String) throws(UserAgentsError) -> YAMLNode {
        guard let data = FileManager.default.contents(atPath: path) else { throw UserAgentsError(.unreadable, path: path) }
        return try parse(Array(data), path: path)
    }

    /// The first document of `bytes` (`path` only names it in errors).
    static func parse(_ bytes: [UInt8], path: String) throws(UserAgentsError) -> YAMLNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw UserAgentsError(.invalidYAML, path: path, detail: "yaml_parser_initialize failed")
        }
        defer { yaml_parser_delete(&parser) }
        // Members being filled: a mapping's pending key is kept with it.
        enum Open {
            case sequence([YAMLNode])
            case mapping([(key: String, value: YAMLNode)], key: String?)
        }
        var stack: [Open] = []
        var root: YAMLNode?
        func add(_ node: YAMLNode) {
            guard let top = stack.popLast() else { return root = root ?? node }
            switch top {
            case .sequence(var items):
                items.append(node)
                stack.append(.sequence(items))
            case .mapping(var members, let key?):
                members.append((key, node))
                stack.append(.mapping(members, key: nil))
            case .mapping(let members, nil):
                // A key: uap-core's keys are scalars.
                stack.append(.mapping(members, key: node.text ?? ""))
            }
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(UserAgentsError) -> YAMLNode in
            // libyaml reads the input in place: the buffer outlives the parser (deleted above, before return).
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            while true {
                var event = yaml_event_t()
                // "yaml_parser_parse: returns 1 if the function succeeded, 0 on error"; the event is then empty.
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
                    throw UserAgentsError(.invalidYAML, path: path, detail: "\(problem) at line \(parser.problem_mark.line + 1)")
                }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                    let isNull = scalar.style == YAML_PLAIN_SCALAR_STYLE && (text.isEmpty || text == "~" || text == "null")
                    add(.scalar(isNull ? nil : text))
                case YAML_SEQUENCE_START_EVENT: stack.append(.sequence([]))
                case YAML_MAPPING_START_EVENT: stack.append(.mapping([], key: nil))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    switch stack.popLast() {
                    case .sequence(let items)?: add(.sequence(items))
                    case .mapping(let members, _)?: add(.mapping(members))
                    case nil: break
                    }
                case YAML_ALIAS_EVENT: add(.scalar(nil))
                case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT:
                    return root ?? .scalar(nil)
                default: break
                }
            }
        }
    }
}
