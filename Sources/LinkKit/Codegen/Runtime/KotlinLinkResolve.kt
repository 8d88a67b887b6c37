/** What the app does with a URL ([LinkRouter.decide]): open a destination decided on the phone, or ask linkd's resolve, because the URL is a targeted link whose destination depends on the visitor. */
sealed class LinkRoute {
    data class Open(val destination: LinkDestination) : LinkRoute()
    /** A targeted link: resolve it with the visitor's context ([LinkResolveClient]), never from the rules alone. */
    data class NeedsResolve(val url: String) : LinkRoute()
}

/**
 * Asks linkd's `GET /v1/resolve` what a targeted link opens for this visitor ([LinkRouter.decide] answers
 * [LinkRoute.NeedsResolve] for it): the visitor's context goes with it (their variant's key, country, languages, OS
 * version; this app and its platform), so the phone gets the server's answer, never the rules' alone.
 *
 * @param server the base URL of linkd's API, under which `v1/resolve` is.
 * @param key a key with read scope, sent as `Authorization: Bearer`; null for a linkd that resolves without one.
 * @param timeoutMillis how long the whole resolve (connecting and the whole answer) may take before it counts as unanswered.
 */
class LinkResolveClient @JvmOverloads constructor(
    private val server: String,
    private val key: String? = null,
    private val timeoutMillis: Int = 15_000
) {
    /** The visitor a targeted link is decided for; a value left null is left to linkd (the caller's address's country, the request's languages); without `visitorId` the visitor is in no experiment. */
    data class Visitor @JvmOverloads constructor(
        val visitorId: String? = null, val country: String? = null, val language: String? = null, val osVersion: String? = null
    )

    /**
     * The destination linkd answers for `url` and `visitor`; null when the app opens nothing there (a web page, another
     * app). When linkd cannot be reached, does not answer in time or answers no success: the error destination
     * `Invalid("resolve_unavailable", …)`, so the app shows its own error screen rather than guess. Blocks: call it off
     * the main thread.
     */
    @JvmOverloads fun resolve(url: String, visitor: Visitor = Visitor()): LinkDestination? {
        // The connect and read timeouts bound each wait, not the whole answer (a server that sends a byte now and then
        // never trips them): the answer, fetched on a worker, races a deadline of `timeoutMillis`, and the connection
        // is closed when the deadline wins.
        val call = Call()
        val answer = try {
            workers.submit(java.util.concurrent.Callable { fetch(url, visitor, call) })
        } catch (e: java.util.concurrent.RejectedExecutionException) {
            return unanswered("The resolve request could not be made.")
        }
        return try {
            answer.get(timeoutMillis.toLong(), java.util.concurrent.TimeUnit.MILLISECONDS)
        } catch (e: java.util.concurrent.TimeoutException) {
            call.expire()
            answer.cancel(true)
            unanswered("linkd did not answer in time.")
        } catch (e: InterruptedException) {
            call.expire()
            answer.cancel(true)
            Thread.currentThread().interrupt()
            unanswered("linkd did not answer in time.")
        } catch (e: java.util.concurrent.ExecutionException) {
            // What `fetch` does not answer itself is thrown here, as it would be without the worker.
            throw e.cause ?: e
        }
    }

    private fun fetch(url: String, visitor: Visitor, call: Call): LinkDestination? {
        val items = arrayListOf("url" to url, "platform" to LinkRouter.platform, "app" to LinkRouter.appID)
        visitor.visitorId?.let { items.add("visitorId" to it) }
        visitor.country?.let { items.add("country" to it) }
        visitor.language?.let { items.add("language" to it) }
        visitor.osVersion?.let { items.add("osVersion" to it) }
        val query = items.joinToString("&") { it.first + "=" + java.net.URLEncoder.encode(it.second, "UTF-8").replace("+", "%20") }
        val connection = try {
            java.net.URL(server.trimEnd('/') + "/v1/resolve?" + query).openConnection() as java.net.HttpURLConnection
        } catch (e: java.io.IOException) {
            return unanswered("The resolve request could not be made.")
        }
        if (!call.attach(connection)) return unanswered("linkd did not answer in time.")
        try {
            connection.connectTimeout = timeoutMillis
            connection.readTimeout = timeoutMillis
            if (key != null) connection.setRequestProperty("Authorization", "Bearer $key")
            val status = connection.responseCode
            if (status != 200) return unanswered("linkd answered no success.")
            val text = connection.inputStream.use { String(it.readBytes(), Charsets.UTF_8) }
            // A destination only where resolve says this app opens the URL.
            if (!LinkRouter.opensThisApp(text)) return null
            return LinkDestination.fromResolveJSON(text)
        } catch (e: java.net.SocketTimeoutException) {
            return unanswered("linkd did not answer in time.")
        } catch (e: java.io.IOException) {
            return unanswered("linkd could not be reached.")
        } finally {
            connection.disconnect()
        }
    }

    /** One resolve's connection and its deadline: the connection is closed when the deadline passes, whichever comes first. */
    private class Call {
        private var connection: java.net.HttpURLConnection? = null
        private var expired = false

        /** Keeps `connection` to close at the deadline; false when the deadline has already passed (then it is not used). */
        @Synchronized fun attach(connection: java.net.HttpURLConnection): Boolean {
            if (!expired) this.connection = connection
            return !expired
        }

        /** The deadline passed: closes the connection, which ends a read in progress. */
        fun expire() {
            val open = synchronized(this) {
                expired = true
                connection
            }
            open?.disconnect()
        }
    }

    /** Resolves `url` and hands the destination to `inbox`: returns what `inbox` hands out now. Blocks. */
    fun resolve(url: String, visitor: Visitor, inbox: LinkInbox): List<LinkDestination> =
        resolve(url, visitor)?.let { inbox.receive(it) } ?: emptyList()

    companion object {
        /** The error destination's code when linkd gives no answer (offline, a timeout, a 5xx, a refused key). */
        const val UNAVAILABLE = "resolve_unavailable"

        private fun unanswered(detail: String): LinkDestination = LinkDestination.Invalid(UNAVAILABLE, null, detail)

        /** The threads that fetch answers: daemons, so an app or a tool can exit while one waits for linkd. */
        private val workers = java.util.concurrent.Executors.newCachedThreadPool { work ->
            Thread(work, "LinkResolveClient").apply { isDaemon = true }
        }
    }
}
