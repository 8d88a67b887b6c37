import Dispatch
import Glibc
import Synchronization

/// Runs the requests that would wait on something slow (the database) off libmicrohttpd's worker threads, so a
/// worker never waits and every answer served from memory stays quick whatever the database does
/// (docs/FAULTS.md, "A stalled database").
///
/// A worker runs each request first. When the request is about to wait, the code that would wait asks
/// `mayWait()`, which answers false on a worker and notes the ask; the request gives up (its answer is
/// discarded, neither logged nor counted), the worker suspends the connection (`MHD_suspend_connection`) and
/// hands the request over here, and one of `threads` handoff threads runs it again from the start, where waits
/// are allowed, then resumes the connection with the answer. So what a request does before it asks must leave
/// nothing behind: it is done twice.
///
/// `@unchecked Sendable`: `key` is created in `init` and deleted in `deinit`; its slots hold plain integers;
/// the queue lives behind `state`'s lock.
public final class Handoff: @unchecked Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var stopping = false
        var threads: [pthread_t] = []
    }

    /// The threads that run handed-off requests.
    public let threads: Int
    /// Per thread: absent on threads that may wait, `worker` on a worker, `asked` once a request on it asked.
    private let key: pthread_key_t
    private static let worker = 1
    private static let asked = 2
    private let state = Mutex(State())
    private let queued = DispatchSemaphore(value: 0)

    /// - Parameter threads: handoff threads (at least 1): how many handed-off requests wait at once; more queue.
    public init(threads: Int) {
        self.threads = max(1, threads)
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        self.key = key
    }

    deinit {
        pthread_key_delete(key)
    }

    /// Whether the calling thread may wait: false on a worker thread, whose request is then handed off (the ask is
    /// noted); true anywhere else (a handoff thread, a background thread).
    public func mayWait() -> Bool {
        guard slot != 0 else { return true }
        slot = Self.asked
        return false
    }

    /// Whether the request running on this worker thread asked to wait (its answer will be discarded).
    public var wasAsked: Bool { slot == Self.asked }

    /// The calling thread's slot: 0 (may wait), `worker` or `asked`.
    private var slot: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }

    /// Marks the calling thread as a worker, with no ask pending: before each request a worker runs.
    @inline(__always)
    func beginRequest() {
        slot = Self.worker
    }

    /// Whether the request that just ran on this worker asked to wait; clears the ask.
    func takeAsk() -> Bool {
        guard slot == Self.asked else { return false }
        slot = Self.worker
        return true
    }

    /// Queues `job` for the next free handoff thread; once stopping, runs it on the calling thread.
    func submit(_ job: @escaping @Sendable () -> Void) {
        let queuedIt = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.jobs.append(job)
            return true
        }
        guard queuedIt else { return job() }
        queued.signal()
    }

    /// Starts the handoff threads (once).
    func start() {
        let begin = state.withLock { state -> Bool in
            guard state.threads.isEmpty, !state.stopping else { return false }
            return true
        }
        guard begin else { return }
        var started: [pthread_t] = []
        for _ in 0..<threads {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(self).toOpaque()
            let result = pthread_create(
                &thread, nil,
                { raw in
                    let handoff = Unmanaged<Handoff>.fromOpaque(raw!).takeRetainedValue()
                    handoff.run()
                    return nil
                }, box)
            if result == 0 { started.append(thread) } else { Unmanaged<Handoff>.fromOpaque(box).release() }
        }
        state.withLock { $0.threads = started }
    }

    /// Runs what is queued, then stops the threads and waits for them. Idempotent. A job submitted after this
    /// (a kept-alive connection's request while the server drains) runs on the thread that submits it.
    func shutdown() {
        let threads = state.withLock { state -> [pthread_t] in
            state.stopping = true
            defer { state.threads = [] }
            return state.threads
        }
        for _ in threads { queued.signal() }
        for thread in threads { pthread_join(thread, nil) }
        while let job = next() { job() }
    }

    private func run() {
        while true {
            queued.wait()
            if let job = next() {
                job()
            } else if state.withLock({ $0.stopping }) {
                return
            }
        }
    }

    /// The oldest queued job; nil when none is (the thread was woken to stop).
    private func next() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard state.head < state.jobs.count else { return nil }
            let job = state.jobs[state.head]
            state.head += 1
            if state.head == state.jobs.count {
                state.jobs.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return job
        }
    }
}
