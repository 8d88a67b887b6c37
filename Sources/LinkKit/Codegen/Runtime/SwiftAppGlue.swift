// The platform glue of `Links.swift` (docs/CODEGEN.md in linkd, "Arrivals"): where iOS hands the app a link, to
// `LinkInbox`. Thin on purpose: every decision is in `Links.swift`, which linkd's suite tests; this file only
// reads UIKit's, SwiftUI's and UserNotifications' values, and compiles to nothing where UIKit is absent.
#if canImport(UIKit)
import SwiftUI
import UIKit
import UserNotifications

extension View {
    /// Hands the links SwiftUI opens the app with to `inbox`: `onOpenURL` (custom-scheme URLs, and universal
    /// links) and `onContinueUserActivity` for browsing-web activities. `open` gets what the inbox hands out,
    /// on the main thread.
    public func linkInbox(_ inbox: LinkInbox, open: @escaping ([LinkDestination]) -> Void) -> some View {
        onOpenURL { url in open(inbox.receive(url)) }
            .onContinueUserActivity(NSUserActivityTypeBrowsingWeb) { activity in open(inbox.receive(activity)) }
    }
}

extension LinkInbox {
    /// A UIKit scene's links at cold launch (`scene(_:willConnectTo:options:)`): its browsing-web activities,
    /// its URL contexts and the notification response it was launched from. On the main actor, as UIKit's values are.
    @MainActor public func receive(_ options: UIScene.ConnectionOptions) -> [LinkDestination] {
        var handed: [LinkDestination] = []
        for activity in options.userActivities { handed += receive(activity) }
        handed += receive(options.urlContexts)
        if let response = options.notificationResponse { handed += receive(response) }
        return handed
    }

    /// A universal link while running (`scene(_:continue:)`): only a browsing-web activity carries one.
    public func receive(_ activity: NSUserActivity) -> [LinkDestination] {
        guard activity.activityType == NSUserActivityTypeBrowsingWeb, let url = activity.webpageURL else { return [] }
        return receive(url)
    }

    /// Custom-scheme URLs while running (`scene(_:openURLContexts:)`).
    @MainActor public func receive(_ contexts: Set<UIOpenURLContext>) -> [LinkDestination] {
        contexts.flatMap { receive($0.url) }
    }

    /// A tapped notification (`userNotificationCenter(_:didReceive:)`): the link under `LinkInbox.notificationKey`
    /// in its payload, taken once per notification (a cold launch reports the tap in the scene's options too).
    public func receive(_ response: UNNotificationResponse) -> [LinkDestination] {
        let request = response.notification.request
        return receive(notification: request.content.userInfo, identifier: request.identifier)
    }
}

extension LinkDeferredClaim {
    /// The token of the claim link on the pasteboard, read only before this install has claimed and when one of
    /// the app's domains opted in to pasteboard claims (reading the pasteboard asks the user's permission).
    @MainActor public func pasteboardToken() -> String? {
        guard !hasClaimed, !LinkRouter.claimDomains.isEmpty, UIPasteboard.general.hasURLs,
              let url = UIPasteboard.general.url else { return nil }
        return Self.token(fromClaimLink: url.absoluteString)
    }
}
#endif
