import LinkKit

/// The field shapes several request bodies and resources share, as the validators accept them (`Validators`).
extension Schema {
    static let teamID = Schema.string(pattern: "^[A-Z0-9]{10}$").described("An Apple team ID: 10 upper-case letters or digits.").example(
        "ABCDE12345")
    static let identifier = Schema.string(pattern: "^[A-Za-z][A-Za-z0-9_]{0,63}$")
    /// A name people read, as `TextLimit.isName` accepts it: no bidirectional embedding, override or isolate control.
    static func name(minLength: Int? = nil, maxLength: Int) -> Schema {
        Schema.string(pattern: "^[^\\u202A-\\u202E\\u2066-\\u2069]*$", minLength: minLength, maxLength: maxLength)
    }
    static let created = Schema.timestamp.readOnly.described("When it was created.")
    static let updated = Schema.timestamp.readOnly.described("When it last changed.")
    /// A timestamp a request may send: RFC 3339 in `RFC3339.accepted`, whose years the pattern bounds.
    static let acceptedTimestamp = Schema.string(format: "date-time", pattern: "^(19[7-9][0-9]|[2-9][0-9]{3})-")
    /// An absolute `https://` URL as `Validators.httpsURL` accepts it (written with RFC 3986's characters, no user
    /// or password): redirect targets and store links in request bodies.
    static let httpsURLInput = Schema.string(
        format: "uri",
        pattern:
            "^[Hh][Tt][Tt][Pp][Ss]://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/(\(urlCharacter)|/)*)?(\\?(\(urlCharacter)|[/?])*)?(#(\(urlCharacter)|[/?])*)?$",
        maxLength: 2000
    ).described("An absolute `https://` URL.")
    /// A port number, 0 to 65535.
    private static let port = "[0-9]{1,4}|[0-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]"
    /// One character of a URL's path, query or fragment as RFC 3986 writes it (unreserved, sub-delims, `:`, `@`, `%XX`).
    private static let urlCharacter = "[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2}"
    /// A link to resolve: an absolute `http` or `https` URL as `AASAURL` splits it (any characters after the
    /// authority: raw ones are percent-encoded as a browser does; a port, when written, is a number), or a
    /// custom-scheme link (any other scheme but `javascript`, `data` and `file`).
    static let linkURL = Schema.string(
        pattern: "^([Hh][Tt][Tt][Pp][Ss]?://([^/?#]*@)?([^/?#@:\\[\\]]*|\\[[^/?#@\\[\\]]*\\])(:(\(port))?)?([/?#][\\s\\S]*)?"
            + "|(?![Hh][Tt][Tt][Pp][Ss]?:|[Jj][Aa][Vv][Aa][Ss][Cc][Rr][Ii][Pp][Tt]:|[Dd][Aa][Tt][Aa]:|[Ff][Ii][Ll][Ee]:)[A-Za-z][A-Za-z0-9+.-]*:[\\s\\S]*)$"
    )
    .described(
        """
        An absolute http(s) URL, or a custom-scheme link (`widgets://widget/42`), whose first path segment is read as \
        its path's first segment: `widgets://widget/42` and `widgets:///widget/42` are both the path `/widget/42`.
        """
    ).example("https://links.example.com/widget/42")

    /// What `Hostname` accepts written in ASCII: two labels or more of letters, digits and inner `-` (63 at most),
    /// the last starting with a letter, an optional `*.` first label and trailing dot. Internationalised names
    /// are also accepted and stored in punycode.
    static let hostname = Schema.string(
        pattern: "^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?$", maxLength: 253
    ).described("The hostname, lower-case, internationalised names in punycode; `*.example.com` covers the subdomains of example.com.")
        .example("links.example.com")
}
