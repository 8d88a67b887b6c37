import Dispatch
import Foundation
import Synchronization

/// Blocks until SIGTERM or SIGINT arrives, then returns its number.
///
/// The signals are ignored at the process level and observed through Dispatch sources, so the handler
/// runs as ordinary code (not in a signal context) and may log and shut down.
enum SignalWaiter {
    static func waitForTermination() -> Int32 {
        let received = DispatchSemaphore(value: 0)
        let caught = SignalBox()
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                caught.set(number)
                received.signal()
            }
            source.resume()
            sources.append(source)
        }
        received.wait()
        sources.forEach { $0.cancel() }
        return caught.value
    }
}

private final class SignalBox: Sendable {
    private let number = Mutex<Int32>(0)
    func set(_ value: Int32) { number.withLock { $0 = value } }
    var value: Int32 { number.withLock { $0 } }
}
