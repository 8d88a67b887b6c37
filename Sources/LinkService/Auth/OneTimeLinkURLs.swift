/// The console's pages that one-time links open: `<base>/console/#/invitation?token=…` and
/// `<base>/console/#/password?token=…`, with the base linkd is reached at (`PublicOrigin`): the one printing of
/// them (the API's invitations and resets, `linkd users create`).
public enum OneTimeLinkURLs {
    static func invitation(_ token: SecretToken, base: String) -> String {
        "\(base)/console/#/invitation?token=\(token.text)"
    }

    public static func password(_ token: SecretToken, base: String) -> String {
        "\(base)/console/#/password?token=\(token.text)"
    }
}
