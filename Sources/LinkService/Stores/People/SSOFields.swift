import LinkKit

/// The members of the single sign-on settings' request body (`PUT /v1/sso`), each declared once for the document
/// and the handler (`BodyField`). Whether the issuer may be asked (scheme, addresses) depends on the
/// configuration: the handler asks `OpenIDProviders` after reading it.
enum SSOFields {
    static let issuer = BodyField.text(
        "issuer", limit: .url,
        "The provider's issuer identifier, exactly as its ID tokens and discovery document name it "
            + "(`https://accounts.google.com`, `https://keycloak.example.com/realms/acme`).")
    static let clientID = BodyField.text("clientId", limit: .comment, "The client id linkd was registered with at the provider.")
    static let clientSecret = BodyField.text(
        "clientSecret", limit: .comment,
        "The client secret (sent with `client_secret_basic`); stored sealed and never shown. "
            + "Required the first time; absent keeps the stored one.")
    static let allowedDomains = BodyField<[String]>(
        "allowedDomains",
        schema: Schema.array(Schema.hostname, maxItems: maxDomains, unique: true)
            .described(
                "Email domains whose people may be added at their first sign-in (their address verified by the provider). "
                    + "Empty: only existing members sign in.")
    ) { body, name, required in
        guard let texts = body.strings(name, required: required, maxCount: maxDomains, limit: .hostname) else { return nil }
        var domains: [String] = []
        for (index, text) in texts.enumerated() {
            guard let hostname = try? Hostname(text) else {
                body.errors.add(body.at(name) + "/\(index)", "'\(text.prefix(100))' is not a domain name.")
                continue
            }
            if !domains.contains(hostname.rawValue) { domains.append(hostname.rawValue) }
        }
        return domains
    }
    static let defaultRole = BodyField.choice(
        "defaultRole", Role.allCases.map(\.rawValue),
        schema: Schema.enumeration(Role.allCases.map(\.rawValue)).described(
            "The role of a person added at their first sign-in; null: nobody is added unless a group maps to a role."))
    static let groupsClaim = BodyField.text(
        "groupsClaim", limit: .memberName,
        "The ID token claim listing the person's groups (`groups`, `roles`).")
    static let groupRoles = BodyField<[String: Role]>(
        "groupRoles",
        schema: Schema.map(Schema.enumeration(Role.allCases.map(\.rawValue)))
            .described("Group name to role: at each sign-in a person gets the highest role their groups map to.")
    ) { body, name, required in
        guard var object = body.object(name, required: required) else { return nil }
        var roles: [String: Role] = [:]
        let groups = object.keys()
        guard groups.count <= maxGroups else {
            body.errors.add(body.at(name), "At most \(maxGroups) groups are mapped.")
            return nil
        }
        for group in groups {
            let pointer = JSONPointer.appending(body.at(name), group)
            guard let text = object.value(group)?.stringValue, let role = Role(rawValue: text) else {
                body.errors.add(pointer, "A group maps to a role: \(Role.allCases.map(\.rawValue).joined(separator: ", ")).")
                continue
            }
            roles[group] = role
        }
        return roles
    }
    static let required = BodyField.flag(
        "required",
        "Whether members must sign in through the provider: password sign-in is refused for them.")

    static let maxDomains = 50
    static let maxGroups = 100
}
