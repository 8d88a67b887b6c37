/// The limits of a bounded pool view (`ConnectionPool.bounded`), for threads that serve other work besides the
/// database and must not be held by it (HTTP workers):
///
/// - at most `maxBorrowers` borrowers at once; one more waits for a turn at most `turnPatience`, and not at all
///   while a borrower inside has held its turn longer than that (the database is slow: refuse at once);
/// - a borrower waits at most `timeout` for a connection (opening one included) and then for each statement,
///   after which the connection is given up (`Connection+Deadline`);
/// - once such a wait has timed out, the database is taken as stalled: every borrower is refused at once
///   (`.stalled`) until a check of its own, every `retryInterval`, finds it answering again;
/// - a borrower on a thread that must not wait at all (`mayWait` says no: an HTTP worker, whose request is then
///   handed to a thread that may) is refused before anything else (`.mustNotWait`).
public struct BoundedWaits: Sendable {
    /// The longest wait for a connection, and for each statement's answer.
    public var timeout: Duration
    /// Borrowers at once (at least 1).
    public var maxBorrowers: Int
    /// The longest wait for a turn while the borrowers inside are quick.
    public var turnPatience: Duration
    /// The pause between checks of a stalled database.
    public var retryInterval: Duration
    /// Asked at each borrow: false refuses it with `.mustNotWait` before it takes a turn (nil: every thread may
    /// wait). Called on the borrowing thread; must be quick and take no lock a borrower holds.
    public var mayWait: (@Sendable () -> Bool)?

    public init(
        timeout: Duration, maxBorrowers: Int, turnPatience: Duration = .milliseconds(250),
        retryInterval: Duration = .milliseconds(500), mayWait: (@Sendable () -> Bool)? = nil
    ) {
        self.timeout = timeout
        self.maxBorrowers = max(1, maxBorrowers)
        self.turnPatience = turnPatience
        self.retryInterval = retryInterval
        self.mayWait = mayWait
    }
}
