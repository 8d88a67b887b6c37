/// Stand-ins for the platform declarations the glue files use (UIKit, SwiftUI, UserNotifications; Android's
/// activity, intent, preferences and the Play Install Referrer library), which this machine has not: the suite
/// compiles the glue against them, so a glue file that calls what the router file lacks, or misspells its own
/// code, fails here. They declare only the members the glue uses, with the SDKs' names and types.
enum GlueStandIns {
    /// Swift: the glue is compiled with `#if canImport(UIKit)` made `#if true` and its platform imports removed.
    /// UIKit's scene values are main-actor isolated, as the SDK declares them (`NS_SWIFT_UI_ACTOR`).
    static let swift = #"""
        import Foundation

        public let NSUserActivityTypeBrowsingWeb = "NSUserActivityTypeBrowsingWeb"
        public final class NSUserActivity: Hashable {
            public let activityType: String
            public var webpageURL: URL?
            public init(activityType: String) { self.activityType = activityType }
            public static func == (a: NSUserActivity, b: NSUserActivity) -> Bool { a === b }
            public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        @MainActor public final class UIOpenURLContext: Hashable {
            public let url: URL
            public init(url: URL) { self.url = url }
            nonisolated public static func == (a: UIOpenURLContext, b: UIOpenURLContext) -> Bool { a === b }
            nonisolated public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        public final class UNNotificationContent { public var userInfo: [AnyHashable: Any] = [:] }
        public final class UNNotificationRequest {
            public var identifier: String { "request-1" }
            public let content = UNNotificationContent()
        }
        public final class UNNotification { public let request = UNNotificationRequest() }
        public final class UNNotificationResponse { public let notification = UNNotification() }
        public final class UNUserNotificationCenter { public static func current() -> UNUserNotificationCenter { UNUserNotificationCenter() } }
        public protocol UNUserNotificationCenterDelegate: AnyObject {
            func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
        }
        public class UIScene {
            @MainActor public final class ConnectionOptions {
                public var userActivities: Set<NSUserActivity> = []
                public var urlContexts: Set<UIOpenURLContext> = []
                public var notificationResponse: UNNotificationResponse?
            }
        }
        @MainActor public final class UIPasteboard {
            public static var general: UIPasteboard { UIPasteboard() }
            public var hasURLs: Bool { false }
            public var url: URL? { nil }
        }
        public protocol View {}
        public struct ModifiedContent: View {}
        extension View {
            public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { ModifiedContent() }
            public func onContinueUserActivity(_ activityType: String, perform action: @escaping (NSUserActivity) -> Void) -> some View { ModifiedContent() }
        }
        """#

    /// Kotlin: one file per package, as `(file name, text)`.
    static let kotlin: [(String, String)] = [
        ("AndroidApp.kt", """
            package android.app
            open class Activity : android.content.Context() {
                var intent: android.content.Intent? = null
                protected open fun onCreate(savedInstanceState: android.os.Bundle?) {}
                protected open fun onNewIntent(intent: android.content.Intent) {}
                fun runOnUiThread(action: () -> Unit) = action()
            }
            """),
        ("AndroidContent.kt", """
            package android.content
            open class Context
            class Intent(val data: android.net.Uri?, private val extras: Map<String, String>) {
                fun getStringExtra(name: String): String? = extras[name]
            }
            interface SharedPreferences {
                fun getBoolean(key: String, defValue: Boolean): Boolean
                fun edit(): Editor
                interface Editor {
                    fun putBoolean(key: String, value: Boolean): Editor
                    fun apply()
                }
            }
            """),
        ("AndroidNet.kt", """
            package android.net
            class Uri(private val text: String) {
                override fun toString(): String = text
            }
            """),
        ("AndroidOS.kt", """
            package android.os
            class Bundle
            """),
        ("InstallReferrer.kt", """
            package com.android.installreferrer.api
            abstract class InstallReferrerClient {
                abstract fun startConnection(listener: InstallReferrerStateListener)
                abstract fun endConnection()
                abstract val installReferrer: ReferrerDetails
                class Builder(val context: android.content.Context) {
                    fun build(): InstallReferrerClient = throw UnsupportedOperationException("a stand-in")
                }
                object InstallReferrerResponse {
                    const val OK = 0
                }
                companion object {
                    fun newBuilder(context: android.content.Context): Builder = Builder(context)
                }
            }
            class ReferrerDetails(val installReferrer: String)
            interface InstallReferrerStateListener {
                fun onInstallReferrerSetupFinished(responseCode: Int)
                fun onInstallReferrerServiceDisconnected()
            }
            """),
    ]
}
