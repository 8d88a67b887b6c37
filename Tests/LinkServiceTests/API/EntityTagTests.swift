import Testing
@testable import LinkService

@Suite("Entity tags: the bytes' strong ETag and If-None-Match")
struct EntityTagTests {
    @Test func strongTagIsTheFirst128BitsOfSHA256Quoted() {
        #expect(ETag.strong(of: Array("abc".utf8)) == "\"ba7816bf8f01cfea414140de5dae2223\"")
        #expect(ETag.strong(of: "abc".utf8) == "\"" + SHA256.hex("abc").prefix(32) + "\"")
    }

    @Test func parsesStar() {
        #expect(IfNoneMatch("*")?.any == true)
        #expect(IfNoneMatch("  * ")?.any == true)
        #expect(IfNoneMatch("\"*\"")?.any == false)
        #expect(IfNoneMatch.matches("*", "\"x\""))
    }

    @Test func parsesListsWithBlanksAndWeakTags() {
        #expect(IfNoneMatch("\"a\"")?.opaqueTags == ["\"a\""])
        #expect(IfNoneMatch("W/\"x\"")?.opaqueTags == ["\"x\""])
        #expect(IfNoneMatch(" \"a\" ,W/\"b\",\t\"c,d\" , ,\"\"")?.opaqueTags == ["\"a\"", "\"b\"", "\"c,d\"", "\"\""])
        #expect(IfNoneMatch("\"é\"")?.opaqueTags == ["\"é\""]) // obs-text
    }

    @Test func comparesWeakly() {
        #expect(IfNoneMatch.matches("W/\"x\"", "\"x\""))
        #expect(IfNoneMatch.matches("\"x\"", "W/\"x\""))
        #expect(IfNoneMatch.matches("\"a\", \"x-gz\"", "\"x\"", "\"x-gz\""))
        #expect(!IfNoneMatch.matches("\"a\", \"b\"", "\"x\""))
        #expect(!IfNoneMatch.matches(nil, "\"x\""))
        #expect(!IfNoneMatch.matches("x", "x")) // an entity tag is quoted
    }

    @Test func malformedValuesMatchNothing() {
        for value in ["", " , ", "x", "\"x", "w/\"x\"", "W/x", "\"a\" \"b\"", "\"a\";", "*, \"a\"", "\"a\", *", "\"a\"b\"", "\"a\u{7F}\""] {
            #expect(IfNoneMatch(value) == nil, "\(value)")
        }
        #expect(!IfNoneMatch.matches("\"x\" junk", "\"x\""))
    }
}
