import LinkKit

/// The components of the teams endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let teams: [(name: String, schema: Schema)] = [
        (
            "Team",
            Team.members.schema(closed: false).described(
                "A registered Apple team ID, the prefix of every iOS app ID in the workspace. Addressed by the team ID itself.")
        ),
        ("TeamCreate", Schema.object([.required(TeamFields.teamID), .required(TeamFields.name)], closed: true)),
        (
            "TeamUpdate",
            Schema.object([.optional(TeamFields.name)], closed: true).described(
                "The team ID cannot be changed (sending `teamId` is a 422); register the new team and move the apps.")
        ),
    ]
}
