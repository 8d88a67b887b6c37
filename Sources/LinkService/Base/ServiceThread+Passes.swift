import Dispatch
import Observability

extension ServiceThread {
    /// Starts the loop of a service that works in passes (docs/DESIGN.md, "Adding a background service"): `pass`
    /// runs at once, then again after the rest it answers (nil: at once), which a `wake()` ends early, until the
    /// thread is stopping. A pass that throws is logged as a warning, `failure` saying what could not be done, and
    /// the next one comes after `retry`. Only the first call before `stop()` starts one; it returns whether it did.
    @discardableResult
    func startPasses(
        retry: DispatchTimeInterval, logger: Logger, failure: String, _ pass: @escaping @Sendable () throws -> DispatchTimeInterval?
    ) -> Bool {
        start { [self] in
            while !isStopping {
                let rest: DispatchTimeInterval?
                do {
                    rest = try pass()
                } catch {
                    logger.warning(failure, metadata: ["error": "\(error)"])
                    rest = retry
                }
                // A stop while the pass ran may have spent its one wake on a rest inside the pass: no rest then.
                if isStopping { return }
                if let rest, sleep(until: .now() + rest) { return }
            }
        }
    }

    /// `startPasses` with a pass every `period` (or at a `wake()`), the next one after `period` too when one throws.
    @discardableResult
    func startPasses(
        every period: DispatchTimeInterval, logger: Logger, failure: String, _ pass: @escaping @Sendable () throws -> Void
    ) -> Bool {
        startPasses(retry: period, logger: logger, failure: failure) {
            try pass()
            return period
        }
    }
}
