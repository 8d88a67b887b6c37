/// The members of `POST /v1/keys`'s body, each declared once for the document and the handler (`BodyField`).
enum KeyFields {
    static let name = BodyField.text("name", limit: .keyName)
    static let scope = BodyField.choice("scope", Scope.allCases.map(\.rawValue), schema: .ref("Scope"))
    static let role = BodyField.choice("role", Role.allCases.map(\.rawValue), schema: .ref("Role"))
}
