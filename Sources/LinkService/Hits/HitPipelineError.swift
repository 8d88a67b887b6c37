/// Failures of the hit pipeline's own machinery (the spool); database failures stay `PostgresError`.
public struct HitPipelineError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public let description: String

    init(_ description: String) { self.description = description }
}
