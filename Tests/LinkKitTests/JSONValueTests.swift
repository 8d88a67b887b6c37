import Testing
@testable import LinkKit

@Suite struct JSONValueTests {
    @Test(arguments: [
        "{}", "[]", "null", "true", "false", "0", "-1.5e3", "\"a\"",
        "{\"a\":[1,2,{\"b\":null}],\"c\":\"d\"}", "{\"a\":1,\"a\":2}",
    ])
    func roundTripsCompactText(_ text: String) throws {
        #expect(try JSONValue.parse(text).serialized == text)
    }

    @Test func keepsMemberOrderAndLastDuplicateWins() throws {
        let value = try JSONValue.parse(#"{"z":1,"a":2,"z":3}"#)
        #expect(value.objectMembers?.map(\.key) == ["z", "a", "z"])
        #expect(value["z"] == .number("3"))
    }

    @Test func decodesEscapesAndDoesNotEscapeSlash() throws {
        let value = try JSONValue.parse(#""a\/b\u00e9\ud83d\ude00\n\"""#)
        #expect(value == .string("a/bé😀\n\""))
        #expect(value.serialized == #""a/bé😀\n\"""#)
        #expect(JSONValue.string("\u{01}").serialized == #""\u0001""#)
        #expect(JSONValue.string("\t\r\u{1F}\\é").serializedBytes == Array(#""\t\r\u001f\\é""#.utf8))
    }

    @Test func numbersKeepTheirText() throws {
        #expect(try JSONValue.parse("12345678901234567890123") == .number("12345678901234567890123"))
    }

    @Test(arguments: ["0", "-0", "42", "-7.25", "1e9", "1E+2", "2.5e-3", "-0.0e0"])
    func numbersOfEveryShape(_ text: String) throws {
        #expect(try JSONValue.parse("[\(text)]") == .array([.number(text)]))
    }

    @Test(arguments: [
        ("-", 1, "in a number"), ("1.", 2, "after the decimal point"), ("1.e5", 2, "after the decimal point"),
        ("1e", 2, "in the exponent"), ("1e+", 3, "in the exponent"), ("-x", 1, "in a number"),
    ])
    func malformedNumbersSayWhereADigitWasExpected(_ text: String, _ offset: Int, _ what: String) {
        #expect {
            _ = try JSONValue.parse(text)
        } throws: { error in
            guard let error = error as? LinkKitError else { return false }
            return error.offset == offset && error.message.contains("a digit was expected \(what)")
        }
    }

    @Test(arguments: [
        ("", 0), ("{", 1), ("{\"a\" 1}", 5), ("[1,]", 3), ("{\"a\":1,}", 7), ("tru", 0), ("01", 1),
        ("\"abc", 4), ("[1] x", 4), ("\"\\x\"", 2), ("{\n\"a\":\n}", 7), ("1.", 2), ("\"\u{01}\"", 1),
    ])
    func reportsPositionOfMalformedJSON(_ text: String, _ offset: Int) {
        #expect {
            _ = try JSONValue.parse(text)
        } throws: { error in
            guard let error = error as? LinkKitError else { return false }
            return error.code == .malformedJSON && error.offset == offset && error.message.contains("line")
        }
    }

    /// A double's magnitude, and what PostgreSQL's `numeric` holds: the range of numbers linkd accepts.
    @Test(arguments: [
        "1e999999", "-1e309", "1.8e308", String(repeating: "9", count: 310), "1e-999999", "0.0e-99999",
        "0e999999999999", "1." + String(repeating: "0", count: 16_384), "1E+400", "1e16384", "0.5e-16383",
    ])
    func numbersOutOfRange(_ text: String) {
        #expect(!JSONNumber.isInRange(text))
    }

    @Test(arguments: [
        "0", "-0", "1e308", "-1.7976931348623157e308", "0.17976931348623157e309", "1e-400", "0e16383", "4.9e-324",
        "12345678901234567890123456789", String(repeating: "9", count: 308), "1.5e-16382",
        "1." + String(repeating: "0", count: 16_383), "1E+2",
    ])
    func numbersInRange(_ text: String) {
        #expect(JSONNumber.isInRange(text))
    }

    @Test func messageGivesLineAndColumn() {
        do {
            _ = try JSONValue.parse("{\n  \"a\": tru\n}")
            Issue.record("parsed malformed JSON")
        } catch {
            #expect(error.message.contains("line 2, column 8"))
        }
    }

    @Test func rejectsDeepNesting() {
        let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: LinkKitError.self) { try JSONValue.parse(text) }
    }

    @Test func pointerEscapesTildeAndSlash() {
        #expect(JSONPointer.appending("/a", "b/c~d") == "/a/b~1c~0d")
        #expect(JSONPointer.appending(JSONPointer.appending("", "components"), 3) == "/components/3")
    }
}
