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

    /// Kotlin: one file per package, as `(file name, text)`. The members the glue calls have the SDK's signatures
    /// (a Java getter as a Kotlin property, a `static final` as a companion's `const`); what the JVM test drives
    /// besides (`LifecycleRegistry.handleLifecycleEvent`, `StandIns.referrerClient`) is marked as the test's.
    static let kotlin: [(String, String)] = [
        (
            "AndroidApp.kt",
            """
            package android.app
            open class Activity : android.content.Context() {
                open var intent: android.content.Intent? = null
                protected open fun onCreate(savedInstanceState: android.os.Bundle?) {}
                protected open fun onNewIntent(intent: android.content.Intent) {}
                // The SDK posts `action` to the main thread's queue when called on another; here it runs at once.
                fun runOnUiThread(action: Runnable) = action.run()
            }
            """
        ),
        (
            "AndroidContent.kt",
            """
            package android.content
            open class Context
            class Intent(var action: String?, var data: android.net.Uri?) {
                var flags: Int = 0
                private val extras = HashMap<String, String>()
                fun getStringExtra(name: String): String? = extras[name]
                fun putExtra(name: String, value: String?): Intent { if (value != null) extras[name] = value; return this }
                companion object {
                    const val ACTION_VIEW = "android.intent.action.VIEW"
                    const val ACTION_SEND = "android.intent.action.SEND"
                    const val FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY = 0x00100000
                }
            }
            interface SharedPreferences {
                fun getBoolean(key: String, defValue: Boolean): Boolean
                fun getString(key: String, defValue: String?): String?
                fun edit(): Editor
                interface Editor {
                    fun putBoolean(key: String, value: Boolean): Editor
                    fun putString(key: String, value: String?): Editor
                    fun apply()
                }
            }
            """
        ),
        (
            "AndroidNet.kt",
            """
            package android.net
            class Uri(private val text: String) {
                override fun toString(): String = text
            }
            """
        ),
        (
            "AndroidOS.kt",
            """
            package android.os
            class Bundle
            open class RemoteException(message: String?) : android.util.AndroidException(message)
            """
        ),
        (
            "AndroidUtil.kt",
            """
            package android.util
            open class AndroidException(message: String?) : Exception(message)
            """
        ),
        (
            "Lifecycle.kt",
            """
            package androidx.lifecycle
            abstract class Lifecycle {
                abstract fun addObserver(observer: LifecycleObserver)
                abstract fun removeObserver(observer: LifecycleObserver)
                abstract val currentState: State
                enum class Event { ON_CREATE, ON_START, ON_RESUME, ON_PAUSE, ON_STOP, ON_DESTROY, ON_ANY }
                enum class State {
                    DESTROYED, INITIALIZED, CREATED, STARTED, RESUMED;
                    fun isAtLeast(state: State): Boolean = compareTo(state) >= 0
                }
            }
            interface LifecycleObserver
            interface LifecycleEventObserver : LifecycleObserver {
                fun onStateChanged(source: LifecycleOwner, event: Lifecycle.Event)
            }
            interface LifecycleOwner {
                val lifecycle: Lifecycle
            }
            class LifecycleRegistry(private val owner: LifecycleOwner) : Lifecycle() {
                private val observers = ArrayList<LifecycleObserver>()
                override var currentState: State = State.INITIALIZED
                override fun addObserver(observer: LifecycleObserver) { observers.add(observer) }
                override fun removeObserver(observer: LifecycleObserver) { observers.remove(observer) }
                // The states each event leads to, as the SDK's `Event.getTargetState`.
                fun handleLifecycleEvent(event: Event) {
                    currentState = when (event) {
                        Event.ON_CREATE, Event.ON_STOP -> State.CREATED
                        Event.ON_START, Event.ON_PAUSE -> State.STARTED
                        Event.ON_RESUME -> State.RESUMED
                        Event.ON_DESTROY -> State.DESTROYED
                        Event.ON_ANY -> currentState
                    }
                    for (observer in observers.toList()) (observer as? LifecycleEventObserver)?.onStateChanged(owner, event)
                }
            }
            """
        ),
        (
            "Activities.kt",
            """
            package androidx.activity
            open class ComponentActivity : android.app.Activity(), androidx.lifecycle.LifecycleOwner {
                private val registry = androidx.lifecycle.LifecycleRegistry(this)
                override val lifecycle: androidx.lifecycle.Lifecycle get() = registry
            }
            """
        ),
        (
            "AppCompat.kt",
            """
            package androidx.appcompat.app
            open class AppCompatActivity : androidx.activity.ComponentActivity()
            """
        ),
        (
            "InstallReferrer.kt",
            """
            package com.android.installreferrer.api
            abstract class InstallReferrerClient {
                abstract fun startConnection(listener: InstallReferrerStateListener)
                abstract fun endConnection()
                @get:Throws(android.os.RemoteException::class)
                abstract val installReferrer: ReferrerDetails
                class Builder(val context: android.content.Context) {
                    // The test's: the client it set.
                    fun build(): InstallReferrerClient = StandIns.referrerClient ?: throw UnsupportedOperationException("a stand-in")
                }
                object InstallReferrerResponse {
                    const val SERVICE_DISCONNECTED = -1
                    const val OK = 0
                    const val SERVICE_UNAVAILABLE = 1
                    const val FEATURE_NOT_SUPPORTED = 2
                    const val DEVELOPER_ERROR = 3
                    const val PERMISSION_ERROR = 4
                }
                companion object {
                    @JvmStatic fun newBuilder(context: android.content.Context): Builder = Builder(context)
                }
            }
            class ReferrerDetails(val installReferrer: String)
            interface InstallReferrerStateListener {
                fun onInstallReferrerSetupFinished(responseCode: Int)
                fun onInstallReferrerServiceDisconnected()
            }
            // The test's.
            object StandIns {
                @Volatile var referrerClient: InstallReferrerClient? = null
            }
            """
        ),
    ]
}
