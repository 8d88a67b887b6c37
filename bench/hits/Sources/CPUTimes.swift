import Foundation
import Postgres

/// CPU seconds (user + system) read from `/proc`: this process's threads by name, and PostgreSQL's processes, so a
/// run can say what each hit cost where, whatever else the machine was doing.
struct CPUTimes {
    /// Seconds per thread name of this process, as the system shows them (`ServiceThread.systemName`:
    /// `hits.writer`); threads that ended are not counted, so a run reads them before stopping the threads.
    var threads: [String: Double] = [:]
    /// Seconds of one PostgreSQL cluster: its postmaster and that one's children, with what its ended children used
    /// (a backend that exits is counted in the postmaster's children's time). Other clusters are left out: one that
    /// stops while this is measured would take its time away.
    var postgres: Double = 0

    /// This thread's CPU seconds so far.
    static func thisThread() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The postmaster of the cluster `connection` is on, when it runs on this machine.
    static func postmaster(of connection: Connection) throws -> Int32? {
        let backend = try connection.query("SELECT pg_backend_pid()").first!.decode(0, as: Int.self)
        return stat("/proc/\(backend)/stat").map(\.parent)
    }

    /// The times now; PostgreSQL's of the cluster whose postmaster is `postmaster` (0 without one).
    static func now(postmaster: Int32?) -> CPUTimes {
        var times = CPUTimes()
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
            guard let stat = Self.stat("/proc/self/task/\(task)/stat") else { continue }
            times.threads[stat.name, default: 0] += stat.own
        }
        guard let postmaster else { return times }
        for process in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where process.allSatisfy(\.isNumber) {
            guard let stat = Self.stat("/proc/\(process)/stat"), Int32(process) == postmaster || stat.parent == postmaster else { continue }
            times.postgres += stat.own + stat.children
        }
        return times
    }

    /// What was used between `earlier` and this reading.
    func since(_ earlier: CPUTimes) -> CPUTimes {
        CPUTimes(
            threads: threads.merging(earlier.threads.mapValues { -$0 }, uniquingKeysWith: +),
            postgres: postgres - earlier.postgres)
    }

    /// A `stat` file's command name, parent process and its own and its ended children's CPU seconds (fields 2, 4
    /// and 14-17, proc(5)).
    private static func stat(_ path: String) -> (name: String, parent: Int32, own: Double, children: Double)? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state), so field N is fields[N - 3].
        guard fields.count > 14, let parent = Int32(fields[1]), let user = Double(fields[11]), let system = Double(fields[12]),
            let childUser = Double(fields[13]), let childSystem = Double(fields[14])
        else { return nil }
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (String(text[text.index(after: open)..<close]), parent, (user + system) / tick, (childUser + childSystem) / tick)
    }
}
