import Testing
@testable import LinkKit

@Suite("Router fixtures")
struct RouterFixturesTests {
    /// The encoding variant escapes the path's first ASCII letter as `%XX` (upper-case hex) and nothing else.
    @Test func variantsOfATail() {
        #expect(RouterFixtures.variants("/1/docs?x=1") == ["/1/DOCS?x=1", "/1/docs/?x=1", "/1/docs/extra?x=1", "/1?x=1", "/1/%64ocs?x=1"])
        #expect(RouterFixtures.variants("/Z#f").last == "/%5A#f")
    }
}
