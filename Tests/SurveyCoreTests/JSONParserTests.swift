import Testing
@testable import SurveyCore

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONNode {
        try JSONParser.parse(SourceFile(path: "t.json", text: text))
    }

    private func error(_ text: String) -> Diagnostic? {
        do {
            _ = try JSONParser.parse(SourceFile(path: "t.json", text: text))
            return nil
        } catch {
            return error.diagnostics.first
        }
    }

    @Test func parsesEveryKindOfValue() throws {
        let node = try parse(#"{"a": [1, -2.5e1, true, false, null, "x\u00e9\n"], "b": {}}"#)
        #expect(node.plain == ["a": [1, -25, true, false, nil, "xé\n"], "b": [:]])
    }

    @Test func keepsMemberOrderAndOffsets() throws {
        let node = try parse("{\n  \"z\": 1,\n  \"a\": 2\n}")
        let members = try #require(node.members)
        #expect(members.map(\.key) == ["z", "a"])
        let file = SourceFile(path: "t.json", text: "{\n  \"z\": 1,\n  \"a\": 2\n}")
        #expect(file.position(of: members[1].keyOffset) == SourcePosition(line: 3, column: 3))
        #expect(file.position(of: members[1].value.offset) == SourcePosition(line: 3, column: 8))
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try parse(#""\ud83d\ude00""#).plain == "😀")
    }

    @Test func reportsTruncatedInputAtItsEnd() {
        let diagnostic = error("{\"a\": [1, 2")
        #expect(diagnostic?.position == SourcePosition(line: 1, column: 12))
        #expect(diagnostic?.message.contains("expected ',' or ']'") == true)
    }

    @Test func rejectsDuplicateKeysAtTheSecondKey() {
        let diagnostic = error("{\"id\": 1,\n \"id\": 2}")
        #expect(diagnostic?.position == SourcePosition(line: 2, column: 2))
        #expect(diagnostic?.message.contains("duplicate key \"id\"") == true)
    }

    @Test func rejectsAByteOrderMark() {
        let file = SourceFile(path: "t.json", bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        #expect(throws: InputError.self) { try JSONParser.parse(file) }
    }

    @Test func rejectsInvalidUTF8InsideStrings() {
        let file = SourceFile(path: "t.json", bytes: Array("[\"ab".utf8) + [0xFF] + Array("\"]".utf8))
        do {
            _ = try JSONParser.parse(file)
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics[0].message.contains("invalid UTF-8"))
            #expect(error.diagnostics[0].position == SourcePosition(line: 1, column: 5))
        }
    }

    @Test func rejectsNumbersADoubleCannotHold() {
        #expect(error("[1e400]")?.message.contains("too large") == true)
    }

    @Test func rejectsWhatRFC8259Forbids() {
        #expect(error("") != nil)
        #expect(error("[01]")?.message.contains("leading zero") == true)
        #expect(error("[1.]") != nil)
        #expect(error("[NaN]") != nil)
        #expect(error("[\"a\tb\"]")?.message.contains("control character") == true)
        #expect(error("[tru]")?.message.contains("true") == true)
        #expect(error("{} x")?.message.contains("after the JSON value") == true)
        #expect(error("{'a': 1}")?.message.contains("string key") == true)
        #expect(error(#"["\x"]"#)?.message.contains("unknown escape") == true)
    }

    @Test func limitsNestingWithALocatedErrorInsteadOfOverflowingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let diagnostic = error(deep)
        #expect(diagnostic?.message.contains("nested deeper than \(JSONParser.defaultMaximumDepth)") == true)
        #expect(diagnostic?.position == SourcePosition(line: 1, column: JSONParser.defaultMaximumDepth + 1))
    }

    @Test func findsMembersByKeyAndKeepsEscapedStrings() throws {
        let node = try parse(#"{"plain": "a", "esc\u0061ped": "b\nc", "n": -0.5, "t": true, "list": [[], {}, null]}"#)
        #expect(node["plain"]?.stringValue == "a")
        #expect(node["escaped"]?.stringValue == "b\nc")
        #expect(node["n"]?.numberValue == -0.5)
        #expect(node["t"]?.boolValue == true)
        #expect(node["list"]?.elements?.map(\.kindDescription) == ["an array", "an object", "null"])
        #expect(node["missing"] == nil)
        #expect(node.members?.map(\.key) == ["plain", "escaped", "n", "t", "list"])
    }

    @Test func findsDuplicateKeysInLargeObjectsAndEscapedSpellings() {
        let large = "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k7\": 0}"
        #expect(error(large)?.message.contains("duplicate key \"k7\"") == true)
        #expect(error(#"{"ab": 1, "a\u0062": 2}"#)?.message.contains("duplicate key \"ab\"") == true)
    }

    @Test func parsesAPrefixAndSaysWhereItEnded() throws {
        let bytes = Array(#"answer x ["a", "b"]  # note"#.utf8)
        let parsed = try JSONParser.parsePrefix(bytes, from: 9).get()
        #expect(parsed.node.plain == ["a", "b"])
        #expect(parsed.end == 19)
    }
}

@Suite struct CanonicalJSONTests {
    @Test func sortsKeysAndPrintsCompactly() {
        let value: JSONValue = ["b": [1, 2.5, "x"], "a": ["z": nil, "y": true]]
        #expect(CanonicalJSON.compact(value) == #"{"a":{"y":true,"z":null},"b":[1,2.5,"x"]}"#)
    }

    @Test func printsPrettyWithTwoSpaces() {
        let value: JSONValue = ["answers": ["q": ["a"], "e": [:]]]
        #expect(CanonicalJSON.pretty(value) == "{\n  \"answers\": {\n    \"e\": {},\n    \"q\": [\n      \"a\"\n    ]\n  }\n}")
    }

    @Test func formatsNumbersTheSameWayEverywhere() {
        #expect(CanonicalJSON.format(number: 5) == "5")
        #expect(CanonicalJSON.format(number: -0.0) == "0")
        #expect(CanonicalJSON.format(number: 0.1) == "0.1")
        #expect(CanonicalJSON.format(number: 1e20) == "1e+20")
    }

    @Test func escapesOnlyWhatJSONRequires() {
        #expect(CanonicalJSON.quote("a\"b\\c\n\u{01}é/") == #""a\"b\\c\n\u0001é/""#)
    }
}
