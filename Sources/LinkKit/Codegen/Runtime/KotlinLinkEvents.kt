// ---- Conversions reported to linkd (the same in every generated file; docs/CODEGEN.md and docs/EVENTS.md in linkd) ----

/**
 * The app's events for linkd's attribution (`POST /v1/events` with the app's publishable key): the install and the
 * opens by a link, which [LinkInbox], [LinkDeferredClaim] and the glue's `LinkArrivals` report when the inbox is made
 * with it, and the app's own named events (`track("purchase", LinkEvents.Value(1299, "EUR"))`).
 *
 * Every event is written to a queue file in `directory` (atomically: a new file renamed over the old one, before
 * [track] returns) and sent from there in batches, on a thread of its own: the queue survives the process ending and
 * any time offline, and each event keeps the idempotency key it was given when tracked, so a batch sent again after a
 * lost answer counts once. A failed send is tried again after 1, 2, 4 … seconds (at most five minutes, with jitter),
 * or after the `Retry-After` of a 429. The install is held (and everything after it, so a purchase finds the install
 * it follows) until the install's click token is known ([reportInstall], which the referrer's glue and the deferred
 * claim call) or `installWaitMillis` have passed since the first launch.
 *
 * Thread-safe: every member reads and changes the state holding the object's lock, and writes the file under it.
 *
 * @param server the base URL of linkd's API, under which `v1/events` is.
 * @param appKey the app's publishable key (`lkp_…`, `POST /v1/apps/{id}/event-key`), sent as `X-Linkd-App-Key`.
 * @param directory where the queue file `linkd-events` is kept (`context.filesDir`); made if missing.
 */
class LinkEvents @JvmOverloads constructor(
    private val server: String,
    private val appKey: String,
    directory: java.io.File,
    private val installWaitMillis: Long = 30_000,
    batchSize: Int = 100
) {
    /** An amount of money: minor units (cents; zero or more) and the ISO 4217 code in capitals. */
    data class Value(val minorUnits: Long, val currency: String)

    /** The queue file. */
    val file = java.io.File(directory, "linkd-events")
    private val batchSize = Math.max(1, Math.min(batchSize, 1000))
    private val lock = Any()
    /** Wakes the sender from a wait: the install's token came, or [flush] asks. */
    private val wake = java.util.concurrent.Semaphore(0)

    /** The id linkd attributes this install's named events through (`visitorId`): made at the first launch, kept. */
    val visitorId: String
    /** When the install began waiting for its click token (the first launch, in milliseconds since 1970); 0 once queued. */
    private var installSince = 0L
    /** The events to send, each the JSON object `POST /v1/events` takes, oldest first. */
    private val queue = ArrayList<String>()
    private var sending = false
    private var attempt = 0
    private var failures = 0
    private var retryAt = 0L

    init {
        val text = try {
            if (file.exists()) String(file.readBytes(), Charsets.UTF_8) else ""
        } catch (e: java.io.IOException) {
            ""
        }
        val lines = text.split('\n').filter { it.isNotEmpty() }
        val header = lines.firstOrNull()?.split(' ') ?: emptyList()
        if (header.size == 4 && header[0] == "linkd-events" && header[1] == "1" && header[2].isNotEmpty()) {
            visitorId = header[2]
            installSince = header[3].toLongOrNull() ?: 0L
            lines.drop(1).filterTo(queue) { it.startsWith("{") && it.endsWith("}") }
        } else {
            // The first launch of this install (or its data was cleared): a new visitor, and the install to report.
            visitorId = java.util.UUID.randomUUID().toString()
            installSince = System.currentTimeMillis()
            directory.mkdirs()
            save()
        }
        if (queue.isNotEmpty() || installSince != 0L) synchronized(lock) { startIfIdle() }
    }

    /** How many events wait to be sent (the install held for its token not counted). */
    val pending: Int get() = synchronized(lock) { queue.size }

    /**
     * Tracks a named event (`signup`, `purchase`, `trial.started`: lower-case letters, digits, `_` and `.`, at most 64,
     * starting with a letter), with an optional value, as happening at `timeMillis`. Returns false, keeping nothing, for a
     * malformed name or value, or a full queue.
     */
    @JvmOverloads
    fun track(name: String, value: Value? = null, timeMillis: Long = System.currentTimeMillis()): Boolean {
        if (!isEventName(name) || name == "install" || name == "open") return false
        val fields = arrayListOf("name" to quoted(name))
        if (value != null) {
            if (value.minorUnits < 0 || value.currency.length != 3 || !value.currency.all { it in 'A'..'Z' }) return false
            fields.add("value" to value.minorUnits.toString())
            fields.add("currency" to quoted(value.currency))
        }
        return enqueue(fields, timeMillis)
    }

    /**
     * Reports that the app was opened with `url` ([LinkInbox] does, for every link it takes); a URL longer than linkd keeps
     * (2,000 characters) is not.
     */
    fun reportOpen(url: String) {
        if (url.length > 2000) return
        enqueue(listOf("name" to "\"open\"", "url" to quoted(url)), System.currentTimeMillis())
    }

    /**
     * Reports the install, once per install, with the click token it came with (the referrer's or the claim's; null for
     * none): releases the install held since the first launch. Later calls do nothing.
     */
    fun reportInstall(clickToken: String?) {
        val token = clickToken?.takeIf { it.length == 32 && it.all { c -> c in '0'..'9' || c in 'a'..'f' } }
        synchronized(lock) {
            if (installSince == 0L) return
            queue.add(0, installLine(installSince, token))
            installSince = 0L
            retryAt = 0L
            save()
            startIfIdle()
        }
        wake.release()
    }

    /**
     * Sends what is queued now, without waiting for a retry's time: true once nothing is left, false when a try failed
     * (offline, an error) or the install still waits for its token (the queue stays for later). Blocks: call it off the
     * main thread.
     */
    fun flush(): Boolean {
        val failed = synchronized(lock) {
            retryAt = 0L
            startIfIdle()
            failures
        }
        wake.release()
        while (true) {
            synchronized(lock) {
                if (queue.isEmpty() && installSince == 0L) return true
                if (failures > failed || (installSince != 0L && System.currentTimeMillis() - installSince < installWaitMillis)) return false
            }
            Thread.sleep(20)
        }
    }

    /** Queues an event with a fresh idempotency key; false when the queue is full. */
    private fun enqueue(fields: List<Pair<String, String>>, timeMillis: Long): Boolean = synchronized(lock) {
        if (queue.size >= CAPACITY) return false
        queue.add(line(fields, java.util.UUID.randomUUID().toString(), timeMillis))
        save()
        startIfIdle()
        true
    }

    /** Starts the one sender unless it runs; called holding the lock. */
    private fun startIfIdle() {
        if (sending) return
        sending = true
        val thread = Thread(Runnable { send() }, "linkd-events")
        thread.isDaemon = true
        thread.start()
    }

    /** The sender: sends batches from the head of the queue until it is empty, waiting out the held install and the backoff. */
    private fun send() {
        while (true) {
            var batch: List<String> = emptyList()
            var waitMillis = 0L
            synchronized(lock) {
                val now = System.currentTimeMillis()
                if (installSince != 0L) {
                    if (now - installSince < installWaitMillis) {
                        waitMillis = installSince + installWaitMillis - now
                    } else {
                        // No token came in time: the install is reported without one, at the time of the first launch.
                        queue.add(0, installLine(installSince, null))
                        installSince = 0L
                        save()
                    }
                }
                if (waitMillis == 0L) {
                    if (queue.isEmpty()) {
                        sending = false
                        return
                    }
                    if (retryAt > now) {
                        waitMillis = retryAt - now
                    } else {
                        batch = ArrayList(queue.subList(0, Math.min(batchSize, queue.size)))
                    }
                }
            }
            if (batch.isEmpty()) {
                wake.tryAcquire(waitMillis, java.util.concurrent.TimeUnit.MILLISECONDS)
                wake.drainPermits()
                continue
            }
            val retryAfter = post(batch)
            synchronized(lock) {
                if (retryAfter == null) {
                    queue.subList(0, Math.min(batch.size, queue.size)).clear()
                    attempt = 0
                    retryAt = 0L
                    save()
                } else {
                    attempt += 1
                    failures += 1
                    // 1, 2, 4 … seconds, at most five minutes, each between half and all of it; a 429's `Retry-After` as said.
                    val full = Math.min(300_000.0, 1000.0 * Math.pow(2.0, (attempt - 1).toDouble()))
                    val backoff = (full * (0.5 + Math.random() / 2)).toLong()
                    retryAt = System.currentTimeMillis() + if (retryAfter >= 0) retryAfter else backoff
                }
            }
        }
    }

    /**
     * One batch to `POST /v1/events`: null when it is done with (taken, or a batch that can never be taken as it is,
     * dropped rather than blocking every later event); else the milliseconds a 429 asks to wait, or -1 to back off.
     */
    private fun post(batch: List<String>): Long? {
        val connection = try {
            java.net.URL(server.trimEnd('/') + "/v1/events").openConnection() as java.net.HttpURLConnection
        } catch (e: java.io.IOException) {
            return -1L
        }
        try {
            connection.requestMethod = "POST"
            connection.connectTimeout = 30_000
            connection.readTimeout = 30_000
            connection.doOutput = true
            connection.setRequestProperty("Content-Type", "application/json")
            connection.setRequestProperty("X-Linkd-App-Key", appKey)
            connection.outputStream.use { it.write(("{\"events\":[" + batch.joinToString(",") + "]}").toByteArray(Charsets.UTF_8)) }
            val status = connection.responseCode
            return when {
                status in 200..299 -> null
                status == 429 -> connection.getHeaderField("Retry-After")?.trim()?.toLongOrNull()?.let { it * 1000 } ?: -1L
                // Not signed in (a replaced key, a new one on the way), a timeout, the server's trouble: later.
                status == 401 || status == 403 || status == 408 || status >= 500 -> -1L
                else -> null
            }
        } catch (e: java.io.IOException) {
            return -1L
        } finally {
            connection.disconnect()
        }
    }

    /** Writes the queue file anew, at once: a new file renamed over the old one; called holding the lock (or in `init`). */
    private fun save() {
        val text = StringBuilder("linkd-events 1 ").append(visitorId).append(' ')
            .append(if (installSince == 0L) "-" else installSince.toString()).append('\n')
        for (line in queue) text.append(line).append('\n')
        val next = java.io.File(file.path + ".new")
        try {
            java.io.FileOutputStream(next).use {
                it.write(text.toString().toByteArray(Charsets.UTF_8))
                it.fd.sync()
            }
            if (!next.renameTo(file)) {
                file.delete()
                next.renameTo(file)
            }
        } catch (e: java.io.IOException) {
            // Kept in memory: the next change writes the file again.
        }
    }

    private fun installLine(sinceMillis: Long, clickToken: String?): String {
        val token = clickToken?.let { listOf("clickToken" to "\"$it\"") } ?: emptyList()
        return line(listOf("name" to "\"install\"") + token, "$visitorId-install", sinceMillis)
    }

    /** One event's JSON: its fields, the idempotency key, the visitor and the time (RFC 3339, milliseconds, UTC). */
    private fun line(fields: List<Pair<String, String>>, key: String, timeMillis: Long): String {
        val format = java.text.SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", java.util.Locale.ROOT)
        format.timeZone = java.util.TimeZone.getTimeZone("UTC")
        val time = "\"" + format.format(java.util.Date(timeMillis)) + "\""
        val all = fields + listOf("idempotencyKey" to quoted(key), "visitorId" to quoted(visitorId), "time" to time)
        return all.joinToString(",", "{", "}") { "\"${it.first}\":${it.second}" }
    }

    companion object {
        /** Most events the queue keeps: [track] refuses more while linkd cannot be reached. */
        const val CAPACITY = 10_000

        /** Lower-case letters, digits, `_` and `.`, at most 64, starting with a letter. */
        @JvmStatic fun isEventName(name: String): Boolean =
            name.length in 1..64 && name[0] in 'a'..'z' && name.all { it in 'a'..'z' || it in '0'..'9' || it == '_' || it == '.' }

        private fun quoted(value: String): String {
            val out = StringBuilder("\"")
            for (ch in value) {
                val c = ch - '\u0000'
                when {
                    ch == '"' -> out.append("\\\"")
                    ch == '\\' -> out.append("\\\\")
                    c < 0x20 -> out.append("\\u00").append(if (c < 16) "0" else "").append(Integer.toHexString(c))
                    else -> out.append(ch)
                }
            }
            return out.append('"').toString()
        }
    }
}
