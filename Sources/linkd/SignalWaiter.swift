import Dispatch
import Foundation
import Synchronization

/// Observes SIGTERM and SIGINT from `init` on, and blocks in `wait()` until one has arrived.
///
/// Installed before the service starts, so a signal sent while it starts is not lost: it is held and answered
/// by a shutdown as soon as the start is done. Each signal is observed through a Dispatch source before it is
/// ignored at the process level (a handler running as ordinary code, not in a signal context, that may log).
final class SignalWaiter {
    private let received = DispatchSemaphore(value: 0)
    private let caught = SignalBox()
    private let sources: [DispatchSourceSignal]

    init() {
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            sources.append(source)
        }
        self.sources = sources
        for (source, number) in zip(sources, [SIGTERM, SIGINT]) {
            source.setEventHandler { [caught, received] in
                caught.set(number)
                received.signal()
            }
            source.resume()
            signal(number, SIG_IGN)
        }
    }

    /// Blocks until SIGTERM or SIGINT has arrived (since `init`), then returns its number.
    func wait() -> Int32 {
        received.wait()
        sources.forEach { $0.cancel() }
        return caught.value
    }
}

/// The number of the signal caught, shared with the sources' handlers.
private final class SignalBox: Sendable {
    private let number = Mutex<Int32>(0)
    func set(_ value: Int32) { number.withLock { $0 = value } }
    var value: Int32 { number.withLock { $0 } }
}
