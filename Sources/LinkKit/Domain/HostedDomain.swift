/// A link domain's hostname with its compiled rules: what the generators (routers, Android manifests) read.
public struct HostedDomain: Sendable {
    public let hostname: String
    public let compiled: CompiledDomain

    public init(hostname: String, compiled: CompiledDomain) {
        self.hostname = hostname
        self.compiled = compiled
    }
}
