import LinkKit

extension Endpoint {
    /// `path`, a route template, printed with `values` for its parameters, each percent-encoded within its segment
    /// by LinkKit's `RouteTemplate.render` (ByteText's `Percent.encoded`). Values for other parameters than the
    /// template's are a programming error: a route renamed in its declaration stops its callers here.
    static func printing(_ path: String, _ values: [PathParameter: String]) -> String {
        let names = Set(values.keys.map(\.name))
        guard let template = try? RouteTemplate(path), names == Set(template.captureNames),
            let printed = template.render(Dictionary(uniqueKeysWithValues: values.map { ($0.key.name, $0.value) }))
        else {
            preconditionFailure("\(path) cannot be printed with \(names.sorted())")
        }
        return printed
    }
}

extension Endpoint {
    /// The first segment of `path` (`v1` of `/v1/apps`, `.well-known`): a literal in every route, which no link's
    /// slug may start with (`LinkSlug.reserved`).
    var firstSegment: String {
        String(path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first ?? "")
    }
}
