// The platform glue of `Links.kt` (docs/CODEGEN.md in linkd, "Arrivals"): where Android hands the app a link, to
// `LinkInbox`. Thin on purpose: every decision is in `Links.kt`, which linkd's suite tests; this file only reads
// Android's values. Needs the Play Install Referrer library (`com.android.installreferrer:installreferrer`).

import android.app.Activity
import android.content.Intent
import android.content.SharedPreferences
import android.os.Bundle
import com.android.installreferrer.api.InstallReferrerClient
import com.android.installreferrer.api.InstallReferrerStateListener

/** Takes an intent's link: its data (an App Link, at cold launch or in `onNewIntent`), else a notification's `link` extra. */
fun LinkInbox.receive(intent: Intent?): List<LinkDestination> {
    if (intent == null) return emptyList()
    val data = intent.data
    return receive(data?.toString() ?: intent.getStringExtra(LinkInbox.NOTIFICATION_KEY))
}

/**
 * An activity that hands its links to [inbox]: the launching intent in `onCreate` (not again when the activity is
 * recreated), later ones in `onNewIntent` (declare it `singleTask` or `singleTop`). [open] gets what the inbox
 * hands out, on the main thread.
 */
abstract class LinkActivity : Activity() {
    abstract val inbox: LinkInbox

    abstract fun open(destinations: List<LinkDestination>)

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        if (savedInstanceState == null) open(inbox.receive(intent))
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        this.intent = intent
        open(inbox.receive(intent))
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
 * On a launch before this install has claimed: reads the Play Install Referrer, claims its `linkd_token` on a
 * thread of its own, and hands the answer to [inbox]; [open] gets what the inbox hands out, on the main thread.
 */
fun LinkDeferredClaim.claimInstallReferrer(activity: Activity, inbox: LinkInbox, open: (List<LinkDestination>) -> Unit) {
    if (record.claimed()) return
    val client = InstallReferrerClient.newBuilder(activity).build()
    client.startConnection(object : InstallReferrerStateListener {
        override fun onInstallReferrerSetupFinished(responseCode: Int) {
            val referrer = if (responseCode == InstallReferrerClient.InstallReferrerResponse.OK) client.installReferrer.installReferrer else null
            client.endConnection()
            val token = LinkDeferredClaim.tokenFromReferrer(referrer) ?: return
            Thread {
                val handed = claim(token, inbox)
                activity.runOnUiThread { open(handed) }
            }.start()
        }

        override fun onInstallReferrerServiceDisconnected() {}
    })
}
