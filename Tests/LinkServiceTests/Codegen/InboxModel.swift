/// What `LinkInbox` must do, as a model every generated inbox is run against on every sequence of events up to a
/// length (docs/CODEGEN.md, "Arrivals"): the arrival paths (`w` a link the app is opened with, `n` a notification's
/// payload, `s` a link to a destination that requires sign-in, `x` a link of no app, `d` a deferred claim's
/// destination) in every order with `r` (the app is ready), `i` (a user signed in) and `o` (signed out).
struct InboxModel {
    static let events = Array("wnsxdrio")

    private var ready = false
    private var signedIn = false
    private var held: [(json: String, signIn: Bool)] = []

    /// Every sequence of 1 to `length` events.
    static func sequences(upTo length: Int) -> [String] {
        var all: [String] = []
        var level = [""]
        for _ in 0..<length {
            level = level.flatMap { prefix in events.map { prefix + String($0) } }
            all += level
        }
        return all
    }

    /// What a fresh inbox hands out at each event of `sequence`, as the drivers print it: each event's
    /// destinations' JSON, `,`-separated, the events `|`-separated, then `#` and how many it still holds.
    static func expected(_ sequence: String) -> String {
        var model = InboxModel()
        let outputs = sequence.enumerated().map { index, event in model.apply(event, index + 1).joined(separator: ",") }
        return outputs.joined(separator: "|") + "#\(model.held.count)"
    }

    static func widget(_ n: Int) -> String { #"{"type":"widgetDetail","params":{"id":\#(n)}}"# }

    static func profile(_ n: Int) -> String {
        #"{"type":"profile","params":{"user":"00000000-0000-4000-8000-"# + String(repeating: "0", count: 12 - String(n).count) + "\(n)\"}}"
    }

    private mutating func apply(_ event: Character, _ n: Int) -> [String] {
        switch event {
        case "w", "n", "d": held.append((Self.widget(n), false))
        case "s": held.append((Self.profile(n), true))
        case "r": ready = true
        case "i": signedIn = true
        case "o":
            signedIn = false
            held.removeAll { $0.signIn }
        default: break
        }
        guard ready else { return [] }
        let open = held.filter { signedIn || !$0.signIn }
        held.removeAll { signedIn || !$0.signIn }
        return open.map(\.json)
    }

    /// The properties the model must have, checked apart from it: an arrival is handed out at most once, not
    /// before the app is ready, one that requires sign-in only while a user is signed in; and, once ready and
    /// signed in with nothing signed out since, nothing that arrived is held.
    static func violations(_ sequence: String, _ printed: String) -> [String] {
        let parts = printed.split(separator: "#", omittingEmptySubsequences: false)
        let outputs = parts[0].split(separator: "|", omittingEmptySubsequences: false)
        guard outputs.count == sequence.count else { return ["\(sequence): \(outputs.count) outputs"] }
        var problems: [String] = []
        var seen: Set<Substring> = []
        var (ready, signedIn) = (false, false)
        for (event, output) in zip(sequence, outputs) {
            if event == "r" { ready = true }
            if event == "i" { signedIn = true }
            if event == "o" { signedIn = false }
            for json in output.split(separator: "},{", omittingEmptySubsequences: true) {
                if !ready { problems.append("\(sequence): handed before ready") }
                if json.contains("profile") && !signedIn { problems.append("\(sequence): sign-in link handed while signed out") }
                if !seen.insert(json).inserted { problems.append("\(sequence): handed twice") }
            }
        }
        if ready, signedIn, !sequence.contains("o"), parts.last != "0" { problems.append("\(sequence): still holds \(parts.last!)") }
        return problems
    }
}
