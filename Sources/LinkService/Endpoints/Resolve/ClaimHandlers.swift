import Foundation
import HTTPServer
import LinkKit

/// `POST /v1/deferred/claim {"token": "…"}`: the app, on its first launch, hands over the click token it got
/// from the Play Install Referrer or the pasteboard and gets the link's resolve answer, once (docs/LANDING.md).
/// The token is the credential (128 random bits, single use), so no key is needed: an app ships none. A second
/// claim and an expired token are 410, an unknown one 404. The claim is a hit (`source: "claim"`).
///
/// Deterministic only: the token is the only thing matched. No IP address, no fingerprint, no probabilistic
/// matching.
struct ClaimHandlers: EndpointGroup {
    let tokens: ClickTokens
    let resolver: Resolver
    let hits: any HitSink
    let agents: UserAgentCache

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/deferred/claim", "claimDeferredLink", "Claim a click token once: the link a person clicked before installing",
                tag: "Resolve", access: .public,
                description: """
                    The app calls this on its first launch with the token it found in the Play Install Referrer (`linkd_token=<token>`)                         or, on iOS with `deferredClipboard`, in the claim link on the pasteboard (`https://<domain>/_linkd/claim/<token>`).                         The answer is the resolve answer of the clicked link, once: a second claim and an expired token are 410, an unknown                         one 404. The token is the credential (128 random bits, single use; only its hash is stored), so no key is needed.                         Deterministic only: no IP address, no fingerprint, no probabilistic matching. Claims are hits (`source: claim`).
                    """,
                body: "DeferredClaim", success: .json(200, "ResolveResult"), errors: [404, 410]
            ) { request in try claim(request) }
        ]
    }

    func claim(_ request: Request) throws -> Response {
        let token = try JSONBody.read(request) { ClaimFields.token.read(&$0, required: true) }
        switch try tokens.claim(token!) {
        case .unknown: throw ServiceError.notFound("The click token")
        case .alreadyClaimed: throw ServiceError.gone("The click token was claimed already; a token answers once.")
        case .expired: throw ServiceError.gone("The click token expired.")
        case let .claimed(url, platform, workspace, answer):
            if let resolved = try? resolver.resolve(url, platform: platform == "android" ? .android : .ios, workspace: workspace) {
                var hit = Hit(
                    resolved: resolved.answer, source: .claim, request: request, agent: agents.classify(request),
                    workspace: workspace)
                hit.served = .claim
                hit.isBot = false // the app asks, with its HTTP library's User-Agent
                if hit.device == .bot { hit.device = .other } // the class says bot only with isBot
                if resolved.answer.targeted, let stored = try? JSONValue.parse(answer) {
                    // The target and variant the click was given, which the answer carries through the install.
                    (hit.target, hit.variant) = (stored["target"]?.stringValue, stored["variant"]?.stringValue)
                }
                hits.record(hit, from: request)
            }
            return .json(Array(answer.utf8))
        }
    }
}
