import Foundation
import LinkKit

/// A funnel's figures: per group (or the whole), clicks, then each step's events, the reopens, and the revenue per
/// currency. Steps are the same for every group: `install`, `open`, then the named events, most frequent first.
struct Funnel {
    struct Figures {
        var value: String?
        var clicks = 0
        var events: [String: Int] = [:]
        /// Per step and currency: events with a value, and the values' sum.
        var revenue: [String: [String: (events: Int, value: Int)]] = [:]
    }

    let steps: [String]
    let total: Figures
    /// By clicks, then installs, most first; the group without a value last.
    let groups: [Figures]

    init(clicks: [String?: Int], events: [EventFunnelStore.Count]) {
        var byGroup: [String?: Figures] = [:]
        var total = Figures()
        for (group, count) in clicks {
            byGroup[group, default: Figures(value: group)].clicks += count
            total.clicks += count
        }
        var named: [String: Int] = [:]
        for count in events {
            func add(_ figures: inout Figures) {
                figures.events[count.name, default: 0] += count.events
                if let currency = count.currency {
                    let before = figures.revenue[count.name]?[currency] ?? (0, 0)
                    figures.revenue[count.name, default: [:]][currency] = (before.events + count.events, before.value + count.value)
                }
            }
            add(&byGroup[count.group, default: Figures(value: count.group)])
            add(&total)
            if !["install", "open", "reopen"].contains(count.name) { named[count.name, default: 0] += count.events }
        }
        steps = ["clicks", "install", "open"] + named.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
        self.total = total
        groups = byGroup.values.sorted { a, b in
            if (a.value == nil) != (b.value == nil) { return b.value == nil }
            let (ai, bi) = (a.events["install"] ?? 0, b.events["install"] ?? 0)
            return (a.clicks, ai, b.value ?? "") > (b.clicks, bi, a.value ?? "")
        }
    }

    /// The members of one group's (or the whole's) funnel, and its CSV rows (`group,step,count,rate,currency,value`).
    func figures(of figures: Figures, csv: inout [[String]], group: String?) -> [JSONMember] {
        var previous: Int?
        var stepValues: [JSONValue] = []
        var currencies: [String: (events: Int, value: Int)] = [:]
        for step in steps {
            let count = step == "clicks" ? figures.clicks : figures.events[step] ?? 0
            let rate = previous.flatMap { $0 > 0 ? String(format: "%.4f", Double(count) / Double($0)) : nil }
            var fields = [
                JSONMember(key: "step", value: .string(step)), JSONMember(key: "count", value: .integer(count)),
                JSONMember(key: "rate", value: rate.map(JSONValue.number) ?? .null),
            ]
            csv.append([group ?? "", step, String(count), rate ?? "", "", ""])
            if let revenue = figures.revenue[step] {
                fields.append(JSONMember(key: "revenue", value: Self.revenue(revenue)))
                for (currency, sum) in revenue {
                    let before = currencies[currency] ?? (0, 0)
                    currencies[currency] = (before.events + sum.events, before.value + sum.value)
                }
            }
            stepValues.append(.object(fields))
            previous = count
        }
        for (currency, sum) in currencies.sorted(by: { $0.key < $1.key }) {
            csv.append([group ?? "", "revenue", String(sum.events), "", currency, String(sum.value)])
        }
        return [
            JSONMember(key: "steps", value: .array(stepValues)),
            JSONMember(key: "reopens", value: .integer(figures.events["reopen"] ?? 0)),
            JSONMember(key: "revenue", value: Self.revenue(currencies)),
        ]
    }

    /// Revenue per currency, by currency code: `[{"currency", "value" (minor units), "events"}]`.
    static func revenue(_ sums: [String: (events: Int, value: Int)]) -> JSONValue {
        .array(
            sums.sorted { $0.key < $1.key }.map { currency, sum in
                .object([
                    JSONMember(key: "currency", value: .string(currency)), JSONMember(key: "value", value: .integer(sum.value)),
                    JSONMember(key: "events", value: .integer(sum.events)),
                ])
            })
    }
}
