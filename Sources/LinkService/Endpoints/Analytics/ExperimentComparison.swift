import Foundation

/// The difference between a variant and its experiment's control (the first variant), with a 95 % confidence
/// interval (docs/HITS.md, "Experiments"): the difference of the mean clicks per visitor-day, variant minus control,
/// with Welch's standard error and the normal approximation (`estimate ± 1.96 · √(s₁²/n₁ + s₀²/n₀)`). It assumes
/// visitor-days independent of one another and enough of them for the means to be about normal: with fewer than
/// `minimumVisitors` in either arm, or no variation in both, there is no interval, and the reason says why.
struct ExperimentComparison: Equatable {
    static let minimumVisitors = 30
    /// The two-sided 95 % quantile of the standard normal distribution.
    static let z95 = 1.959963984540054
    static let method =
        "Welch normal-approximation 95 % confidence interval of the difference in mean clicks per visitor-day (variant minus control)"

    let estimate: Double
    let low: Double
    let high: Double

    /// One arm's sample: visitor-days, their clicks, and the sum of each one's clicks squared.
    struct Sample {
        var visitors: Int
        var clicks: Int
        var squares: Int

        var mean: Double { visitors == 0 ? 0 : Double(clicks) / Double(visitors) }
        /// The sample variance of clicks per visitor-day (n - 1).
        var variance: Double {
            guard visitors > 1 else { return 0 }
            let n = Double(visitors)
            return max(0, (Double(squares) - Double(clicks) * Double(clicks) / n) / (n - 1))
        }
    }

    /// The comparison of `variant` with `control`, or why there is none.
    static func compare(_ variant: Sample, with control: Sample) -> Result<ExperimentComparison, Unavailable> {
        guard variant.visitors >= minimumVisitors, control.visitors >= minimumVisitors else {
            return .failure(
                Unavailable(
                    reason:
                        "too few visitors: at least \(minimumVisitors) in the variant and in the control are needed (\(variant.visitors) and \(control.visitors))"
                ))
        }
        let error = (variant.variance / Double(variant.visitors) + control.variance / Double(control.visitors)).squareRoot()
        guard error > 0 else {
            return .failure(
                Unavailable(reason: "no variation: every visitor of both clicked as often, so the normal approximation gives no interval"))
        }
        let estimate = variant.mean - control.mean
        return .success(ExperimentComparison(estimate: estimate, low: estimate - z95 * error, high: estimate + z95 * error))
    }

    /// The 95 % Wilson score interval of the proportion `successes / trials`; nil when it is none (no trials, or more
    /// successes than trials: events a click led to more than once).
    static func wilson(_ successes: Int, of trials: Int) -> (low: Double, high: Double)? {
        guard trials > 0, successes <= trials, successes >= 0 else { return nil }
        let (n, p, z) = (Double(trials), Double(successes) / Double(trials), z95)
        let center = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return (max(0, center - half), min(1, center + half))
    }

    struct Unavailable: Error, Equatable {
        let reason: String
    }
}
