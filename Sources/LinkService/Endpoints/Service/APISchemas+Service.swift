import LinkKit

/// The components of the service endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let service: [(name: String, schema: Schema)] = [
        ("Health", Schema.object([.required("status", .constant("ok"))], closed: false).described("The process is up.")),
        (
            "TLSAsk",
            Schema.object([.required("domain", Schema.hostname)], closed: true).described(
                "linkd serves this hostname: a certificate may be issued for it.")
        ),
        (
            "Readiness",
            Schema.object(
                [
                    .required("status", .constant("ready")),
                    .required("database", .constant("ok")),
                    .required("migrations", .constant("current")),
                    .required(
                        "catalog",
                        Schema.object(
                            [
                                .required(
                                    "domains", Schema.integer(minimum: 0).described("Link domains in this node's in-memory catalog.")),
                                .required(
                                    "state",
                                    Schema.enumeration(["current", "stale"]).described(
                                        "`stale`: change notifications are not arriving; the last good catalog keeps serving.")),
                                .optional("staleSince", Schema.timestamp),
                            ], closed: false)),
                    .required(
                        "services",
                        Schema.array(
                            Schema.object(
                                [
                                    .required("name", Schema.string.described("`change feed`, `fetch log`, `hit writer`.")),
                                    .required(
                                        "healthy",
                                        Schema.boolean.described(
                                            "Whether it is doing its work now (the change feed: its listener is connected).")),
                                ], closed: false)
                        ).described("The background services, in start order.")),
                ], closed: false
            ).described("The database answers, its schema is current and the catalog is loaded.")
        ),
    ]
}
