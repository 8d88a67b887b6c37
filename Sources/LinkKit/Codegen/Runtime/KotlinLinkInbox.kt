// ---- The inbox of arriving links, and deferred claims (the same in every generated file; docs/CODEGEN.md in linkd) ----

/**
 * Every link the app is opened with, whatever way it arrives: at cold launch (`onCreate`), while running
 * (`onNewIntent`), in a notification's data, or as the deferred claim after the install (`LinkDeferredClaim`).
 * It holds each destination until the app says it is ready to show one ([appReady]) and, for a destination that
 * requires sign-in, until a user is signed in ([userSignedIn]); then it hands it out once, in arrival order.
 *
 * Every function returns the destinations to open now, in order (usually none or one). Thread-safe: every member
 * reads and changes the state while holding the inbox's lock, so links may arrive on any thread.
 *
 * With a [store], the held destinations outlive the process: the inbox writes them there whenever they change and
 * reads them back when made, so a sign-in link held while the person signs in elsewhere is still handed out, once,
 * by the inbox of the restarted process.
 *
 * With [events], it reports each link it takes to linkd as an `open` (with the URL, whether or not this file routes it:
 * linkd attributes a stored link the table does not know), and the deferred claim and the referrer's glue report the
 * install through it.
 *
 * With a [resolver], it resolves a targeted link itself ([LinkRouter.decide] answers [LinkRoute.NeedsResolve] for it:
 * its destination depends on the visitor), on a thread of its own: linkd's answer for [visitor] is taken as a
 * destination is, handed to [onResolved] (when set: what the inbox hands out then; the glue's [LinkArrivals] sets it),
 * else held for the next call that hands out. When linkd cannot be reached or does not answer in time, that
 * destination is the explicit error `Invalid("resolve_unavailable", …)`, never the rules' guess. Without a resolver a
 * targeted link holds nothing.
 */
class LinkInbox @JvmOverloads constructor(
    ready: Boolean = false,
    signedIn: Boolean = false,
    private val store: Store? = null,
    /** Where the opens this inbox takes, and the install, are reported; null for nowhere. */
    val events: LinkEvents? = null,
    /** Resolves targeted links for [visitor]; null takes none. */
    val resolver: LinkResolveClient? = null,
    /** The visitor [resolver] resolves for (their variant's key, country, languages, OS version). */
    val visitor: LinkResolveClient.Visitor = LinkResolveClient.Visitor(),
    onResolved: ((List<LinkDestination>) -> Unit)? = null
) {
    /** Where the held destinations are kept between processes (the glue's `PreferencesInboxStore`): one text. */
    interface Store {
        /** The text last written; null when there is none. */
        fun read(): String?

        /** Keeps `held` (called holding the inbox's lock: write it away without waiting for the disk). */
        fun write(held: String)
    }

    private val lock = Any()
    private var isReady = ready
    private var isSignedIn = signedIn
    private val waiting = ArrayList<LinkDestination>()

    /**
     * Gets what the inbox hands out when a targeted link's destination arrives from [resolver], on the resolving thread
     * (post it to the main one to show it); null: that destination is held for the next call that hands out.
     */
    var onResolved: ((List<LinkDestination>) -> Unit)? = onResolved
        get() = synchronized(lock) { field }
        set(value) = synchronized(lock) { field = value }

    init {
        // One destination's resolve JSON a line; a line this file no longer decodes (regenerated rules) is dropped.
        store?.read()?.split('\n')?.forEach { line -> LinkDestination.fromResolveJSON(line)?.let { waiting.add(it) } }
    }

    /** Takes a destination (a deferred claim's, or one routed elsewhere). */
    fun receive(destination: LinkDestination): List<LinkDestination> = synchronized(lock) {
        waiting.add(destination)
        release()
    }

    /**
     * Takes a destination without handing anything out, whatever the state: for a thread or a moment that cannot
     * show one (a deferred claim's answer, an intent while the activity is stopped). The next call that hands out
     * ([appReady], [userSignedIn], a `receive`) hands it out.
     */
    fun hold(destination: LinkDestination) {
        synchronized(lock) {
            waiting.add(destination)
            save()
        }
    }

    /**
     * Takes a link the app was opened with (`intent.data?.toString()`): nothing is held when it is not a link of the app.
     * The open is reported either way.
     */
    fun receive(url: String?): List<LinkDestination> {
        url?.let { events?.reportOpen(it) }
        val route = url?.let { LinkRouter.decide(it) }
        if (route is LinkRoute.Open) return receive(route.destination)
        if (route is LinkRoute.NeedsResolve) resolve(route.url)
        return synchronized(lock) { release() }
    }

    /**
     * Takes a link the app was opened with as [hold] takes a destination (nothing is held when it is not a link of the
     * app); the open is reported.
     */
    fun hold(url: String) {
        events?.reportOpen(url)
        val route = LinkRouter.decide(url)
        if (route is LinkRoute.Open) hold(route.destination)
        if (route is LinkRoute.NeedsResolve) resolve(route.url)
    }

    /** Resolves the targeted link `url` with [resolver] (none: nothing) on a thread of its own, and takes its destination. */
    private fun resolve(url: String) {
        val resolver = resolver ?: return
        Thread {
            val destination = resolver.resolve(url, visitor)
            if (destination != null) {
                // What to hand out, and to whom: nothing without `onResolved` (the destination stays held).
                val handing = synchronized(lock) {
                    waiting.add(destination)
                    val deliver = onResolved
                    if (deliver == null) {
                        save()
                        null
                    } else {
                        Pair(deliver, release())
                    }
                }
                if (handing != null && handing.second.isNotEmpty()) handing.first(handing.second)
            }
        }.start()
    }

    /** Takes the link of a notification's data (an FCM message's `data`, a tapped notification's extras) under [NOTIFICATION_KEY]. */
    fun receiveNotification(data: Map<String, String?>): List<LinkDestination> = receive(data[NOTIFICATION_KEY])

    /** Reports that the app can show destinations: returns what was held for it. */
    fun appReady(): List<LinkDestination> = synchronized(lock) {
        isReady = true
        release()
    }

    /** Reports a signed-in user: returns the held destinations that waited for one. */
    fun userSignedIn(): List<LinkDestination> = synchronized(lock) {
        isSignedIn = true
        release()
    }

    /** Reports that no user is signed in any more: held destinations that require sign-in are dropped. */
    fun userSignedOut() {
        synchronized(lock) {
            isSignedIn = false
            waiting.removeAll { it.requiresSignIn }
            save()
        }
    }

    /** The destinations held now, in arrival order. */
    val held: List<LinkDestination> get() = synchronized(lock) { waiting.toList() }

    /** Once the app is ready: every held destination that needs no user, or all of them with one; called holding the lock. */
    private fun release(): List<LinkDestination> {
        if (!isReady) {
            save()
            return emptyList()
        }
        // One pass: `removeAll(out)` would look each held destination up in `out`, quadratic in the held count.
        val out = ArrayList<LinkDestination>()
        val kept = ArrayList<LinkDestination>()
        for (destination in waiting) if (isSignedIn || !destination.requiresSignIn) out.add(destination) else kept.add(destination)
        waiting.clear()
        waiting.addAll(kept)
        save()
        return out
    }

    /** Writes the held destinations to the store, if any; called holding the lock, after every change. */
    private fun save() {
        store?.write(waiting.joinToString("\n") { it.toJSON() })
    }

    companion object {
        /** The key of a notification's link (`{"link": "https://…"}`). */
        const val NOTIFICATION_KEY = "link"
    }
}

/**
 * The link a person tapped before installing the app: its Android landing page put a click token into the Play
 * Store link's referrer (`linkd_token=<token>`, read with the Play Install Referrer API), and the app claims it
 * once per install with `POST /v1/deferred/claim`. The token is the only credential: no key, no device data.
 *
 * @param server the base URL of linkd's API, under which `v1/deferred/claim` is.
 * @param record where the install records that it claimed (`SharedPreferences` in an app).
 */
class LinkDeferredClaim(private val server: String, val record: Record) {
    /** Whether this install has claimed; [markClaimed] is called once linkd has answered for good. */
    interface Record {
        fun claimed(): Boolean
        fun markClaimed()
    }

    /**
     * Claims `token` unless this install has: the destination of the link tapped before the install, or null (none,
     * another app's link, a token claimed or expired already, or no answer). A definite answer (200, 404, 410, 422)
     * is recorded; without one (offline, 5xx) the next launch may try again. Blocks: call it off the main thread.
     */
    fun claim(token: String): LinkDestination? {
        if (record.claimed() || !isToken(token)) return null
        val connection = try {
            java.net.URL(server.trimEnd('/') + "/v1/deferred/claim").openConnection() as java.net.HttpURLConnection
        } catch (e: java.io.IOException) {
            return null
        }
        try {
            connection.requestMethod = "POST"
            connection.connectTimeout = 15_000
            connection.readTimeout = 15_000
            connection.doOutput = true
            connection.setRequestProperty("Content-Type", "application/json")
            connection.outputStream.use { it.write("{\"token\":\"$token\"}".toByteArray(Charsets.UTF_8)) }
            val status = connection.responseCode
            if (status >= 500 || status == 429) return null
            record.markClaimed()
            if (status != 200) return null
            return LinkDestination.fromResolveJSON(connection.inputStream.use { String(it.readBytes(), Charsets.UTF_8) })
        } catch (e: java.io.IOException) {
            return null
        } finally {
            connection.disconnect()
        }
    }

    /**
     * Claims `token` and hands the destination to `inbox`: returns what `inbox` hands out now. The inbox's `events` report
     * the install with the token first (once per install, whatever the claim answers). Blocks.
     */
    fun claim(token: String, inbox: LinkInbox): List<LinkDestination> {
        if (isToken(token)) inbox.events?.reportInstall(token)
        return claim(token)?.let { inbox.receive(it) } ?: emptyList()
    }

    companion object {
        /** The domains whose iOS landing pages put a claim link on the pasteboard (none for an Android app). */
        @JvmStatic val claimDomains: List<String> get() = LinkRouter.claimDomains

        /** The token in an install referrer (`linkd_token=<token>&utm_source=…`); null without one. */
        @JvmStatic fun tokenFromReferrer(referrer: String?): String? =
            referrer?.split('&')?.firstOrNull { it.startsWith("linkd_token=") }?.substring("linkd_token=".length)?.takeIf { isToken(it) }

        /** The token of a claim link (`https://<domain>/_linkd/claim/<token>`) on a domain that opted in; null otherwise. */
        @JvmStatic fun tokenFromClaimLink(text: String?): String? {
            val link = text?.trim() ?: return null
            return claimDomains.map { "https://$it/_linkd/claim/" }.firstOrNull { link.startsWith(it) }
                ?.let { link.substring(it.length) }?.takeIf { isToken(it) }
        }

        /** 32 lower-case hexadecimal digits, as linkd issues them. */
        private fun isToken(text: String): Boolean = text.length == 32 && text.all { it in '0'..'9' || it in 'a'..'f' }
    }
}
