import Testing
@testable import LinkKit

@Suite struct AASAFileTests {
    static let apple =
        ##"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app","ABCDE12345.com.example.app2"],"components":[{"#":"no_universal_links","exclude":true,"comment":"c"},{"/":"/buy/*"},{"/":"/help/*","?":{"articleNumber":"????"}}]}]},"webcredentials":{"apps":["ABCDE12345.com.example.app"]},"appclips":{"apps":["ABCDE12345.com.example.app.Clip"]}}"##

    @Test func decodesTheAppleExample() throws {
        let file = try AASAFile.decode(Self.apple)
        let details = try #require(file.applinks?.details)
        #expect(details.count == 1)
        #expect(details[0].appIDs == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"])
        #expect(details[0].components?[0] == AASAComponent(fragment: "no_universal_links", exclude: true, comment: "c"))
        #expect(details[0].components?[2].query == .items([QueryItemPattern(name: "articleNumber", pattern: "????")]))
        #expect(file.webcredentials?.apps == ["ABCDE12345.com.example.app"])
        #expect(file.appclips?.apps == ["ABCDE12345.com.example.app.Clip"])
        #expect(file.activitycontinuation == nil)
    }

    @Test func canonicalEncodingIsCompactStableAndRoundTrips() throws {
        let file = try AASAFile.decode(Self.apple)
        #expect(file.encoded() == Self.apple)
        #expect(try AASAFile.decode(file.encoded()) == file)
        #expect(file.encoded() == file.encoded())
    }

    @Test func encodingOrdersKeysAndDoesNotEscapeSlashes() throws {
        let messy =
            ##"{"appclips":{"apps":[]},"applinks":{"details":[{"components":[{"comment":"x","percentEncoded":false,"caseSensitive":false,"exclude":true,"#":"f","?":"q","/":"/a/*"}],"appIDs":["A.b"]}],"substitutionVariables":{"v":["1"]},"defaults":{"caseSensitive":false},"apps":[]},"unknown":1}"##
        let encoded = try AASAFile.decode(messy).encoded()
        #expect(
            encoded
                == ##"{"applinks":{"apps":[],"defaults":{"caseSensitive":false},"substitutionVariables":{"v":["1"]},"details":[{"appIDs":["A.b"],"components":[{"/":"/a/*","?":"q","#":"f","exclude":true,"caseSensitive":false,"percentEncoded":false,"comment":"x"}]}]},"appclips":{"apps":[]}}"##
        )
    }

    @Test func legacyFormKeepsAppIDAndPaths() throws {
        let text = #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/a/*","NOT /b"]}]}}"#
        #expect(try AASAFile.decode(text).encoded() == text)
    }

    @Test func iOS9DetailsObjectBecomesArray() throws {
        let file = try AASAFile.decode(#"{"applinks":{"apps":[],"details":{"ABCDE12345.com.example.app":{"paths":["*"]}}}}"#)
        #expect(file.applinks?.details == [AppLinksDetail(appIDs: ["ABCDE12345.com.example.app"], paths: ["*"])])
        #expect(file.encoded() == #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["*"]}]}}"#)
    }

    @Test func lenientDecoding() throws {
        let file = try AASAFile.decode(
            #"{"applinks":{"details":[7,{"appID":"X.a","appIDs":["Y.b",3],"components":[null,{"/":5,"?":{"a":true},"exclude":"no","casesensitive":false}]}]}}"#
        )
        let details = try #require(file.applinks?.details)
        #expect(details[0].appIDs.isEmpty)
        #expect(details[1].appIDs == ["Y.b", "X.a"])
        #expect(details[1].components?[0].isMalformed == true)
        #expect(details[1].components?[1] == AASAComponent(query: .string("*")))
        #expect(file.encoded().contains(#""components":[null,{"?":"*"}]"#))
    }

    @Test(arguments: ["[]", "\"x\"", "null"])
    func rejectsNonObjects(_ text: String) {
        #expect { try AASAFile.decode(text) } throws: { ($0 as? LinkKitError)?.code == .invalidDocument }
    }

    @Test func rejectsMalformedJSONWithPosition() {
        #expect { try AASAFile.decode("{\"applinks\": }") } throws: {
            guard let error = $0 as? LinkKitError else { return false }
            return error.code == .malformedJSON && error.offset == 13
        }
    }

    @Test func inheritingFillsOnlyAbsentKeys() {
        let component = AASAComponent(path: "/a", exclude: false)
        let merged = component.inheriting(from: AASAComponent(path: "/b", fragment: "f", exclude: true, caseSensitive: false))
        #expect(merged == AASAComponent(path: "/a", fragment: "f", exclude: false, caseSensitive: false))
    }
}
