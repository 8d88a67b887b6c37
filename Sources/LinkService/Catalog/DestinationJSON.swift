import ByteText
import LinkKit

/// Writes a typed destination or explicit error as resolve answers it (`{"type":…,"params":{…}}` or
/// `{"error":{"code":…,"param":…,"detail":…}}`): one writer for resolve answers (`ResolveJSON`), what a change of
/// rules moves (`URLDecision`) and codegen's tables (`CodegenHandlers`).
enum DestinationJSON {
    static func write(_ destination: ResolvedDestination, into out: inout [UInt8]) {
        switch destination {
        case .destination(let type, let params):
            out.append(literal: "{\"type\":")
            JSONString.append(type, to: &out)
            out.append(literal: ",\"params\":{")
            for (index, param) in params.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.append(param.name, to: &out)
                out.append(UInt8(ascii: ":"))
                switch param.value {
                case .string(let text), .uuid(let text): JSONString.append(text, to: &out)
                case .int(let number): out.append(contentsOf: String(number).utf8)
                case .bool(let flag): out.append(literal: flag ? "true" : "false")
                }
            }
            out.append(literal: "}}")
        case .error(let error):
            out.append(literal: "{\"error\":{\"code\":")
            JSONString.append(error.code.description, to: &out)
            if let param = error.param {
                out.append(literal: ",\"param\":")
                JSONString.append(param, to: &out)
            }
            out.append(literal: ",\"detail\":")
            JSONString.append(error.detail, to: &out)
            out.append(literal: "}}")
        }
    }
}
