import LinkKit

/// The components of the association health endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let health: [(name: String, schema: Schema)] = [
        (
            "AssociationCheck",
            Schema.object(
                [
                    .required(
                        "check",
                        Schema.enumeration(CheckKind.allCases.map(\.rawValue))
                            .described(
                                "`origin`: the domain's own files as the internet fetches them; `apple_cdn`: Apple's CDN copy of the AASA file; `google`: Google's Digital Asset Links view of one Android app."
                            )),
                    .optional("app", Schema.uuid.described("The Android app a `google` check is about.")),
                    .required(
                        "state",
                        Schema.enumeration(CheckState.allCases.map(\.rawValue))
                            .described(
                                "`current`: what linkd serves now; `stale`: an older version (`detail.version`, `detail.staleSince`); `unknown`: no version linkd kept; `missing`: Apple's CDN has no copy, or Google does not list the package or a fingerprint; `misconfigured`: the origin redirects, answers another status or content type, a file over 128 KB or not JSON (`detail.<file>.problems`); `failing`: the check could not run (`detail.reason`: `dns`, `connect`, `tls`, `timeout`, ...)."
                            )),
                    .required("healthy", Schema.boolean.described("Whether the state is `current`.")),
                    .required("since", Schema.timestamp.described("Since when the check has been in this state.")),
                    .required("checkedAt", Schema.timestamp.described("When it last ran.")),
                    .required(
                        "detail",
                        Schema.anyObject.described(
                            "What the check saw (docs/HEALTH.md, \"Checks\"): URLs, statuses, content types, sizes, ETags and the version matched; for a stale Apple CDN copy the URLs iOS decides otherwise (`moved`, `movedCount`, `corpus`); for Google the missing fingerprints and the dynamic rules it returns."
                        )),
                ], closed: false
            ).described("The last result of one association check.")
        ),
        (
            "CheckChange",
            Schema.object(
                [
                    .required("check", Schema.enumeration(CheckKind.allCases.map(\.rawValue))),
                    .optional("app", Schema.uuid),
                    .required(
                        "from",
                        Schema.enumeration(CheckState.allCases.map(\.rawValue)).nullable.described("null: the check's first result.")),
                    .required(
                        "to",
                        Schema.enumeration(CheckState.allCases.map(\.rawValue)).nullable.described(
                            "null: the app is no longer on the domain.")),
                ], closed: false
            ).described("A state change made by a run of the checks.")
        ),
        (
            "DomainHealth",
            Schema.object(
                [
                    .required("hostname", Schema.hostname),
                    .required(
                        "healthy", Schema.boolean.described("Whether the origin and Apple checks have run and every check is `current`.")),
                    .required("checks", Schema.array(.ref("AssociationCheck"))),
                    .required(
                        "nextCheckAt",
                        Schema.timestamp.nullable.described(
                            "When the background check of the domain is next due; null when background checks are off or it has no slot yet."
                        )),
                    .optional(
                        "changes", Schema.array(.ref("CheckChange")).described("The state changes of this run (`POST …/checks` only).")),
                ], closed: false
            ).described("The association health of a domain.")
        ),
    ]
}
