// bench/router: routes 1,024 prepared URLs (7 in 8 hit a random rule, 1 in 8 miss) through the generated Swift
// router in rounds and prints the median decisions/second; with a third argument, that many untimed passes over
// the URLs instead, for callgrind (bench/router/README.md).
import Foundation

let arguments = CommandLine.arguments
let rules = Int(arguments.dropFirst().first ?? "10") ?? 10
let rounds = Int(arguments.dropFirst(2).first ?? "5") ?? 5
let passes = arguments.dropFirst(3).first.flatMap { Int($0) }
/// SplitMix64 with a fixed seed: the same URLs every run, so instruction counts repeat.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
var generator = SplitMix64(state: 42)
var urls: [String] = []
for index in 0..<1024 {
    urls.append(
        index % 8 == 7
            ? "https://links.example.com/nowhere/\(index)"
            : "https://links.example.com/section\(Int(generator.next() % UInt64(rules)))/\(index + 1)")
}
guard LinkRouter.route(urls[0]) != nil || urls[0].contains("nowhere") else { fatalError("the router does not route the bench URLs") }
if let passes {
    var opened = 0
    for _ in 0..<passes {
        for url in urls where LinkRouter.route(url) != nil { opened += 1 }
    }
    print("\(passes * urls.count) decisions, \(opened) opened")
    exit(0)
}
var rates: [Double] = []
for _ in 0..<rounds {
    var decisions = 0
    var opened = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed: UInt64 = 0
    while elapsed < 300_000_000 {
        for url in urls where LinkRouter.route(url) != nil { opened += 1 }
        decisions += urls.count
        elapsed = DispatchTime.now().uptimeNanoseconds - start
    }
    precondition(opened > 0)
    rates.append(Double(decisions) / (Double(elapsed) / 1e9))
}
rates.sort()
print(Int(rates[rates.count / 2]))
