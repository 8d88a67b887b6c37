// bench/router: routes 1,024 prepared URLs (7 in 8 hit a random rule, 1 in 8 miss) through the generated Swift
// router in rounds and prints the median decisions/second (bench/router/README.md).
import Foundation

let arguments = CommandLine.arguments
let rules = Int(arguments.dropFirst().first ?? "10") ?? 10
let rounds = Int(arguments.dropFirst(2).first ?? "5") ?? 5
var generator = SystemRandomNumberGenerator()
let urls: [String] = (0..<1024).map { index in
    index % 8 == 7
        ? "https://links.example.com/nowhere/\(index)"
        : "https://links.example.com/section\(Int.random(in: 0..<rules, using: &generator))/\(index + 1)"
}
guard LinkRouter.route(urls[0]) != nil || urls[0].contains("nowhere") else { fatalError("the router does not route the bench URLs") }
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
