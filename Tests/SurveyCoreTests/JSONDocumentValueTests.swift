import Testing

@testable import SurveyCore

@Suite("A document made from a value reads as its parsed text does")
struct JSONDocumentValueTests {
    static let values: [JSONValue] = [
        .null, true, 1.5, "a \"quoted\"\nline", [], [:],
        ["resourceType": "QuestionnaireResponse", "item": [["linkId": "a", "answer": [["valueInteger": 3]]], ["linkId": "b", "item": []]], "z": [1, [2, [3]], ["k": nil]]],
    ]

    @Test("the same plain value, members in key order, found by key, elements in order", arguments: values)
    func sameAsParsed(value: JSONValue) throws {
        let made = JSONDocument(value, path: "made").root
        let parsed = try JSONParser.parse(SourceFile(path: "parsed", text: CanonicalJSON.compact(value)))
        #expect(made.plain == value)
        #expect(made.plain == parsed.plain)
        #expect(made.members?.map(\.key) == parsed.members?.map(\.key))
        #expect(made.elements?.count == parsed.elements?.count)
        if case .object(let members) = value {
            for (key, member) in members { #expect(made[key]?.plain == member) }
            #expect(made["absent"] == nil)
        }
    }
}
