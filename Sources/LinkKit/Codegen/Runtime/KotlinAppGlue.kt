// The platform glue of `Links.kt` (docs/CODEGEN.md in linkd, "Arrivals"): where Android hands the app a link, to
// `LinkInbox`. Thin on purpose: every decision is in `Links.kt`, which linkd's suite tests; this file only reads
// Android's values. Needs AndroidX Lifecycle (any `ComponentActivity`, `AppCompatActivity` or `FragmentActivity` has
// it) and the Play Install Referrer library (`com.android.installreferrer:installreferrer:2.2`).

import android.app.Activity
import android.content.Intent
import android.content.SharedPreferences
import android.os.Bundle
import android.os.RemoteException
import androidx.lifecycle.Lifecycle
import androidx.lifecycle.LifecycleEventObserver
import androidx.lifecycle.LifecycleOwner
import com.android.installreferrer.api.InstallReferrerClient
import com.android.installreferrer.api.InstallReferrerStateListener

/**
 * Hands an activity's links to the app's [inbox], and what the inbox hands out to `open`, on the main thread and
 * only while the activity is started: a link that arrives while it is stopped, being recreated (a rotation) or
 * gone stays in the inbox until an activity that is started takes it. Any activity with a lifecycle (Compose's
 * `ComponentActivity`, `AppCompatActivity`) calls [attach] in `onCreate` and [receive] in `onNewIntent`; nothing
 * to inherit. Starting the activity is what makes the app ready (`LinkInbox.appReady`).
 *
 * Only `ACTION_VIEW` intents' data are read (an App Link, the app's scheme), and a notification's `link` extra;
 * an activity reopened from Recents (`FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY`) or recreated replays nothing. A targeted
 * link the inbox resolves (its `resolver`) is opened the same way when linkd's answer arrives: [attach] sets the
 * inbox's `onResolved`.
 */
class LinkArrivals private constructor(
    private val activity: Activity,
    private val lifecycle: Lifecycle,
    /** The app's inbox (one for the process, in the `Application`). */
    val inbox: LinkInbox,
    /** Whether the activity was created afresh (not recreated from a saved state, after a rotation or process death). */
    private val fresh: Boolean,
    private val open: (List<LinkDestination>) -> Unit
) : LifecycleEventObserver {
    override fun onStateChanged(source: LifecycleOwner, event: Lifecycle.Event) {
        when (event) {
            Lifecycle.Event.ON_START -> {
                started.add(this)
                take()
            }
            Lifecycle.Event.ON_STOP -> started.remove(this)
            Lifecycle.Event.ON_DESTROY -> lifecycle.removeObserver(this)
            else -> {}
        }
    }

    /** Takes the link of an intent (`onNewIntent`'s; [attach] reads the launching one): held until the activity is started. */
    fun receive(intent: Intent?) {
        if (intent == null) return
        activity.intent = intent
        link(intent)?.let { inbox.hold(it) }
        take()
    }

    /**
     * Claims the link tapped before the install, once per install (docs/LANDING.md): reads the Play Install
     * Referrer when the app has not claimed yet and the activity was created afresh. Any answer of the referrer
     * service is final (an organic install, `FEATURE_NOT_SUPPORTED`, an error, a `RemoteException`): the record is
     * marked, so no later launch asks again, unless the referrer carries a `linkd_token`: then [LinkDeferredClaim.claim]
     * asks linkd on a thread of its own (and records a definite answer), and the inbox holds the destination until
     * an activity that is started takes it. The inbox's `events` report the install then, with the token or without.
     */
    fun claimInstallReferrer(claim: LinkDeferredClaim) {
        if (!fresh || claim.record.claimed()) return
        val client = InstallReferrerClient.newBuilder(activity).build()
        val listener = object : InstallReferrerStateListener {
            override fun onInstallReferrerSetupFinished(responseCode: Int) {
                val referrer = try {
                    if (responseCode == InstallReferrerClient.InstallReferrerResponse.OK) client.installReferrer.installReferrer else null
                } catch (e: RemoteException) {
                    null
                } finally {
                    client.endConnection()
                }
                val token = LinkDeferredClaim.tokenFromReferrer(referrer)
                inbox.events?.reportInstall(token)
                if (token == null) {
                    claim.record.markClaimed()
                    return
                }
                Thread {
                    claim.claim(token)?.let { inbox.hold(it) }
                    // Whichever activity of this inbox is started by then takes it (this one may be gone: a rotation).
                    activity.runOnUiThread(Runnable { started.firstOrNull { it.inbox === inbox }?.take() })
                }.start()
            }

            // The connection was lost before an answer: the next fresh launch asks again.
            override fun onInstallReferrerServiceDisconnected() {}
        }
        try {
            client.startConnection(listener)
        } catch (e: SecurityException) {
            // Some devices refuse to bind the Play Store's service: there is no referrer to read on them.
            claim.record.markClaimed()
            inbox.events?.reportInstall(null)
        }
    }

    /** Hands out what the inbox holds, if the activity is started; on the main thread. */
    private fun take() {
        if (!lifecycle.currentState.isAtLeast(Lifecycle.State.STARTED)) return
        val handed = inbox.appReady()
        if (handed.isNotEmpty()) open(handed)
    }

    companion object {
        /** The attached activities that are started now; read and changed on the main thread only. */
        private val started = ArrayList<LinkArrivals>()

        /**
         * Attaches the glue to `activity` (in `onCreate`, after `super.onCreate`): its launching intent's link, unless
         * `savedInstanceState` says it is recreated, goes to [inbox], and `open` gets what the inbox hands out while
         * the activity is started. Keep the result for `onNewIntent`.
         */
        @JvmStatic
        fun <A> attach(activity: A, inbox: LinkInbox, savedInstanceState: Bundle?, open: (List<LinkDestination>) -> Unit): LinkArrivals
            where A : Activity, A : LifecycleOwner {
            val arrivals = LinkArrivals(activity, activity.lifecycle, inbox, savedInstanceState == null, open)
            activity.lifecycle.addObserver(arrivals)
            // A targeted link's destination, resolved on the inbox's thread: to an activity of the inbox started by then,
            // else held until one starts.
            inbox.onResolved = { handed ->
                activity.runOnUiThread(Runnable {
                    val taker = started.firstOrNull { it.inbox === inbox }
                    if (taker != null) taker.open(handed) else handed.forEach { inbox.hold(it) }
                })
            }
            if (arrivals.fresh) arrivals.receive(activity.intent)
            return arrivals
        }

        /** The link an intent carries: a `VIEW` intent's data, else a notification's `link` extra; none from Recents. */
        private fun link(intent: Intent): String? {
            if ((intent.flags and Intent.FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY) != 0) return null
            val data = if (intent.action == Intent.ACTION_VIEW) intent.data else null
            return data?.toString() ?: intent.getStringExtra(LinkInbox.NOTIFICATION_KEY)
        }
    }
}

/** A [LinkDeferredClaim.Record] in the app's preferences. */
class PreferencesClaimRecord(private val preferences: SharedPreferences) : LinkDeferredClaim.Record {
    override fun claimed(): Boolean = preferences.getBoolean(KEY, false)

    override fun markClaimed() {
        preferences.edit().putBoolean(KEY, true).apply()
    }

    companion object {
        const val KEY = "linkd.deferredClaim.claimed"
    }
}

/**
 * A [LinkInbox.Store] in the app's preferences: `LinkInbox(store = PreferencesInboxStore(preferences))`, so held
 * links outlive the process. `apply()` writes to disk in the background; Android finishes pending writes before
 * an activity stops.
 */
class PreferencesInboxStore(private val preferences: SharedPreferences) : LinkInbox.Store {
    override fun read(): String? = preferences.getString(KEY, null)

    override fun write(held: String) {
        preferences.edit().putString(KEY, held).apply()
    }

    companion object {
        const val KEY = "linkd.inbox.held"
    }
}
