import Testing
@testable import SurveyCore

/// Cursors, and the node-level reads that spare a decoder making them (members by key prefix, compared with the
/// file's bytes; a cursor made only at the end of a path a scan found).
@Suite struct JSONCursorTests {
    private func parse(_ text: String) throws -> JSONNode {
        try JSONParser.parse(SourceFile(path: "t.json", text: text))
    }

    @Test("the members whose key has a prefix come in file order, escaped keys compared by their text; none for a non-object")
    func membersByKeyPrefix() throws {
        let node = try parse(#"{"valueCoding": {}, "text": 1, "valueString": "x", "v": 2, "val\u0075eInteger": 3, "value": 4}"#)
        #expect(node.members(withKeyPrefix: "value")?.map(\.key) == ["valueCoding", "valueString", "valueInteger", "value"])
        #expect(node.members(withKeyPrefix: "answer")?.isEmpty == true)
        #expect(try parse("[1]").members(withKeyPrefix: "value") == nil)
        let object = try #require(JSONCursor(node: node).object)
        #expect(object.members(withKeyPrefix: "valueS").map { "\($0.key) \($0.cursor.pointer)" } == ["valueString /valueString"])
    }

    @Test("a cursor names its node's pointer, a member by its key as written in the file's text, and a path found by a scan leads to it")
    func pointersAndPaths() throws {
        let root = JSONCursor(node: try parse(#"{"item": [{"link\u0049d": "a", "a/b": [true]}]}"#))
        let item = try #require(root.object?["item"]?.elements?.first?.object)
        #expect(item["linkId"]?.pointer.description == "/item/0/linkId")
        #expect(item["a/b"]?.elements?.first?.pointer.description == "/item/0/a~1b/0")
        #expect(item.cursor.pointer.description == "/item/0")
        let found = try #require(root.descendant([.key("item"), .index(0), .key("a/b"), .index(0)]))
        #expect(found.boolValue == true && found.pointer.description == "/item/0/a~1b/0")
        #expect(found.location.position == SourcePosition(line: 1, column: 40))
        #expect(root.descendant([.key("item"), .index(1)]) == nil)
        #expect(root.descendant([.key("missing")]) == nil)
        #expect(root.descendant([])?.pointer.description == "")
    }
}
