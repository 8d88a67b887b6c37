// MARK: - An iOS app decides as iOS does (docs/CODEGEN.md in linkd)

extension LinkRouter {
    /// None: an iOS app's domains decide by the association file's components alone, so this file carries no
    /// Android matcher (an Android app's router file does).
    static func androidMatcher(path: [UInt8], query: [UInt8], fragment: [UInt8]) -> (([Int], Bool) -> (entry: Int, rule: Int)?)? { nil }
}
