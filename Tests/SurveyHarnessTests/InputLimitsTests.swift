import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness
import Testing

/// Past each limit of `InputLimits` an input is a located error naming the limit: never a stack overflow,
/// a hang or a half-loaded survey.
@Suite("Input limits")
struct InputLimitsTests {
    func loadError(_ text: String, registry: FormatRegistry = .standard) -> Diagnostic? {
        do throws(InputError) {
            _ = try registry.load(SourceFile(path: "big.json", bytes: Array(text.utf8)))
            return nil
        } catch {
            return error.diagnostics.first
        }
    }

    /// The offset of the bracket that opens nesting level `level` (the root is level 1), scanning a text
    /// whose strings hold no brackets.
    func offsetOfLevel(_ level: Int, in text: String) -> Int? {
        var depth = 0
        for (offset, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
                if depth == level { return offset }
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
            }
        }
        return nil
    }

    func expectDepthError(_ text: String, _ comment: Comment) throws {
        let diagnostic = try #require(loadError(text), comment)
        #expect(diagnostic.message == "JSON nested deeper than 256 levels; expected at most 256", comment)
        let offset = try #require(offsetOfLevel(257, in: text))
        #expect(diagnostic.position == SourceFile(path: "big.json", bytes: Array(text.utf8)).position(of: offset), comment)
    }

    @Test("a 10,000-deep 'and' tree in a SurveyNative show_if is an error where it passes 256 levels")
    func deepConditionTree() throws {
        var condition = #"{"id": "a", "operation": "equals", "value": "Yes"}"#
        for _ in 0..<10_000 { condition = #"{"operation": "and", "subconditions": ["# + condition + "]}" }
        let text = """
            {"questions": [
            {"id": "a", "question": "A?", "question_type": "single_select", "options": ["Yes"]},
            {"id": "b", "question": "B?", "question_type": "single_select", "options": ["Yes"], "show_if": \(condition)}
            ], "submit": {"button_title": "Send", "url": "https://example.org"}}
            """
        try expectDepthError(text, "SurveyNative and-tree")
    }

    @Test("10,000 nested FHIR groups are an error where they pass 256 levels")
    func deepFHIRGroups() throws {
        var item = #"{"linkId": "leaf", "type": "string", "text": "Leaf"}"#
        for level in 0..<10_000 { item = #"{"linkId": "g\#(level)", "type": "group", "item": ["# + item + "]}" }
        try expectDepthError(#"{"resourceType": "Questionnaire", "status": "active", "item": ["# + item + "]}", "FHIR groups")
    }

    @Test("10,000 nested AssessmentModel sections are an error where they pass 256 levels")
    func deepSections() throws {
        var step = #"{"identifier": "leaf", "type": "instruction", "title": "Leaf"}"#
        for level in 0..<10_000 { step = #"{"identifier": "s\#(level)", "type": "section", "steps": ["# + step + "]}" }
        try expectDepthError(#"{"identifier": "deep", "type": "assessment", "steps": ["# + step + "]}", "sections")
    }

    @Test("a question id longer than the limit is an error at that question")
    func longID() throws {
        let id = String(repeating: "x", count: 1_025)
        let text = """
            {"questions": [
            {"id": "a", "question": "A?", "question_type": "single_select", "options": ["Yes"]},
              {"id": "\(id)", "question": "B?", "question_type": "single_select", "options": ["Yes"]}
            ], "submit": {"button_title": "Send", "url": "https://example.org"}}
            """
        let diagnostic = try #require(loadError(text))
        #expect(diagnostic.message.hasPrefix("question id of 1025 characters ('xxxx"))
        #expect(diagnostic.message.hasSuffix("expected at most 1024"))
        #expect(diagnostic.position == SourcePosition(line: 3, column: 3))
        // At the limit itself the survey loads.
        #expect(loadError(text.replacingOccurrences(of: id, with: String(id.dropLast()))) == nil)
    }

    @Test("more questions than the limit is an error at the first question past it")
    func tooManyQuestions() throws {
        var limits = InputLimits()
        limits.questions = 3
        let registry = FormatRegistry(formats: FormatRegistry.standard.formats, limits: limits)
        let questions = (1...4).map { #"{"linkId": "q\#($0)", "type": "string", "text": "Q\#($0)"}"# }
        let text = "{\"resourceType\": \"Questionnaire\", \"status\": \"active\", \"item\": [\n" + questions.joined(separator: ",\n") + "\n]}"
        let diagnostic = try #require(loadError(text, registry: registry))
        #expect(diagnostic.message == "the survey has 4 questions; expected at most 3 (the harness's limit)")
        #expect(diagnostic.position == SourcePosition(line: 5, column: 1))
        #expect(loadError(text.replacingOccurrences(of: ",\n" + questions[3], with: ""), registry: registry) == nil)
    }

    @Test("a scenario longer than the limit is an error at the first line past it")
    func longScenario() throws {
        var limits = InputLimits()
        limits.scenarioLines = 5
        let text = "survey s.json\n" + String(repeating: "next\n", count: 10)
        do throws(InputError) {
            _ = try ScenarioParser.parse(SourceFile(path: "long.scenario", bytes: Array(text.utf8)), limits: limits)
            Issue.record("a 11-line scenario passed a 5-line limit")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["long.scenario:6:1: error: more than 5 lines; expected at most that many in one scenario (the harness's limit)"])
        }
        let short = "survey s.json\n" + String(repeating: "next\n", count: 4)
        #expect(throws: Never.self) { try ScenarioParser.parse(SourceFile(path: "short.scenario", bytes: Array(short.utf8)), limits: limits) }
    }

    @Test("a file larger than the limit is refused before it is parsed")
    func largeFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("survey-replay-large-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: " "), count: 2_000).write(to: URL(fileURLWithPath: path))
        do throws(InputError) {
            _ = try InputFiles.read(path, limit: 1_999)
            Issue.record("a 2,000-byte file passed a 1,999-byte limit")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["is larger than 1999 bytes; expected a file of at most 1999 bytes (the harness's limit on input files)"])
        }
        #expect(try InputFiles.read(path, limit: 2_000).bytes.count == 2_000)
    }
}
