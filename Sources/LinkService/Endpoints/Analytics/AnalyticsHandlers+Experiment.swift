import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/links/{id}/experiment`: per experiment of the link (its own variants, then each target's), per variant,
/// the visitors who clicked, their clicks and clicks per visitor, and each variant's difference from the control (the
/// first variant) with a 95 % confidence interval (`ExperimentComparison`), stated with its method. Variants the
/// hits name but the link no longer has (removed, renamed) follow the link's own, marked `configured: false`.
extension AnalyticsHandlers {
    func experiment(_ request: Request, _ principal: Principal) throws -> Response {
        try QueryParameter.refuseOthers(than: [], in: request)
        let text = request.pathParameter(.id)
        typealias Conversions = [(target: String?, variant: String, count: EventFunnelStore.Count)]
        let (link, arms, conversions) = try AnalyticsStore.read(pool) { connection -> (Link, [ExperimentStore.Arm], Conversions) in
            guard let id = UUID(uuidString: text),
                let link = try LinkStore.find(id, of: principal.workspaceID, forUpdate: false, on: connection)
            else {
                throw ServiceError.notFound("The link '\(text.prefix(100))'")
            }
            return (
                link, try ExperimentStore.arms(link: link.id, workspace: principal.workspaceID, on: connection),
                try EventFunnelStore.experimentCounts(link: link.id, workspace: principal.workspaceID, on: connection)
            )
        }
        // The experiments configured, in the link's order, then those only the hits still name.
        var experiments: [(target: String?, variants: [LinkTargeting.Variant])] = []
        if let variants = link.variants { experiments.append((nil, variants)) }
        for target in link.targets ?? [] { if let variants = target.variants { experiments.append((target.name, variants)) } }
        for arm in arms where !experiments.contains(where: { $0.target == arm.target }) { experiments.append((arm.target, [])) }
        let answer: [JSONMember] = [
            JSONMember(
                key: "link",
                value: .object([
                    "id": .uuid(link.id), "domain": .string(link.hostname), "slug": .string(link.slug),
                    "shortLink": .string(link.shortLink),
                ])),
            JSONMember(key: "source", value: .string("click")),
            JSONMember(key: "unit", value: .string("visitor-day")),
            JSONMember(
                key: "method",
                value: .object([
                    "metric": .string("clicksPerVisitor"),
                    "interval": .string(ExperimentComparison.method),
                    "confidence": .number("0.95"),
                    "minimumVisitors": .integer(ExperimentComparison.minimumVisitors),
                ])),
            JSONMember(
                key: "experiments",
                value: .array(
                    experiments.map { experiment in
                        Self.experimentJSON(
                            link, target: experiment.target, configured: experiment.variants,
                            arms: arms.filter { $0.target == experiment.target },
                            conversions: conversions.filter { $0.target == experiment.target }.map(\.count))
                    })),
        ]
        return .json(JSONValue.object(answer).serializedBytes)
    }

    /// One experiment: its variants (configured ones in order, then those only hits name), the first the control.
    private static func experimentJSON(
        _ link: Link, target: String?, configured: [LinkTargeting.Variant], arms: [ExperimentStore.Arm],
        conversions: [EventFunnelStore.Count]
    ) -> JSONValue {
        // The experiment's steps, the same for each variant: install, open, then the named events, most frequent first.
        let funnel = Funnel(clicks: [:], events: conversions)
        let steps = funnel.steps.dropFirst()
        let label = (link.name ?? link.slug) + (target.map { " · \($0) (target)" } ?? "")
        var names = configured.map(\.name)
        for arm in arms where !names.contains(arm.variant) { names.append(arm.variant) }
        func sample(_ name: String) -> ExperimentComparison.Sample {
            let arm = arms.first { $0.variant == name }
            return ExperimentComparison.Sample(visitors: arm?.visitors ?? 0, clicks: arm?.clicks ?? 0, squares: arm?.squares ?? 0)
        }
        let control = names.first.map(sample)
        return .object([
            JSONMember(key: "target", value: target.map(JSONValue.string) ?? .null),
            JSONMember(key: "label", value: .string(label)),
            JSONMember(
                key: "variants",
                value: .array(
                    names.enumerated().map { index, name in
                        let variant = configured.first { $0.name == name }
                        let figures = sample(name)
                        var difference: JSONValue = .null, reason: JSONValue = .string("the control")
                        if index > 0, let control {
                            switch ExperimentComparison.compare(figures, with: control) {
                            case .success(let comparison):
                                difference = .object([
                                    "estimate": Self.decimal(comparison.estimate), "low": Self.decimal(comparison.low),
                                    "high": Self.decimal(comparison.high),
                                ])
                                reason = .null
                            case .failure(let unavailable): reason = .string(unavailable.reason)
                            }
                        }
                        return .object([
                            JSONMember(key: "name", value: .string(name)),
                            JSONMember(key: "label", value: .string("\(label) · \(name) (variant)")),
                            JSONMember(key: "control", value: .bool(index == 0)),
                            JSONMember(key: "configured", value: .bool(variant != nil)),
                            JSONMember(key: "stopped", value: .bool(variant?.stopped ?? true)),
                            JSONMember(key: "weight", value: variant.map { .integer($0.weight) } ?? .null),
                            JSONMember(key: "visitors", value: .integer(figures.visitors)),
                            JSONMember(key: "clicks", value: .integer(figures.clicks)),
                            JSONMember(key: "clicksPerVisitor", value: figures.visitors == 0 ? .null : Self.decimal(figures.mean)),
                            JSONMember(key: "difference", value: difference),
                            JSONMember(key: "differenceUnavailable", value: reason),
                            JSONMember(
                                key: "conversions",
                                value: Self.conversionsJSON(
                                    funnel.groups.first { $0.value == name } ?? Funnel.Figures(value: name), steps: steps,
                                    clicks: figures.clicks)),
                        ])
                    })),
        ])
    }

    /// A variant's conversions: per step its events, their rate per click with its 95 % Wilson score interval, and the
    /// revenue per currency.
    private static func conversionsJSON(_ figures: Funnel.Figures, steps: ArraySlice<String>, clicks: Int) -> JSONValue {
        var currencies: [String: (events: Int, value: Int)] = [:]
        let stepValues = steps.map { step -> JSONValue in
            let count = figures.events[step] ?? 0
            for (currency, sum) in figures.revenue[step] ?? [:] {
                let before = currencies[currency] ?? (0, 0)
                currencies[currency] = (before.events + sum.events, before.value + sum.value)
            }
            let interval = ExperimentComparison.wilson(count, of: clicks)
            return .object([
                JSONMember(key: "step", value: .string(step)),
                JSONMember(key: "count", value: .integer(count)),
                JSONMember(key: "rate", value: clicks == 0 ? .null : Self.decimal(Double(count) / Double(clicks))),
                JSONMember(
                    key: "interval",
                    value: interval.map { .object(["low": Self.decimal($0.low), "high": Self.decimal($0.high)]) } ?? .null),
            ])
        }
        return .object([
            JSONMember(key: "steps", value: .array(stepValues)),
            JSONMember(key: "revenue", value: Funnel.revenue(currencies)),
        ])
    }

    /// A figure to four decimals.
    private static func decimal(_ value: Double) -> JSONValue {
        .number(String(format: "%.4f", value))
    }
}
