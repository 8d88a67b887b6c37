    // ---- The interpreter of `table` (the same in every generated file; docs/CODEGEN.md in linkd) ----

    /**
     * The table as `table` writes it, every field by its name: the scheme, the domain its URLs resolve on (a host),
     * the destination specs and the domains, each with its rules inline. Read into numbered rules once: `rules` holds
     * every domain's, and each domain's groups number them.
     */
    private class Table(val scheme: String? = null, schemeDomain: String? = null, val specs: List<Spec> = emptyList(), val domains: List<Domain> = emptyList()) {
        /** The index in `domains` of the domain a scheme URL resolves on; -1 for none. */
        val schemeDomain: Int = domains.indexOfFirst { it.host == schemeDomain }
        val rules: List<Rule> = domains.flatMap { it.rules }

        init {
            var first = 0
            for (domain in domains) {
                val offset = first
                domain.groups = domain.groups.map { group -> group.map { it + offset } }
                first += domain.rules.size
            }
        }
    }
    private class Spec(val type: String, val requiresSignIn: Boolean = false, val params: List<ParamSpec> = emptyList())
    private class ParamSpec(val name: String, val kind: String, val optional: Boolean = false, val min: String? = null, val max: String? = null, val values: List<String> = emptyList())

    /** Whose semantics decide a domain's URLs: iOS's (the AASA file's entries), Android's manifest alone, or the manifest and the dynamic rules. */
    private enum class Decides { Ios, Android, AndroidDynamicRules }

    /** A run of consecutive rules for the same apps (an AASA `details` entry): earlier entries decide first. */
    private class Entry(val apps: List<String>, val rules: List<Rule>)

    private class Domain(val host: String, decides: Decides, apps: List<String>, app: String? = null, entries: List<Entry> = emptyList(), targeted: List<String> = emptyList()) {
        /** The slugs of the domain's targeted links: only resolve answers them. */
        val targeted: Set<String> = targeted.toHashSet()
        /** The domain's rules in entry order. */
        val rules: List<Rule> = entries.flatMap { it.rules }
        /** Per listed app, its rules as entry and rule numbers alternately, in entry order (numbered with every domain's by `Table`). */
        var groups: List<List<Int>> = apps.map { name ->
            val group = ArrayList<Int>()
            var number = 0
            for (entry in entries) for (rule in entry.rules) {
                if (name in entry.apps) { group.add(number); group.add(number) }
                number++
            }
            group
        }
        /** The group of each listed app. */
        val appGroups: List<Int> = apps.indices.toList()
        /** This app's index among the listed apps; -1 when the domain names it not. */
        val app: Int = if (app == null) -1 else apps.indexOf(app)
        /** Whose semantics decide: 0 iOS's, 1 Android's manifest, 2 Android's manifest and dynamic rules. */
        val android: Int = decides.ordinal
    }

    /** One element of a compiled pattern: a literal, `?` (one character), `*`, a pattern that never matches, a character class (`anyCase`: either case), or a substitution variable's alternatives. */
    private sealed class Glob {
        class Literal(val text: String) : Glob()
        object One : Glob()
        object Star : Glob()
        object Never : Glob()
        class CharacterClass(val name: String, val anyCase: Boolean = false) : Glob()
        class Alternatives(val values: List<List<Glob>>) : Glob()
    }

    private class Rule(
        val path: List<Glob>? = null, val parent: List<Glob>? = null, query: List<Glob>? = null, val items: List<Item> = emptyList(), val fragment: List<Glob>? = null,
        caseSensitive: Boolean = true, percentEncoded: Boolean = true, val exclude: Boolean = false, val never: Boolean = false, val capture: Capture? = null,
        val manifest: List<Manifest> = emptyList(), val dynamic: List<Dynamic> = emptyList()
    ) {
        val queryString: List<Glob>? = query
        /** The form compared: 0 percent-encoded and case-sensitive, 1 encoded and either case, 2 and 3 decoded. */
        val slot: Int = (if (percentEncoded) 0 else 2) + (if (caseSensitive) 0 else 1)
    }
    private class Item(val name: String, val pattern: List<Glob>)

    /** One element of a template: a literal, a capture of one segment, an optional one (possibly empty), the rest (`{name*}`), or a raw pattern's text, printed by `build` and capturing nothing. */
    private sealed class Part(val text: String) {
        class Literal(text: String) : Part(text)
        class Capture(name: String) : Part(name)
        class Optional(name: String) : Part(name)
        class Rest(name: String) : Part(name)
        class Printed(text: String) : Part(text)
    }

    private class Capture(val type: String, val path: List<Part>? = null, val items: List<CaptureItem> = emptyList(), val fragment: List<Part>? = null, val params: List<Param> = emptyList())
    private class CaptureItem(val name: String, val template: List<Part>? = null)

    /** A parameter the binding names: taken from another capture, or a constant. */
    private class Param(val name: String, capture: String? = null, constant: String? = null) {
        val constant: Boolean = constant != null
        val value: String = constant ?: capture ?: name
    }

    /** A manifest path attribute, named as the manifest names it; `pathAdvancedPattern` pre-parsed: per token `[minimum, maximum (-1: none), inverted, low, high, ...]` in UTF-16 code units. */
    private sealed class Manifest {
        class Path(val text: String) : Manifest()
        class PathPrefix(val text: String) : Manifest()
        class PathPattern(val text: String) : Manifest()
        class PathAdvancedPattern(val tokens: List<List<Int>>) : Manifest()
    }

    /** A `dynamic_app_link_components` entry, its patterns as simple globs. */
    private class Dynamic(val path: String? = null, val fragment: String? = null, val query: List<DynamicItem> = emptyList())
    private class DynamicItem(val name: String, val value: String)

    private fun utf8(text: String): List<Int> {
        val out = ArrayList<Int>()
        var i = 0
        while (i < text.length) {
            var c = code(text[i])
            if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
                val low = code(text[i + 1])
                if (low >= 0xdc00 && low < 0xe000) { c = 0x10000 + ((c - 0xd800) shl 10) + (low - 0xdc00); i++ } else c = 0xfffd
            } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd
            when {
                c < 0x80 -> out.add(c)
                c < 0x800 -> { out.add(0xc0 or (c shr 6)); out.add(0x80 or (c and 63)) }
                c < 0x10000 -> { out.add(0xe0 or (c shr 12)); out.add(0x80 or ((c shr 6) and 63)); out.add(0x80 or (c and 63)) }
                else -> { out.add(0xf0 or (c shr 18)); out.add(0x80 or ((c shr 12) and 63)); out.add(0x80 or ((c shr 6) and 63)); out.add(0x80 or (c and 63)) }
            }
            i++
        }
        return out
    }

    /** UTF-8 to text; an invalid sequence becomes U+FFFD. */
    private fun text(bytes: List<Int>): String {
        val out = StringBuilder()
        var i = 0
        while (i < bytes.size) {
            val b = bytes[i]
            var need: Int
            var c: Int
            val min: Int
            if (b < 0x80) { out.append(b.toChar()); i++; continue }
            if (b >= 0xc2 && b < 0xe0) { need = 1; c = b and 31; min = 0x80 }
            else if (b >= 0xe0 && b < 0xf0) { need = 2; c = b and 15; min = 0x800 }
            else if (b >= 0xf0 && b < 0xf5) { need = 3; c = b and 7; min = 0x10000 }
            else { out.append('\ufffd'); i++; continue }
            var j = 1
            while (j <= need) {
                val n = if (i + j < bytes.size) bytes[i + j] else -1
                if (n < 0 || (n and 0xc0) != 0x80) break
                c = (c shl 6) or (n and 63)
                j++
            }
            if (j <= need || c < min || c > 0x10ffff || (c >= 0xd800 && c < 0xe000)) { out.append('\ufffd'); i += maxOf(1, j); continue }
            out.appendCodePoint(c)
            i += need + 1
        }
        return out.toString()
    }

    private fun scalars(value: String): Int = value.codePointCount(0, value.length)

    private fun excerpt(value: String): String {
        if (scalars(value) <= 64) return value
        return value.substring(0, value.offsetByCodePoints(0, 61)) + "..."
    }

    private fun isDigit(b: Int) = b in 0x30..0x39
    private fun isUpper(b: Int) = b in 0x41..0x5a
    private fun isLower(b: Int) = b in 0x61..0x7a
    private fun hexValue(b: Int) = if (isDigit(b)) b - 0x30 else if (b in 0x61..0x66) b - 87 else if (b in 0x41..0x46) b - 55 else -1

    private fun percentDecoded(bytes: List<Int>): List<Int> {
        val out = ArrayList<Int>()
        var i = 0
        while (i < bytes.size) {
            if (bytes[i] == 0x25 && i + 2 < bytes.size && hexValue(bytes[i + 1]) >= 0 && hexValue(bytes[i + 2]) >= 0) {
                out.add(hexValue(bytes[i + 1]) * 16 + hexValue(bytes[i + 2]))
                i += 2
            } else out.add(bytes[i])
            i++
        }
        return out
    }

    /**
     * A character's UTF-16 code unit. `Char.toInt()` is deprecated since Kotlin 1.5 and `Char.code` needs 1.5: the
     * difference of two chars is an `Int` in every version.
     */
    private fun code(c: Char): Int = c - '\u0000'

    /** ASCII letters lower-cased, the rest kept (`String.toLowerCase` is an error since Kotlin 2.1, `lowercase` needs 1.5). */
    private fun asciiLowercased(text: String): String {
        val out = StringBuilder(text.length)
        for (c in text) out.append(if (c in 'A'..'Z') c + 32 else c)
        return out.toString()
    }

    /**
     * Lower-cased bytes as the server folds them: ASCII folding, or each scalar's full lower-case mapping when there
     * is non-ASCII text (Swift's `lowercased()`: `Character.toLowerCase`, but U+0130 is `i` and U+0307).
     */
    private fun lowercased(bytes: List<Int>): List<Int> {
        if (bytes.all { it < 0x80 }) return bytes.map { if (isUpper(it)) it + 32 else it }
        val text = text(bytes)
        val out = StringBuilder(text.length)
        var i = 0
        while (i < text.length) {
            val scalar = text.codePointAt(i)
            if (scalar == 0x130) out.append("i\u0307") else out.appendCodePoint(Character.toLowerCase(scalar))
            i += Character.charCount(scalar)
        }
        return utf8(out.toString())
    }

    /** Decimal integers as text, compared without losing 64-bit precision. */
    private fun compareDecimal(a: String, b: String): Int {
        val na = a.startsWith("-")
        val nb = b.startsWith("-")
        if (na != nb) return if (na) -1 else 1
        val da = if (na) a.substring(1) else a
        val db = if (nb) b.substring(1) else b
        val magnitude = if (da.length != db.length) da.length - db.length else da.compareTo(db)
        return if (na) -magnitude else magnitude
    }

    private fun canonicalInt(value: String): String? {
        if (!Regex("-?[0-9]+").matches(value)) return null
        val negative = value.startsWith("-")
        val digits = (if (negative) value.substring(1) else value).trimStart('0').ifEmpty { "0" }
        val canonical = (if (negative && digits != "0") "-" else "") + digits
        if (compareDecimal(canonical, "9223372036854775807") > 0 || compareDecimal(canonical, "-9223372036854775808") < 0) return null
        return canonical
    }

    /** resolve's conversion of a captured (decoded) value to the declared type: the value, or the reason it is none. */
    private fun convert(spec: ParamSpec, value: String): Pair<Any?, String?> {
        when (spec.kind) {
            "string" -> {
                val length = scalars(value)
                if (spec.min != null && length < spec.min.toLong()) return Pair(null, "is shorter than ${spec.min} characters")
                if (spec.max != null && length > spec.max.toLong()) return Pair(null, "is longer than ${spec.max} characters")
                return Pair(value, null)
            }
            "int" -> {
                val canonical = canonicalInt(value) ?: return Pair(null, "'${excerpt(value)}' is not an integer")
                if (spec.min != null && compareDecimal(canonical, spec.min) < 0) return Pair(null, "$canonical is less than the minimum ${spec.min}")
                if (spec.max != null && compareDecimal(canonical, spec.max) > 0) return Pair(null, "$canonical is greater than the maximum ${spec.max}")
                return Pair(canonical.toLong(), null)
            }
            "uuid" -> {
                if (!Regex("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}").matches(value)) return Pair(null, "'${excerpt(value)}' is not a UUID")
                return Pair(asciiLowercased(value), null)
            }
            "bool" -> {
                val lower = asciiLowercased(value)
                if (lower == "true" || lower == "1" || lower == "yes") return Pair(true, null)
                if (lower == "false" || lower == "0" || lower == "no") return Pair(false, null)
                return Pair(null, "'${excerpt(value)}' is not a boolean (true/false, 1/0, yes/no)")
            }
            else -> {
                if (value !in spec.values) return Pair(null, "'${excerpt(value)}' is not one of ${spec.values.joinToString(", ")}")
                return Pair(value, null)
            }
        }
    }

    /** One compiled glob element: kind `L` literal, `?`, `*`, `C` class, `V` variable, `N` nothing. */
    private class Op(val kind: Char, val bytes: List<Int> = emptyList(), val name: String = "", val anyCase: Boolean = false, val alternatives: List<List<Op>> = emptyList())

    private fun compileOps(tokens: List<Glob>): List<Op> = tokens.map { token ->
        when (token) {
            is Glob.Literal -> Op('L', bytes = utf8(token.text))
            is Glob.One -> Op('?')
            is Glob.Star -> Op('*')
            is Glob.Never -> Op('N')
            is Glob.CharacterClass -> Op('C', name = token.name, anyCase = token.anyCase)
            is Glob.Alternatives -> Op('V', alternatives = token.values.map { compileOps(it) })
        }
    }

    private fun classContains(name: String, b: Int, anyCase: Boolean): Boolean = when (name) {
        "alpha" -> isUpper(b) || isLower(b)
        "upper" -> isUpper(b) || (anyCase && isLower(b))
        "lower" -> isLower(b) || (anyCase && isUpper(b))
        "alnum" -> isUpper(b) || isLower(b) || isDigit(b)
        "digit" -> isDigit(b)
        else -> hexValue(b) >= 0
    }

    private fun globMatches(ops: List<Op>, input: List<Int>): Boolean {
        val n = input.size
        val failed = BooleanArray((ops.size + 1) * (n + 1))
        fun boundary(t: Int) = t >= n || (input[t] and 0xc0) != 0x80
        fun search(e: Int, s: Int): Boolean {
            if (e == ops.size) return s == n
            val key = e * (n + 1) + s
            if (failed[key]) return false
            var found = false
            val op = ops[e]
            when (op.kind) {
                'L' -> found = s + op.bytes.size <= n && op.bytes.indices.all { input[s + it] == op.bytes[it] } && search(e + 1, s + op.bytes.size)
                '?' -> if (s < n) {
                    var next = s + 1
                    while (next < n && (input[next] and 0xc0) == 0x80) next++
                    found = search(e + 1, next)
                }
                '*' -> { var t = n; while (t >= s) { if (boundary(t) && search(e + 1, t)) { found = true; break }; t-- } }
                'C' -> found = s < n && classContains(op.name, input[s], op.anyCase) && search(e + 1, s + 1)
                'V' -> outer@ for (alternative in op.alternatives) {
                    var t = n
                    while (t >= s) { if (globMatches(alternative, input.subList(s, t)) && search(e + 1, t)) { found = true; break@outer }; t-- }
                }
                else -> found = false
            }
            if (!found) failed[key] = true
            return found
        }
        return search(0, 0)
    }

    private class Form(val percentEncoded: Boolean, val caseSensitive: Boolean) { val slot get() = (if (percentEncoded) 0 else 2) + (if (caseSensitive) 0 else 1) }
    private fun formOf(slot: Int) = Form(slot < 2, slot % 2 == 0)

    private fun transform(bytes: List<Int>, form: Form): List<Int> {
        var result = if (form.percentEncoded) bytes else percentDecoded(bytes)
        if (!form.caseSensitive) result = lowercased(result)
        return result
    }

    /** A URL's path, query and fragment, and their forms computed once each. */
    private class Subject(val path: List<Int>, val query: List<Int>, val fragmentBytes: List<Int>) {
        private val paths = arrayOfNulls<List<Int>>(4)
        private val queries = arrayOfNulls<List<Int>>(4)
        private val fragments = arrayOfNulls<List<Int>>(4)
        private val lists = arrayOfNulls<List<Pair<List<Int>, List<Int>>>>(4)
        fun pathIn(form: Form): List<Int> = paths[form.slot] ?: transform(path, form).toMutableList().also { known ->
            while (known.isNotEmpty() && known[known.size - 1] == 0x2f) known.removeAt(known.size - 1)
            paths[form.slot] = known
        }
        fun queryIn(form: Form): List<Int> = queries[form.slot] ?: transform(query, form).also { queries[form.slot] = it }
        fun fragmentIn(form: Form): List<Int> = fragments[form.slot] ?: transform(fragmentBytes, form).also { fragments[form.slot] = it }
        /** Split on `&`, then the first `=`, before decoding; empty pieces skipped; no `=` is the empty value. */
        fun items(form: Form): List<Pair<List<Int>, List<Int>>> {
            lists[form.slot]?.let { return it }
            val list = ArrayList<Pair<List<Int>, List<Int>>>()
            var start = 0
            while (start < query.size) {
                var end = start
                while (end < query.size && query[end] != 0x26) end++
                if (end > start) {
                    var equals = start
                    while (equals < end && query[equals] != 0x3d) equals++
                    list.add(Pair(transform(query.subList(start, equals), form), if (equals < end) transform(query.subList(equals + 1, end), form) else emptyList()))
                }
                start = end + 1
            }
            lists[form.slot] = list
            return list
        }
    }

    private class CompiledRule(val form: Form, val never: Boolean, val path: List<Op>?, val parent: List<Op>?, val queryString: List<Op>?, val items: List<Pair<List<Int>, List<Op>>>, val fragment: List<Op>?)

    private val compiled: List<CompiledRule> by lazy {
        fun ops(tokens: List<Glob>?) = tokens?.let { compileOps(it) }
        table.rules.map { rule ->
            CompiledRule(formOf(rule.slot), rule.never, ops(rule.path), ops(rule.parent), ops(rule.queryString),
                rule.items.map { Pair(utf8(it.name), compileOps(it.pattern)) }, ops(rule.fragment))
        }
    }

    private fun ruleMatches(rule: CompiledRule, subject: Subject): Boolean {
        if (rule.never) return false
        if (rule.path != null) {
            val path = subject.pathIn(rule.form)
            if (!globMatches(rule.path, path) && (rule.parent == null || !globMatches(rule.parent, path))) return false
        }
        if (rule.queryString != null && !globMatches(rule.queryString, subject.queryIn(rule.form))) return false
        if (rule.items.isNotEmpty()) {
            val present = subject.items(rule.form)
            for ((name, pattern) in rule.items) {
                var seen = false
                for (candidate in present) {
                    if (candidate.first != name) continue
                    seen = true
                    if (!globMatches(pattern, candidate.second)) return false   // every repeated item must match
                }
                if (!seen && !globMatches(pattern, emptyList())) return false   // an absent item reads as ""
            }
        }
        if (rule.fragment != null && !globMatches(rule.fragment, subject.fragmentIn(rule.form))) return false
        return true
    }

    private class URLParts(val scheme: String, val host: String, val hasUserInfo: Boolean, val path: List<Int>, val query: List<Int>?, val fragment: List<Int>?)

    private const val HEX = "0123456789ABCDEF"

    private fun encodeRaw(bytes: List<Int>): List<Int> {
        val out = ArrayList<Int>()
        for (b in bytes) if (b <= 0x20 || b >= 0x7f) { out.add(0x25); out.add(code(HEX[b shr 4])); out.add(code(HEX[b and 15])) } else out.add(b)
        return out
    }

    /** A URL split as linkd splits it (RFC 3986 §3): raw bytes beyond printable ASCII percent-encoded. */
    private fun parseURL(url: String): URLParts? {
        val bytes = utf8(url)
        val colon = bytes.indexOf(0x3a)
        fun schemeByte(b: Int) = isUpper(b) || isLower(b) || isDigit(b) || b == 0x2b || b == 0x2d || b == 0x2e
        if (colon <= 0 || !bytes.subList(0, colon).all { schemeByte(it) } || isDigit(bytes[0]) || bytes[0] in listOf(0x2b, 0x2d, 0x2e)) return null
        val scheme = text(lowercased(bytes.subList(0, colon)))
        val slashes = bytes.size >= colon + 3 && bytes[colon + 1] == 0x2f && bytes[colon + 2] == 0x2f
        // A custom-scheme URL has no authority: what stands where a host would is its path's first segment, with
        // or without `//` (`widgets://widget/42`, `widgets:///widget/42`, `widgets:widget/42`, `widgets:/widget/42`).
        val web = scheme == "https" || scheme == "http"
        if (web && !slashes) return null
        val authorityStart = if (slashes) colon + 3 else colon + 1
        var authorityEnd = authorityStart
        while (web && authorityEnd < bytes.size && bytes[authorityEnd] !in listOf(0x2f, 0x3f, 0x23)) authorityEnd++
        val authority = bytes.subList(authorityStart, authorityEnd)
        val at = authority.lastIndexOf(0x40)
        val hostStart = if (at >= 0) authorityStart + at + 1 else authorityStart
        var hostEnd = authorityEnd
        val hostPart = bytes.subList(hostStart, authorityEnd)
        val portColon = hostPart.lastIndexOf(0x3a)
        if (portColon >= 0 && 0x5d !in hostPart.subList(portColon, hostPart.size)) {
            hostEnd = hostStart + portColon
            val digits = hostPart.subList(portColon + 1, hostPart.size)
            if (digits.isNotEmpty() && (!digits.all { isDigit(it) } || digits.size > 5 || text(digits).toInt() > 65535)) return null
        }
        if (hostEnd > hostStart && bytes[hostEnd - 1] == 0x2e) hostEnd--
        val host = text(lowercased(bytes.subList(hostStart, hostEnd)))
        var end = bytes.size
        var fragment: List<Int>? = null
        var query: List<Int>? = null
        val hash = bytes.subList(authorityEnd, bytes.size).indexOf(0x23).let { if (it < 0) -1 else it + authorityEnd }
        if (hash >= 0) { fragment = encodeRaw(bytes.subList(hash + 1, end)); end = hash }
        val mark = bytes.subList(authorityEnd, end).indexOf(0x3f).let { if (it < 0) -1 else it + authorityEnd }
        if (mark >= 0) { query = encodeRaw(bytes.subList(mark + 1, end)); end = mark }
        val path = encodeRaw(bytes.subList(authorityEnd, end))
        return URLParts(scheme, host, at >= 0, if (!web && path.isNotEmpty() && path[0] != 0x2f) listOf(0x2f) + path else path, query, fragment)
    }

    /** One template element: a literal (`capture` null), or a capture, `rest` for `{name*}`, `optional` for one a link may leave out. */
    private class TemplateElement(val literal: List<Int>, val capture: String?, val rest: Boolean, val optional: Boolean = rest)

    /** A path or query-value template with captures, matched as resolve matches it. */
    private fun templateCaptures(parts: List<Part>, raw: List<Int>, isPath: Boolean, caseSensitive: Boolean, percentEncoded: Boolean, found: MutableMap<String, String>): Boolean {
        var subject: MutableList<Int> = (if (percentEncoded) raw else utf8(text(percentDecoded(raw)))).toMutableList()
        val pattern = parts.map { if (it is Part.Literal || it is Part.Printed) TemplateElement(utf8(it.text), null, false) else TemplateElement(emptyList(), it.text, it is Part.Rest, it !is Part.Capture) }.toMutableList()
        if (isPath) {
            while (subject.size > 1 && subject[subject.size - 1] == 0x2f) subject.removeAt(subject.size - 1)
            if (subject.isEmpty() || subject[0] != 0x2f) subject.add(0, 0x2f)
            val first = pattern.firstOrNull()
            if (first != null && first.capture == null && (first.literal.isEmpty() || first.literal[0] != 0x2f)) pattern[0] = TemplateElement(listOf(0x2f) + first.literal, null, false)
            else if (first != null && first.capture != null) pattern.add(0, TemplateElement(listOf(0x2f), null, false))
        }
        fun fold(b: Int) = if (isUpper(b)) b + 32 else b
        fun equal(a: List<Int>, b: List<Int>) = a.size == b.size && a.indices.all { if (caseSensitive) a[it] == b[it] else fold(a[it]) == fold(b[it]) }
        fun record(name: String, bytes: List<Int>) {
            if (found.containsKey(name)) return
            val value = utf8(text(bytes))
            found[name] = text(if (percentEncoded) percentDecoded(value) else value)
        }
        fun match(p: Int, start: Int, end: Int): Boolean {
            if (p == pattern.size) return start == end
            val element = pattern[p]
            val capture = element.capture
            if (capture == null) {
                val bytes = element.literal
                if (end - start >= bytes.size && equal(subject.subList(start, start + bytes.size), bytes)) return match(p + 1, start + bytes.size, end)
                val next = pattern.getOrNull(p + 1)
                if (isPath && bytes.isNotEmpty() && bytes[bytes.size - 1] == 0x2f && next != null && next.capture != null && (next.rest || (next.optional && p + 2 == pattern.size)) && end - start == bytes.size - 1 && equal(subject.subList(start, end), bytes.subList(0, bytes.size - 1))) {
                    record(next.capture, emptyList())
                    return true
                }
                return false
            }
            if (element.rest) { record(capture, subject.subList(start, end)); return true }
            var limit = subject.subList(start, subject.size).indexOf(0x2f).let { if (it < 0) -1 else it + start }
            if (limit < 0 || limit > end) limit = end
            var stop = limit
            while (stop > start || (element.optional && stop == start)) {
                if (match(p + 1, stop, end)) { record(capture, subject.subList(start, stop)); return true }
                stop--
            }
            return false
        }
        return match(0, 0, subject.size)
    }

    private fun destinationOf(capture: Capture, subject: Subject, form: Form): LinkDestination {
        val found = HashMap<String, String>()
        // `Printed` parts (a raw pattern's text, to print) capture nothing.
        fun take(parts: List<Part>?, raw: List<Int>, isPath: Boolean): Boolean {
            val template = parts?.filter { it !is Part.Printed } ?: return true
            return template.isEmpty() || templateCaptures(template, raw, isPath, form.caseSensitive, form.percentEncoded, found)
        }
        var fits = take(capture.path, subject.path, true) && take(capture.fragment, subject.fragmentBytes, false)
        if (capture.items.isNotEmpty()) {
            val raw = subject.items(Form(true, true))
            val named = subject.items(form)
            for (item in capture.items) {
                if (!fits) break
                val name = if (form.caseSensitive) utf8(item.name) else lowercased(utf8(item.name))
                var value: List<Int> = emptyList()
                for (i in named.indices) if (named[i].first == name) { value = raw[i].second; break }
                fits = take(item.template, value, false)
            }
        }
        if (!fits) return LinkDestination.Invalid("invalid_param", null, "The URL is claimed by the rule's AASA pattern but does not fit its template (a capture such as {id} takes one path segment).")
        val spec = table.specs.firstOrNull { it.type == capture.type }
            ?: return LinkDestination.Invalid("unknown_destination", null, "The app has no destination type '${capture.type}'.")
        val params = HashMap<String, Any>()
        for (param in spec.params) {
            val bound = capture.params.firstOrNull { it.name == param.name }
            val value: String? = if (bound != null && bound.constant) bound.value else found[bound?.value ?: param.name]?.takeIf { it != "" }
            if (value == null) {
                if (param.optional) continue
                return LinkDestination.Invalid("missing_param", param.name, "The link has no value for the required parameter '${param.name}'.")
            }
            val (converted, reason) = convert(param, value)
            if (reason != null || converted == null) return LinkDestination.Invalid("invalid_param", param.name, "The parameter '${param.name}' is invalid: $reason.")
            params[param.name] = converted
        }
        return LinkDestination.make(capture.type, params) ?: LinkDestination.Invalid("unknown_destination", null, "The app has no destination type '${capture.type}'.")
    }

    private fun governing(host: String): Int {
        for (i in table.domains.indices) if (table.domains[i].host == host || table.domains[i].host == "*.$host") return i
        var rest = host
        while (rest.indexOf('.') >= 0) {
            rest = rest.substring(rest.indexOf('.') + 1)
            for (i in table.domains.indices) if (table.domains[i].host == "*.$rest") return i
        }
        return -1
    }

    // ---- Matching for an Android app (Android's PatternMatcher and dynamic rules, docs/ANDROID.md in linkd) ----

    /** A URL as Android compares it: the decoded path, query items and fragment (Kotlin strings are UTF-16, as Java's). */
    private class AndroidURL(path: List<Int>, query: List<Int>, fragment: List<Int>) {
        val path: String = text(percentDecoded(path))
        val fragment: String = text(percentDecoded(fragment))
        val items = ArrayList<Pair<String, String>>()

        init {
            var piece = ArrayList<Int>()
            for (b in query + listOf(0x26)) {
                if (b != 0x26) { piece.add(b); continue }
                if (piece.isNotEmpty()) {
                    val equals = piece.indexOf(0x3d)
                    items.add(if (equals < 0) Pair(text(percentDecoded(piece)), "")
                              else Pair(text(percentDecoded(piece.subList(0, equals))), text(percentDecoded(piece.subList(equals + 1, piece.size)))))
                }
                piece = ArrayList()
            }
        }
    }

    /**
     * The deciding entry of one app's rules: the first rule whose manifest attributes match puts the URL in the
     * app's scope; then, with dynamic rules, the first rule with a matching dynamic entry decides (an exclusion
     * too), else the manifest's rule does.
     */
    private fun androidFirst(url: AndroidURL, list: List<Int>, dynamic: Boolean): Pair<Int, Int>? {
        var claimed: Pair<Int, Int>? = null
        var i = 0
        while (i < list.size && claimed == null) {
            if (table.rules[list[i + 1]].manifest.any { androidAttribute(it, url.path) }) claimed = Pair(list[i], list[i + 1])
            i += 2
        }
        if (claimed == null || !dynamic) return claimed
        i = 0
        while (i < list.size) {
            if (table.rules[list[i + 1]].dynamic.any { androidEntry(it, url) }) return Pair(list[i], list[i + 1])
            i += 2
        }
        return null
    }

    /** Whether the path matches a manifest attribute. */
    private fun androidAttribute(attribute: Manifest, path: String): Boolean = when (attribute) {
        is Manifest.Path -> path == attribute.text
        is Manifest.PathPrefix -> path.startsWith(attribute.text)
        is Manifest.PathPattern -> simpleGlob(attribute.text, path)
        is Manifest.PathAdvancedPattern -> advancedGlob(attribute.tokens, path)
    }

    /** Whether a dynamic entry matches: its path, its fragment, and each named query item, present with one instance matching. */
    private fun androidEntry(entry: Dynamic, url: AndroidURL): Boolean {
        if (entry.path != null && !simpleGlob(entry.path, url.path)) return false
        if (entry.fragment != null && !simpleGlob(entry.fragment, url.fragment)) return false
        return entry.query.all { item -> url.items.any { it.first == item.name && simpleGlob(item.value, it.second) } }
    }

    /** `pathPattern`, read once left to right: `x*` takes every following `x`; `.*` takes input up to the first unit equal to the pattern's next one (never a longer run); a backslash escapes. */
    private fun simpleGlob(pattern: String, input: String): Boolean {
        if (pattern.length == 0) return input.length == 0   // (not `isEmpty()`: JDK 15 added a member Kotlin 1.3 warns about)
        var p = 0
        var s = 0
        while (p < pattern.length && s < input.length) {
            var unit = pattern[p++]
            val escaped = unit == '\\'
            if (escaped) unit = if (p < pattern.length) pattern[p++] else '\u0000'
            val starred = p < pattern.length && pattern[p] == '*'
            if (!starred) {
                if (!(unit == '.' && !escaped) && input[s] != unit) return false
                s++
                continue
            }
            p++
            if (unit == '.' && !escaped) {
                if (p >= pattern.length) return true
                var next = pattern[p]
                if (next == '\\' && p + 1 < pattern.length) next = pattern[++p]
                while (s < input.length && input[s] != next) s++
                if (s >= input.length) return false
                p++
                s++
            } else {
                while (s < input.length && input[s] == unit) s++
            }
        }
        if (p >= pattern.length && s >= input.length) return true
        return p == pattern.length - 2 && pattern[p] == '.' && pattern[p + 1] == '*'
    }

    /** `pathAdvancedPattern` from its tokens (`[minimum, maximum, inverted, low, high, ...]`): each takes as many units as it accepts, up to its maximum, and at least its minimum; the input must be used up. */
    private fun advancedGlob(tokens: List<List<Int>>, input: String): Boolean {
        var s = 0
        for (n in tokens) {
            val maximum = if (n[1] < 0) Int.MAX_VALUE else n[1]
            fun accepts(unit: Int): Boolean {
                var member = false
                var i = 3
                while (i + 1 < n.size) { if (n[i] <= unit && unit <= n[i + 1]) member = true; i += 2 }
                return member != (n[2] == 1)
            }
            var taken = 0
            while (taken < maximum && s + taken < input.length && accepts(code(input[s + taken]))) taken++
            if (taken < n[0]) return false
            s += taken
        }
        return s >= input.length
    }

    /** What `uri` opens in this app: `route` of its text (an Android `Uri`'s `toString()` is the same text). */
    @JvmStatic fun route(uri: java.net.URI): LinkDestination? = route(uri.toString())

    /**
     * What `url` opens in this app: resolve's decision; null when the app opens nothing, its rule names no destination,
     * or it is a targeted link ([decide] says so: only linkd's resolve, with the visitor's context, answers it).
     */
    @JvmStatic fun route(url: String): LinkDestination? = (decide(url) as? LinkRoute.Open)?.destination

    /** What the app does with `uri`: [decide] of its text. */
    @JvmStatic fun decide(uri: java.net.URI): LinkRoute? = decide(uri.toString())

    /**
     * What the app does with `url`: open a destination decided here, as resolve decides it; or, for a targeted link
     * (its destination depends on the visitor: targets or an experiment), ask linkd ([LinkRoute.NeedsResolve], which
     * [LinkResolveClient.resolve] does with the visitor's context). Null when the app opens nothing.
     */
    @JvmStatic fun decide(url: String): LinkRoute? {
        val parsed = parseURL(url) ?: return null
        val path = parsed.path
        val index: Int
        var onlySelf = false
        if (table.scheme != null && parsed.scheme == table.scheme && table.schemeDomain >= 0) {
            index = table.schemeDomain
            onlySelf = true
        } else {
            if (parsed.scheme != "https" || parsed.hasUserInfo) return null
            index = governing(parsed.host)
            if (index < 0) return null
        }
        val domain = table.domains[index]
        if (domain.app < 0) return null
        // A stored link's slug is its path after `/`, as linkd reads it.
        if (domain.targeted.isNotEmpty() && path.isNotEmpty() && path[0] == 0x2F && text(path.subList(1, path.size)) in domain.targeted) {
            return LinkRoute.NeedsResolve(url)
        }
        val rules = compiled
        val subject = Subject(path, parsed.query ?: emptyList(), parsed.fragment ?: emptyList())
        val android = if (domain.android > 0) AndroidURL(path, parsed.query ?: emptyList(), parsed.fragment ?: emptyList()) else null
        fun first(group: Int): Pair<Int, Int>? {
            val list = domain.groups[group]
            if (android != null) return androidFirst(android, list, domain.android == 2)
            var i = 0
            while (i < list.size) { if (ruleMatches(rules[list[i + 1]], subject)) return Pair(list[i], list[i + 1]); i += 2 }
            return null
        }
        var winner: Triple<Int, Int, Int>? = null   // app, entry, rule
        if (onlySelf) {
            val found = first(domain.appGroups[domain.app])
            if (found != null && !table.rules[found.second].exclude) winner = Triple(domain.app, found.first, found.second)
        } else {
            val decided = HashMap<Int, Pair<Int, Int>?>()
            for ((app, group) in domain.appGroups.withIndex()) {
                if (!decided.containsKey(group)) decided[group] = first(group)
                val found = decided[group]
                if (found == null || table.rules[found.second].exclude) continue
                if (winner == null || found.first < winner.second) winner = Triple(app, found.first, found.second)
            }
        }
        val chosen = winner
        if (chosen == null || chosen.first != domain.app) return null
        val capture = table.rules[chosen.third].capture ?: return null
        return LinkRoute.Open(destinationOf(capture, subject, formOf(table.rules[chosen.third].slot)))
    }

    private fun quoted(value: String): String {
        val out = StringBuilder("\"")
        for (ch in value) {
            val c = code(ch)
            when {
                c == 0x22 -> out.append("\\\"")
                c == 0x5c -> out.append("\\\\")
                c == 0x0a -> out.append("\\n")
                c == 0x0d -> out.append("\\r")
                c == 0x09 -> out.append("\\t")
                c < 0x20 -> out.append("\\u00").append(if (c < 16) "0" else "").append(Integer.toHexString(c))
                else -> out.append(ch)
            }
        }
        return out.append("\"").toString()
    }

    /** The destination in resolve's `destination` JSON shape, byte for byte. */
    internal fun json(destination: LinkDestination): String {
        if (destination is LinkDestination.Invalid) {
            return "{\"error\":{\"code\":" + quoted(destination.code) + (if (destination.param != null) ",\"param\":" + quoted(destination.param) else "") +
                ",\"detail\":" + quoted(destination.detail) + "}}"
        }
        return "{\"type\":" + quoted(destination.type ?: "") + ",\"params\":{" + destination.values.sortedBy { it.first }.joinToString(",") { (name, value) ->
            quoted(name) + ":" + (if (value is String) quoted(value) else value.toString())
        } + "}}"
    }

    /** Whether links to `type` are for signed-in users (`LinkInbox` holds them until one is). */
    internal fun requiresSignIn(type: String?): Boolean = table.specs.firstOrNull { it.type == type }?.requiresSignIn ?: false

    /** A minimal JSON reader (objects, arrays, strings, numbers as text, booleans, null) for resolve's answers. */
    private class JSONReader(val s: String) {
        var i = 0
        fun space() { while (i < s.length && s[i] in " \t\r\n") i++ }
        fun value(): Any? {
            space()
            if (i >= s.length) throw IllegalArgumentException()
            when (s[i]) {
                '{' -> {
                    i++
                    val out = LinkedHashMap<String, Any?>()
                    space()
                    if (i < s.length && s[i] == '}') { i++; return out }
                    while (true) {
                        space()
                        val key = value() as? String ?: throw IllegalArgumentException()
                        space(); expect(':')
                        out[key] = value()
                        space()
                        if (i < s.length && s[i] == ',') { i++; continue }
                        expect('}'); return out
                    }
                }
                '[' -> {
                    i++
                    val out = ArrayList<Any?>()
                    space()
                    if (i < s.length && s[i] == ']') { i++; return out }
                    while (true) {
                        out.add(value()); space()
                        if (i < s.length && s[i] == ',') { i++; continue }
                        expect(']'); return out
                    }
                }
                '"' -> {
                    i++
                    val out = StringBuilder()
                    while (true) {
                        if (i >= s.length) throw IllegalArgumentException()
                        val c = s[i++]
                        if (c == '"') return out.toString()
                        if (c != '\\') { out.append(c); continue }
                        if (i >= s.length) throw IllegalArgumentException()
                        when (val e = s[i++]) {
                            'n' -> out.append('\n'); 'r' -> out.append('\r'); 't' -> out.append('\t'); 'b' -> out.append('\b')
                            'f' -> out.append('\u000c')
                            'u' -> { if (i + 4 > s.length) throw IllegalArgumentException(); out.append(s.substring(i, i + 4).toInt(16).toChar()); i += 4 }
                            else -> out.append(e)
                        }
                    }
                }
                else -> {
                    for (word in listOf("true", "false", "null")) if (s.startsWith(word, i)) { i += word.length; return if (word == "null") null else word == "true" }
                    val start = i
                    while (i < s.length && s[i] in "+-0123456789.eE") i++
                    if (i == start) throw IllegalArgumentException()
                    return JSONNumber(s.substring(start, i))
                }
            }
        }
        fun expect(c: Char) { if (i >= s.length || s[i] != c) throw IllegalArgumentException(); i++ }
    }
    private class JSONNumber(val text: String)

    /** Reads a resolve answer (or its `destination` member alone) into a destination; null when it has none. */
    /** Whether a resolve answer says this app opens the URL (`open_app` or `invalid_param`, by this app). */
    internal fun opensThisApp(json: String): Boolean {
        val node = try { JSONReader(json).value() } catch (e: Exception) { return false }
        if (node !is Map<*, *>) return false
        val app = node["app"] as? Map<*, *> ?: return false
        return (node["outcome"] == "open_app" || node["outcome"] == "invalid_param") && app["id"] == appID
    }

    internal fun decode(json: String): LinkDestination? {
        var node: Any? = try { JSONReader(json).let { reader -> reader.value().also { reader.space(); if (reader.i != json.length) throw IllegalArgumentException() } } } catch (e: Exception) { return null }
        if (node is Map<*, *> && node.containsKey("destination")) node = node["destination"]
        if (node !is Map<*, *>) return null
        val error = node["error"]
        if (error is Map<*, *>) {
            val code = error["code"] as? String ?: return null
            val detail = error["detail"] as? String ?: return null
            return LinkDestination.Invalid(code, error["param"] as? String, detail)
        }
        val spec = table.specs.firstOrNull { it.type == node["type"] } ?: return null
        val given = node["params"] as? Map<*, *> ?: return null
        val params = HashMap<String, Any>()
        for ((name, value) in given) {
            val param = spec.params.firstOrNull { it.name == name } ?: return null
            val text = when (value) { is String -> value; is JSONNumber -> value.text; is Boolean -> value.toString(); else -> return null }
            val (converted, reason) = convert(param, text)
            if (reason != null || converted == null) return null
            params[param.name] = converted
        }
        if (spec.params.any { !it.optional && !params.containsKey(it.name) }) return null
        return LinkDestination.make(spec.type, params)
    }

    private fun encodeComponent(value: String, keepingSlashes: Boolean): String {
        val out = StringBuilder()
        for (b in utf8(value)) {
            if (isUpper(b) || isLower(b) || isDigit(b) || b == 0x2d || b == 0x2e || b == 0x5f || b == 0x7e || (keepingSlashes && b == 0x2f)) out.append(b.toChar())
            else out.append('%').append(HEX[b shr 4]).append(HEX[b and 15])
        }
        return out.toString()
    }

    private fun printCapture(capture: Capture, params: List<Pair<String, Any>>): String? {
        val captures = HashMap<String, String>()
        for ((name, value) in params) {
            val bound = capture.params.firstOrNull { it.name == name }
            if (bound != null && bound.constant) continue
            captures[bound?.value ?: name] = value.toString()
        }
        fun render(parts: List<Part>): String? {
            val out = StringBuilder()
            for (part in parts) {
                val value = captures[part.text]
                when (part) {
                    is Part.Literal, is Part.Printed -> out.append(part.text)
                    is Part.Optional, is Part.Rest -> out.append(encodeComponent(value ?: "", part is Part.Rest))
                    is Part.Capture -> if (value == null || value == "") return null else out.append(encodeComponent(value, false))
                }
            }
            return out.toString()
        }
        // As the server's builder: a raw path with wildcards (null) names no one URL; an item or fragment whose
        // captures are all left out is left out (an absent item reads as empty), an item printing empty from an
        // optional capture too; a raw item or fragment with wildcards prints nothing, and the route check decides.
        fun names(parts: List<Part>) = parts.filter { it is Part.Capture || it is Part.Optional || it is Part.Rest }.map { it.text }
        var path = (if (capture.path != null) render(capture.path) else null) ?: return null
        if (!path.startsWith("/")) path = "/$path"
        val items = ArrayList<String>()
        for (item in capture.items) {
            val tokens = item.template ?: continue
            val captured = names(tokens)
            if (captured.isNotEmpty() && captured.all { captures[it] == null }) continue
            val value = render(tokens) ?: return null
            if (value == "" && captured.isNotEmpty()) continue
            items.add(encodeComponent(item.name, false) + "=" + value)
        }
        if (items.isNotEmpty()) path += "?" + items.joinToString("&")
        if (capture.fragment != null) {
            val captured = names(capture.fragment)
            if (captured.isEmpty() || captured.any { captures[it] != null }) {
                path += "#" + (render(capture.fragment) ?: return null)
            } else {
                val fragment = render(capture.fragment)
                if (fragment != null && fragment.isNotEmpty()) path += "#$fragment"
            }
        }
        return path
    }

    /** A destination's URLs, null when it has none (`buildResult` says why). */
    @JvmStatic fun build(destination: LinkDestination): LinkURLs? = (buildResult(destination) as? LinkBuildResult.Built)?.urls

    /**
     * A destination's URLs: the first rule of the primary domain bound to its type that prints it and routes back to
     * it (a URL an earlier rule or exclusion would shadow is never returned); or why there is none.
     */
    @JvmStatic fun buildResult(destination: LinkDestination): LinkBuildResult {
        val spec = table.specs.firstOrNull { it.type == destination.type }
        if (destination is LinkDestination.Invalid || spec == null) return LinkBuildResult.Refused(null, "An invalid destination has no link.")
        // The values as the server checks them (`DestinationType.values`), in the type's order.
        val given = destination.values
        for (param in spec.params) {
            val value = given.firstOrNull { it.first == param.name }?.second?.toString() ?: continue
            if (value == "") return LinkBuildResult.Refused(param.name, "The parameter '${param.name}' cannot be empty: resolve reads an empty value as absent.")
            val reason = convert(param, value).second
            if (reason != null) return LinkBuildResult.Refused(param.name, "The parameter '${param.name}' is invalid: $reason.")
        }
        val wanted = json(destination)
        val indices = if (table.schemeDomain >= 0) listOf(table.schemeDomain) else table.domains.indices.toList()
        for (index in indices) {
            val domain = table.domains[index]
            if (domain.app < 0) continue
            val host = if (domain.host.startsWith("*.")) domain.host.substring(2) else domain.host
            val group = domain.groups[domain.appGroups[domain.app]]
            var i = 1
            while (i < group.size) {
                val rule = group[i]
                i += 2
                val capture = table.rules[rule].capture
                if (capture == null || capture.type != destination.type) continue
                val tail = printCapture(capture, destination.values) ?: continue
                val universal = "https://$host$tail"
                val routed = route(universal)
                if (routed == null || json(routed) != wanted) continue
                var scheme: String? = null
                if (table.scheme != null && index == table.schemeDomain) {
                    val url = table.scheme + "://" + (if (tail.startsWith("/")) tail.substring(1) else tail)
                    val back = route(url)
                    scheme = if (back != null && json(back) == wanted) url else null
                }
                return LinkBuildResult.Built(LinkURLs(universal, scheme))
            }
        }
        return LinkBuildResult.Refused(null, "No rule of the primary domain bound to '${destination.type}' prints these parameters and routes back to them.")
    }
}

/** The URLs that open a destination. */
data class LinkURLs(val universal: String, val scheme: String?)

/**
 * What `LinkRouter.buildResult` gives: the URLs, or why there are none: the parameter at fault, with the reason in
 * `POST /v1/links/build`'s words for a value the server refuses; or no parameter when no rule of the primary domain
 * prints the destination and routes back to it.
 */
sealed class LinkBuildResult {
    data class Built(val urls: LinkURLs) : LinkBuildResult()
    data class Refused(val param: String?, val detail: String) : LinkBuildResult()
}
