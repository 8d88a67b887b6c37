import ByteText
import Foundation
import Testing
@testable import LinkService

@Suite("The next page's query: names and values escaped")
struct QueryValueEscapingTests {
    /// Foundation's query characters but `&=+#`: what `Page` escaped with before it used ByteText's encoder.
    static let foundationSet: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#")
        return set
    }()

    @Test func escapesAsFoundationsQuerySetWithoutAmpersandEqualsPlus() {
        var texts = (1...0x7F).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["a b&c=d+e#f", "é/ü?x", "名前", "🙂", "%41", ""]
        for text in texts {
            #expect(
                Percent.encoded(text, keeping: Page.allowedInQueryValue)
                    == text.addingPercentEncoding(withAllowedCharacters: Self.foundationSet),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
