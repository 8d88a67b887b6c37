/// The members of the teams' request bodies, each declared once for the document and the handlers (`BodyField`).
enum TeamFields {
    static let teamID = BodyField.validated("teamId", Schema.teamID, Validators.teamID)
    static let name = BodyField.text("name", limit: .name)
}
