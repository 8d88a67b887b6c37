import Testing
@testable import LinkKit

@Suite("Typed destinations")
struct DestinationBindingTests {
    let widget = DestinationType.widgetDetail

    @Test func capturesBecomeTypedParams() {
        let binding = DestinationBinding(type: "widgetDetail")
        let resolved = binding.resolve(captures: ["id": "42", "tab": "reviews"], destination: widget)
        #expect(resolved == .destination(type: "widgetDetail", params: [("id", .int(42)), ("tab", .string("reviews"))]))
    }

    @Test func optionalParamsMayBeAbsent() {
        let resolved = DestinationBinding(type: "widgetDetail").resolve(captures: ["id": "7"], destination: widget)
        #expect(resolved == .destination(type: "widgetDetail", params: [("id", .int(7))]))
    }

    @Test(
        "invalid values give an explicit error destination",
        arguments: [
            (["id": "abc"], "invalid_param", "id"),
            (["id": "0"], "invalid_param", "id"),
            (["id": "99999999999999999999"], "invalid_param", "id"),
            (["id": "1", "tab": "settings"], "invalid_param", "tab"),
            ([:], "missing_param", "id"),
            (["id": ""], "missing_param", "id"),
        ] as [([String: String], String, String)])
    func errors(captures: [String: String], code: String, param: String) {
        guard case .error(let error) = DestinationBinding(type: "widgetDetail").resolve(captures: captures, destination: widget) else {
            Issue.record("expected an error destination")
            return
        }
        #expect(error.code.description == code)
        #expect(error.param == param)
    }

    @Test func unknownDestinationType() {
        guard case .error(let error) = DestinationBinding(type: "gone").resolve(captures: [:], destination: nil) else {
            Issue.record("expected an error destination")
            return
        }
        #expect(error.code == .unknownDestination)
    }

    @Test func constantsAndRenamedCaptures() {
        let binding = DestinationBinding(type: "widgetDetail", params: ["id": .capture("widget"), "tab": .constant("info")])
        let resolved = binding.resolve(captures: ["widget": "5"], destination: widget)
        #expect(resolved == .destination(type: "widgetDetail", params: [("id", .int(5)), ("tab", .string("info"))]))
    }

    @Test func bindingProblems() {
        #expect(DestinationBinding(type: "widgetDetail").problems(with: widget, captures: ["id"]).isEmpty)
        #expect(DestinationBinding(type: "widgetDetail").problems(with: widget, captures: []).count == 1)
        #expect(
            DestinationBinding(type: "widgetDetail", params: ["nope": .constant("1")]).problems(with: widget, captures: ["id"]).count == 1)
        #expect(DestinationBinding(type: "widgetDetail", params: ["id": .capture("x")]).problems(with: widget, captures: ["id"]).count == 1)
        #expect(
            DestinationBinding(type: "widgetDetail", params: ["tab": .constant("bad")]).problems(with: widget, captures: ["id"]).count == 1)
    }

    @Test(
        "typed conversion",
        arguments: [
            (ParameterSpec.Kind.uuid, "6F9619FF-8B86-D011-B42D-00C04FC964FF", TypedValue.uuid("6f9619ff-8b86-d011-b42d-00c04fc964ff")),
            (.bool, "true", .bool(true)),
            (.bool, "0", .bool(false)),
            (.int(min: nil, max: nil), "-12", .int(-12)),
            (.string(minLength: 1, maxLength: 3), "abc", .string("abc")),
        ] as [(ParameterSpec.Kind, String, TypedValue)])
    func conversion(kind: ParameterSpec.Kind, text: String, expected: TypedValue) throws {
        #expect(try ParameterSpec(name: "p", kind: kind).convert(text).get() == expected)
    }

    @Test(
        "conversion failures",
        arguments: [
            (ParameterSpec.Kind.uuid, "6F9619FF8B86D011B42D00C04FC964FF"),
            (.bool, "maybe"),
            (.int(min: nil, max: nil), "1.5"),
            (.int(min: nil, max: nil), "+1"),
            (.string(minLength: 1, maxLength: 3), "abcd"),
        ] as [(ParameterSpec.Kind, String)])
    func conversionFailure(kind: ParameterSpec.Kind, text: String) {
        #expect(throws: DestinationError.self) { try ParameterSpec(name: "p", kind: kind).convert(text).get() }
    }
}
