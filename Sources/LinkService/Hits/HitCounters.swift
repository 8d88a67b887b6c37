/// A snapshot of the hit pipeline's counters (also exported on `/metrics`).
///
/// Invariant while nothing is in flight: `accepted == written + queued + spooled + dropped` (plus hits
/// replayed from a spool left by an earlier process, which count as written only).
public struct HitCounters: Sendable, Equatable {
    /// Hits handed to `record` since start.
    public var accepted: Int
    /// Hits committed to the database since start.
    public var written: Int
    /// Hits in memory, waiting for the writer (including a batch being written).
    public var queued: Int
    /// Hits in spool files now, waiting for the database.
    public var spooled: Int
    /// Hits ever appended to the spool since start.
    public var spooledTotal: Int
    /// Hits lost: over the hard memory limit, recorded after shutdown, or rejected by the database row by row.
    public var dropped: Int
}
