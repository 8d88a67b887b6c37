// MARK: - The inbox of arriving links (the same in every generated file; docs/CODEGEN.md in linkd, "Arrivals")

/// Every link the app is opened with, whatever way it arrives: at cold launch, while running, in a notification's
/// payload, or as the deferred claim after the install (`LinkDeferredClaim`). It holds each destination until
/// the app says it is ready to show one (`appReady()`) and, for a destination that requires sign-in, until a
/// user is signed in (`userSignedIn()`); then it hands it out once, in the order the links arrived.
///
/// Held destinations are kept in a file (`storage`) whenever they change, so a link held while the person signs in
/// elsewhere (a web sign-in, another app) survives the process being ended meanwhile: the next process's inbox
/// reads them back and hands each out once. Keep one inbox per `storage` in a process.
///
/// Made with `events`, it reports each link it takes to linkd as an `open` (with the URL, whether or not this file
/// routes it: linkd attributes a stored link the table does not know), and the deferred claim reports the install.
///
/// Made with a `resolver`, it resolves a targeted link itself (`LinkRouter.decide` answers `needsResolve` for it: its
/// destination depends on the visitor): linkd's answer for `visitor` arrives later and is taken as a destination is,
/// handed to `onResolved` (when set: what the inbox hands out then), else held for the next call that hands out. When
/// linkd cannot be reached or does not answer in time, that destination is the explicit error
/// `invalid(code: "resolve_unavailable", …)`, never the rules' guess. Without a resolver a targeted link holds nothing
/// (the app may ask `LinkRouter.decide` and resolve it itself).
///
/// Every method returns the destinations to open now, in order (usually none or one). Thread-safe: links may
/// arrive on any thread while the UI reports readiness on the main one. It is `@unchecked Sendable` because
/// `lock` guards its only stored `var`, `state`, in every method (an `NSLock`: `Mutex` needs iOS 18), and
/// writes `storage` under it.
public final class LinkInbox: @unchecked Sendable {
    /// The key of a notification payload's link (`{"aps": {…}, "link": "https://…"}`), read by `receive(notification:)`.
    public static let notificationKey = "link"

    /// Where held destinations are kept by default: `linkd-held-links` in the app's Application Support folder.
    public static var defaultStorage: URL? {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?.appendingPathComponent("linkd-held-links")
    }

    /// How many notification identifiers are remembered to hand each notification's link out once.
    static let rememberedNotifications = 64

    private let lock = NSLock()
    private var state: State
    /// The file of held destinations (one resolve JSON a line); nil keeps them in memory only.
    public let storage: URL?
    /// Where the opens this inbox takes, and the install the deferred claim finds, are reported; nil for nowhere.
    public let events: LinkEvents?
    /// What resolves targeted links; nil: they are not taken.
    public let resolver: LinkResolveClient?
    /// The visitor targeted links are resolved for (their variant's key, country, languages, OS version).
    public let visitor: LinkResolveClient.Visitor

    /// Gets what the inbox hands out when a targeted link's destination arrives from `resolver` (on no particular
    /// thread: hop to the main one to show it); nil: that destination is held for the next call that hands out.
    public var onResolved: (@Sendable ([LinkDestination]) -> Void)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return state.onResolved
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            state.onResolved = newValue
        }
    }

    /// - Parameters:
    ///   - ready: whether the app can show a destination already.
    ///   - signedIn: whether a user is signed in already.
    ///   - storage: the file held destinations are kept in across launches (`defaultStorage`); nil for none.
    ///     Destinations it holds from an earlier process are held again, ahead of new ones.
    ///   - events: reports each link taken as an `open`, and the deferred claim's install (`LinkEvents`).
    ///   - resolver: resolves targeted links for `visitor`; nil takes none.
    ///   - visitor: the visitor `resolver` resolves for.
    ///   - onResolved: gets what the inbox hands out when a resolved destination arrives (`onResolved`).
    public init(
        ready: Bool = false, signedIn: Bool = false, storage: URL? = LinkInbox.defaultStorage, events: LinkEvents? = nil,
        resolver: LinkResolveClient? = nil, visitor: LinkResolveClient.Visitor = LinkResolveClient.Visitor(),
        onResolved: (@Sendable ([LinkDestination]) -> Void)? = nil
    ) {
        self.storage = storage
        self.events = events
        self.resolver = resolver
        self.visitor = visitor
        state = State(ready: ready, signedIn: signedIn, onResolved: onResolved)
        if let storage, let data = try? Data(contentsOf: storage) {
            // A destination this version of the app no longer has is dropped.
            state.held = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { LinkDestination(resolveJSON: String($0)) }
        }
    }

    /// Takes a destination (a deferred claim's, or one routed elsewhere).
    public func receive(_ destination: LinkDestination) -> [LinkDestination] {
        update { $0.held.append(destination) }
    }

    /// Takes a link the app was opened with: nothing is held when it is not a link of the app (`LinkRouter.route`).
    public func receive(_ url: URL) -> [LinkDestination] {
        receive(url.absoluteString)
    }

    /// Takes a link's text; nothing is held when it is not a link of the app. The open is reported either way. A
    /// targeted link is resolved by `resolver`: its destination arrives later (`onResolved`).
    public func receive(_ url: String) -> [LinkDestination] {
        events?.reportOpen(url: url)
        switch LinkRouter.decide(url) {
        case .open(let destination)?: return receive(destination)
        case .needsResolve(let link)?: resolve(link)
        case nil: break
        }
        return update { _ in }
    }

    /// Takes the link of a notification's payload (`userInfo`), under `notificationKey`; nothing without one.
    /// - Parameter identifier: the notification's identifier (`UNNotificationRequest.identifier`): a notification
    ///   given again (a cold launch reports its tap in the scene's options and to the notification center's
    ///   delegate) is taken once.
    public func receive(notification userInfo: [AnyHashable: Any], identifier: String? = nil) -> [LinkDestination] {
        guard let link = userInfo[Self.notificationKey] as? String else { return update { _ in } }
        let route = LinkRouter.decide(link)
        var taken = false
        let handed = update { state in
            if let identifier {
                guard !state.notifications.contains(identifier) else { return }
                state.notifications.append(identifier)
                if state.notifications.count > Self.rememberedNotifications { state.notifications.removeFirst() }
            }
            taken = true
            if case .open(let destination)? = route { state.held.append(destination) }
        }
        if taken {
            events?.reportOpen(url: link)
            if case .needsResolve(let targeted)? = route { resolve(targeted) }
        }
        return handed
    }

    /// Resolves the targeted link `url` with `resolver` (none: nothing) and takes its destination when it arrives:
    /// handed out to `onResolved`, or held without one.
    private func resolve(_ url: String) {
        guard let resolver else { return }
        let visitor = visitor
        Task {
            guard let destination = await resolver.resolve(url, visitor: visitor) else { return }
            var deliver: (@Sendable ([LinkDestination]) -> Void)?
            let handed = update { state in
                state.held.append(destination)
                deliver = state.onResolved
                state.holding = deliver == nil
            }
            if let deliver, !handed.isEmpty { deliver(handed) }
        }
    }

    /// Reports that the app can show destinations: returns what was held for it.
    public func appReady() -> [LinkDestination] {
        update { $0.ready = true }
    }

    /// Reports a signed-in user: returns the held destinations that waited for one.
    public func userSignedIn() -> [LinkDestination] {
        update { $0.signedIn = true }
    }

    /// Reports that no user is signed in any more: held destinations that require sign-in are dropped (they
    /// were meant for the user who was).
    public func userSignedOut() {
        _ = update { state in
            state.signedIn = false
            state.remove { $0.requiresSignIn }
        }
    }

    /// The destinations held now, in arrival order (to show that one waits for a sign-in, say).
    public var held: [LinkDestination] {
        lock.lock()
        defer { lock.unlock() }
        return state.held
    }

    /// Applies `change` and takes out what may be opened after it, under the lock; keeps the held ones in
    /// `storage` when they changed: arrivals are appended to the file, a removal writes it anew.
    private func update(_ change: (inout State) -> Void) -> [LinkDestination] {
        lock.lock()
        defer { lock.unlock() }
        let (count, removals) = (state.held.count, state.removals)
        change(&state)
        let handed = state.holding ? [] : state.release()
        state.holding = false
        guard let storage else { return handed }
        if state.removals != removals {
            Self.write(state.held, to: storage)
        } else if state.held.count > count {
            Self.append(state.held, from: count, to: storage)
        }
        return handed
    }

    /// Replaces `file` with `held` at once (atomically); an empty list removes it. A destination that cannot be
    /// written stays held in memory.
    private static func write(_ held: [LinkDestination], to file: URL) {
        guard !held.isEmpty else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(held.map { $0.json + "\n" }.joined().utf8).write(to: file, options: .atomic)
    }

    /// Adds the destinations of `held` from `start` on at the end of `file`, or writes all of them without one (a
    /// line cut short by the process ending is dropped when read).
    private static func append(_ held: [LinkDestination], from start: Int, to file: URL) {
        let lines = Data(held[start...].map { $0.json + "\n" }.joined().utf8)
        guard let handle = try? FileHandle(forWritingTo: file) else { return write(held, to: file) }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: lines)
    }

    private struct State {
        var ready: Bool
        var signedIn: Bool
        var held: [LinkDestination] = []
        /// The identifiers of the notifications taken lately, oldest first.
        var notifications: [String] = []
        /// How many times held destinations were removed (handed out or dropped): `storage` is written anew then.
        var removals = 0
        var onResolved: (@Sendable ([LinkDestination]) -> Void)?
        /// Set by a change that hands nothing out (a resolved destination with no `onResolved` to take it).
        var holding = false

        mutating func remove(where leaves: (LinkDestination) -> Bool) {
            let count = held.count
            held.removeAll(where: leaves)
            if held.count != count { removals += 1 }
        }

        /// Once the app is ready: every held destination that needs no user, or all of them with one, in order.
        mutating func release() -> [LinkDestination] {
            guard ready else { return [] }
            var out: [LinkDestination] = []
            let signedIn = signedIn
            remove { destination in
                let opens = signedIn || !destination.requiresSignIn
                if opens { out.append(destination) }
                return opens
            }
            return out
        }
    }
}
