import Foundation
import LinkKit
import Synchronization

/// The in-memory catalog: per hostname, the compiled domain and its rendered files. Reads never touch
/// the database; `ChangeFeed` and `CatalogChanges` keep it current.
public final class Catalog: Sendable {
    private struct State: Sendable {
        var entries: [String: CatalogEntry] = [:]
        var loadedAt: Date?
        /// When the catalog stopped being known to be current (database or listener lost), nil when current.
        var staleSince: Date?
        /// Each app's deciding domain and each custom scheme's app, derived from `entries` on first ask after an install.
        var apps: AppDomains?
    }

    private let state = Mutex(State())
    /// Counts installs: it changes after every `replace` and `replaceAll`, once the new entries are visible.
    /// Whatever was derived from entries read after seeing generation `g` is current while it is still `g`
    /// (`ResolveCache`).
    private let installs = Atomic<UInt64>(0)
    /// Domains compiled for this catalog.
    let compilations = CompilationCounter()

    public init() {}

    /// Read before the entries a derived value is computed from; see `installs`.
    var generation: UInt64 { installs.load(ordering: .acquiring) }

    /// The domain registered for `hostname` itself (exact, lower-case).
    func entry(exactly hostname: String) -> CatalogEntry? {
        state.withLock { $0.entries[hostname] }
    }

    /// The domain whose rules govern URLs on `host`: the exact hostname; else the wildcard whose file is
    /// served at `host` (`*.example.com` for `example.com`: Apple fetches a wildcard's file from its root,
    /// which then also answers for the root's own URLs); else the longest wildcard above it
    /// (`*.users.example.com` before `*.example.com`, docs/aasa-semantics.md §8).
    func entry(governing host: String) -> CatalogEntry? {
        let host = Self.lowercased(host)
        return state.withLock { state in
            if let exact = state.entries[host] ?? state.entries["*." + host] { return exact }
            var rest = Substring(host)
            while let dot = rest.firstIndex(of: ".") {
                rest = rest[rest.index(after: dot)...]
                if let wildcard = state.entries["*." + rest] { return wildcard }
            }
            return nil
        }
    }

    /// The domain whose association files are served at `host`: the exact hostname, else the wildcard
    /// `*.host` (Apple fetches a wildcard entitlement's file from the root domain).
    func entry(servedAt host: String) -> CatalogEntry? {
        let host = Self.lowercased(host)
        return state.withLock { $0.entries[host] ?? $0.entries["*." + host] }
    }

    /// `host` lower-cased; as it is when it already is (the usual case: `Request.host` is normalized), since
    /// `lowercased()` allocates a new string on every request.
    private static func lowercased(_ host: String) -> String {
        let lower = host.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 }
        }
        return lower == true ? host : host.lowercased()
    }

    /// The domains of a workspace, by hostname.
    func entries(workspace: UUID) -> [CatalogEntry] {
        state.withLock { $0.entries.values.filter { $0.workspaceID == workspace } }.sorted { $0.hostname < $1.hostname }
    }

    /// The app of `workspace` whose custom scheme is `scheme` (lower-case), with the domain whose rules its links
    /// follow (`AppDomains`); with no workspace (public resolve), only a scheme one workspace alone owns. With a
    /// platform, only that platform's app; without, either (the iOS one first).
    func owner(ofScheme scheme: String, platform: AppPlatform? = nil, workspace: UUID?) -> AppDomains.Owner? {
        appDomains { domains in
            platform.map { domains.owner(ofScheme: scheme, platform: $0, workspace: workspace) }
                ?? domains.owner(ofScheme: scheme, workspace: workspace)
        }
    }

    /// The app `id` with the domain that decides for it (`AppDomains`); nil when no domain's rules name it.
    func owner(ofApp id: UUID) -> AppDomains.Owner? {
        appDomains { $0.owner(ofApp: id.canonicalText) }
    }

    private func appDomains<T>(_ body: (AppDomains) -> T) -> T {
        state.withLock { state in
            if state.apps == nil { state.apps = AppDomains(state.entries.values) }
            return body(state.apps!)
        }
    }

    /// Replaces one hostname's entry (nil removes it: the domain was deleted).
    func replace(_ hostname: String, with entry: CatalogEntry?) {
        state.withLock { state in
            state.entries[hostname] = entry
            state.apps = nil
        }
        installs.add(1, ordering: .releasing)
    }

    /// Advances the generation without changing an entry: a domain's links changed, and answers derived before
    /// (`ResolveCache`) may name them.
    func linksChanged() {
        installs.add(1, ordering: .releasing)
    }

    /// Replaces everything (start, and after the listener reconnects).
    func replaceAll(_ entries: [CatalogEntry]) {
        let map = Dictionary(entries.map { ($0.hostname, $0) }, uniquingKeysWith: { _, last in last })
        state.withLock { state in
            state.entries = map
            state.apps = nil
            state.loadedAt = Date()
            state.staleSince = nil
        }
        installs.add(1, ordering: .releasing)
    }

    func markStale() {
        state.withLock { state in
            if state.staleSince == nil { state.staleSince = Date() }
        }
    }

    public var isLoaded: Bool { state.withLock { $0.loadedAt != nil } }
    public var staleSince: Date? { state.withLock { $0.staleSince } }
    public var count: Int { state.withLock { $0.entries.count } }
    /// Domains compiled for this catalog (`CompilationCounter`).
    public var compilationCount: Int { compilations.value }
}
