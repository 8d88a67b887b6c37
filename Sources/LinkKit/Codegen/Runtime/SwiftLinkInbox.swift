// MARK: - The inbox of arriving links (the same in every generated file; docs/CODEGEN.md in linkd, "Arrivals")

/// Every link the app is opened with, whatever way it arrives: at cold launch, while running, in a notification's
/// payload, or as the deferred claim after the install (`LinkDeferredClaim`). It holds each destination until
/// the app says it is ready to show one (`appReady()`) and, for a destination that requires sign-in, until a
/// user is signed in (`userSignedIn()`); then it hands it out once, in the order the links arrived.
///
/// Every method returns the destinations to open now, in order (usually none or one). Thread-safe: links may
/// arrive on any thread while the UI reports readiness on the main one. It is `@unchecked Sendable` because
/// `lock` guards its only stored `var`, `state`, in every method (an `NSLock`: `Mutex` needs iOS 18).
public final class LinkInbox: @unchecked Sendable {
    /// The key of a notification payload's link (`{"aps": {…}, "link": "https://…"}`), read by `receive(notification:)`.
    public static let notificationKey = "link"

    private let lock = NSLock()
    private var state: State

    /// - Parameters:
    ///   - ready: whether the app can show a destination already.
    ///   - signedIn: whether a user is signed in already.
    public init(ready: Bool = false, signedIn: Bool = false) {
        state = State(ready: ready, signedIn: signedIn)
    }

    /// Takes a destination (a deferred claim's, or one routed elsewhere).
    public func receive(_ destination: LinkDestination) -> [LinkDestination] {
        update { $0.held.append(destination) }
    }

    /// Takes a link the app was opened with: nothing is held when it is not a link of the app (`LinkRouter.route`).
    public func receive(_ url: URL) -> [LinkDestination] {
        receive(url.absoluteString)
    }

    /// Takes a link's text; nothing is held when it is not a link of the app.
    public func receive(_ url: String) -> [LinkDestination] {
        guard let destination = LinkRouter.route(url) else { return update { _ in } }
        return receive(destination)
    }

    /// Takes the link of a notification's payload (`userInfo`), under `notificationKey`; nothing without one.
    public func receive(notification userInfo: [AnyHashable: Any]) -> [LinkDestination] {
        guard let link = userInfo[Self.notificationKey] as? String else { return update { _ in } }
        return receive(link)
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
        lock.lock()
        defer { lock.unlock() }
        state.signedIn = false
        state.held.removeAll { $0.requiresSignIn }
    }

    /// The destinations held now, in arrival order (to show that one waits for a sign-in, say).
    public var held: [LinkDestination] {
        lock.lock()
        defer { lock.unlock() }
        return state.held
    }

    /// Applies `change` and takes out what may be opened after it, under the lock.
    private func update(_ change: (inout State) -> Void) -> [LinkDestination] {
        lock.lock()
        defer { lock.unlock() }
        change(&state)
        return state.release()
    }

    private struct State {
        var ready: Bool
        var signedIn: Bool
        var held: [LinkDestination] = []

        /// Once the app is ready: every held destination that needs no user, or all of them with one, in order.
        mutating func release() -> [LinkDestination] {
            guard ready else { return [] }
            var out: [LinkDestination] = []
            let signedIn = signedIn
            held.removeAll { destination in
                let opens = signedIn || !destination.requiresSignIn
                if opens { out.append(destination) }
                return opens
            }
            return out
        }
    }
}
