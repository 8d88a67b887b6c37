import Foundation
import LinkKit

/// The components of the analytics endpoints (`OpenAPIDocument`).
extension APISchemas {
    static var analytics: [(name: String, schema: Schema)] {
        [
            ("TimeZone", Schema.enumeration(["UTC"] + TimeZone.knownTimeZoneIdentifiers.sorted())
                .described("An IANA time zone this server knows (its tz database).").example("Europe/Paris")),
        ]
    }
}
