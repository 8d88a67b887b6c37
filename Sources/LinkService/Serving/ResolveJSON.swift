import Foundation
import LinkKit
import Observability

/// Writes resolve answers as JSON by hand: this is a hot path, and Foundation's encoder costs several
/// times more per response here (FIELD-NOTES).
///
/// `{"url":…,"outcome":"open_app","domain":…,"app":{…},"rule":{"id":…,"position":0},
///   "destination":{"type":"widgetDetail","params":{"id":42}},"fallbacks":{"web":…,"appStore":…,"playStore":…}}`
enum ResolveJSON {
    static func write(_ answer: Resolver.Answer, into out: inout String) {
        out += "{\"url\":"
        JSONString.append(answer.url, to: &out)
        out += ",\"outcome\":\""
        out += answer.outcome.rawValue
        out += "\",\"platform\":\""
        out += answer.platform.rawValue
        out += "\",\"domain\":"
        JSONString.append(answer.entry?.hostname ?? answer.parsed.host, to: &out)
        if let resolution = answer.resolution {
            if let app = resolution.app {
                out += ",\"app\":{\"id\":"
                JSONString.append(app.id, to: &out)
                out += ",\"platform\":\""
                out += app.platform.rawValue
                out += "\","
                out += app.platform == .ios ? "\"appId\":" : "\"packageName\":"
                JSONString.append(app.identifier, to: &out)
                out += "}"
            }
            if let rule = resolution.rule, let position = resolution.position {
                out += ",\"rule\":{\"id\":"
                JSONString.append(rule.id, to: &out)
                out += ",\"position\":\(position)}"
            }
            if let destination = resolution.destination {
                out += ",\"destination\":"
                write(destination, into: &out)
            }
        }
        out += ",\"fallbacks\":{"
        var first = true
        func member(_ key: String, _ value: String?) {
            guard let value else { return }
            if !first { out += "," }
            first = false
            out += key
            JSONString.append(value, to: &out)
        }
        member("\"web\":", answer.webFallback)
        member("\"appStore\":", answer.storeURL(for: .ios))
        member("\"playStore\":", answer.storeURL(for: .android))
        out += "}}"
    }

    static func write(_ destination: ResolvedDestination, into out: inout String) {
        switch destination {
        case .destination(let type, let params):
            out += "{\"type\":"
            JSONString.append(type, to: &out)
            out += ",\"params\":{"
            for (index, param) in params.enumerated() {
                if index > 0 { out += "," }
                JSONString.append(param.name, to: &out)
                out += ":"
                switch param.value {
                case .string(let text), .uuid(let text): JSONString.append(text, to: &out)
                case .int(let number): out += String(number)
                case .bool(let flag): out += flag ? "true" : "false"
                }
            }
            out += "}}"
        case .error(let error):
            out += "{\"error\":{\"code\":\"\(error.code.description)\""
            if let param = error.param {
                out += ",\"param\":"
                JSONString.append(param, to: &out)
            }
            out += ",\"detail\":"
            JSONString.append(error.detail, to: &out)
            out += "}}"
        }
    }
}
