import Testing
@testable import LinkKit

@Suite struct ExampleCasesTests {
    @Test func fixtureIsLoaded() {
        #expect(ExampleCase.all.count >= 31)
    }

    @Test(arguments: ExampleCase.all)
    func resolvesLikeTheSpec(_ example: ExampleCase) throws {
        let matcher = AASAMatcher(try AASAFile(json: example.aasa))
        let resolution = matcher.resolve(try AASAURL(example.url))
        #expect(resolution.appID == example.appID)
        #expect(resolution.detailIndex == example.detailIndex)
        #expect(resolution.componentIndex == example.componentIndex)
    }
}
