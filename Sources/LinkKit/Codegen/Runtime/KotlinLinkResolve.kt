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
 * @param timeoutMillis how long connecting, and then the answer, may each take before the resolve counts as unanswered.
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

    /** Resolves `url` and hands the destination to `inbox`: returns what `inbox` hands out now. Blocks. */
    fun resolve(url: String, visitor: Visitor, inbox: LinkInbox): List<LinkDestination> =
        resolve(url, visitor)?.let { inbox.receive(it) } ?: emptyList()

    companion object {
        /** The error destination's code when linkd gives no answer (offline, a timeout, a 5xx, a refused key). */
        const val UNAVAILABLE = "resolve_unavailable"

        private fun unanswered(detail: String): LinkDestination = LinkDestination.Invalid(UNAVAILABLE, null, detail)
    }
}
