import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// Owlmetry's schema validation and answer validation, as the server's shared validators run them
/// (owlmetry/owlmetry@e9b6cab6 `packages/shared/src/questionnaires.ts`); each test names the lines it follows.
@Suite("Owlmetry schema and answers")
struct OwlmetryTests {
    static let schema = #"""
        {"version": 1, "questions": [
          {"id": "q_text", "type": "text", "title": "Tell us", "required": true},
          {"id": "q_pick", "type": "single_choice", "title": "Pick one", "required": false, "options": [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}]},
          {"id": "q_nps", "type": "nps", "title": "Recommend?", "required": false}
        ]}
        """#

    static func session(_ options: [String: String] = [:], schema: String = schema) throws -> OwlmetrySession {
        let survey = try #require(try loadSurvey(text: schema) as? OwlmetrySurvey)
        return try #require(survey.makeSession(SessionSettings(today: testToday, options: options)) as? OwlmetrySession)
    }

    static func question(_ members: String) -> String { #"{"version": 1, "questions": [\#(members)]}"# }

    /// `questionnaires.ts:128-281`: every check of `validateQuestionnaireSchema`, each a located error here.
    @Test(
        "every schema violation is a located error",
        arguments: [
            (#"{"version": 2, "questions": [{"id": "q", "type": "nps", "title": "T", "required": true}]}"#, "/version"),
            (#"{"version": 1, "questions": []}"#, "/questions"),
            (question(#"{"id": "Q-1", "type": "nps", "title": "T", "required": true}"#), "/questions/0/id"),
            (question(#"{"id": "\#(String(repeating: "a", count: 33))", "type": "nps", "title": "T", "required": true}"#), "/questions/0/id"),
            (question(#"{"id": "q", "type": "nps", "title": "T", "required": true}, {"id": "q", "type": "nps", "title": "U", "required": true}"#), "/questions/1"),
            (question(#"{"id": "q", "type": "stars", "title": "T", "required": true}"#), "/questions/0/type"),
            (question(#"{"id": "q", "type": "nps", "title": "  ", "required": true}"#), "/questions/0/title"),
            (question(#"{"id": "q", "type": "nps", "title": "\#(String(repeating: "t", count: 201))", "required": true}"#), "/questions/0/title"),
            (question(#"{"id": "q", "type": "nps", "title": "T", "subtitle": "\#(String(repeating: "s", count: 501))", "required": true}"#), "/questions/0/subtitle"),
            (question(#"{"id": "q", "type": "nps", "title": "T"}"#), "/questions/0"),
            (question(#"{"id": "q", "type": "nps", "title": "T", "required": "yes"}"#), "/questions/0/required"),
            (question(#"{"id": "q", "type": "text", "title": "T", "required": true, "placeholder": "\#(String(repeating: "p", count: 201))"}"#), "/questions/0/placeholder"),
            (question(#"{"id": "q", "type": "text", "title": "T", "required": true, "multiline": "yes"}"#), "/questions/0/multiline"),
            (question(#"{"id": "q", "type": "single_choice", "title": "T", "required": true, "options": [{"id": "a", "label": "A"}]}"#), "/questions/0/options"),
            (question(#"{"id": "q", "type": "multi_choice", "title": "T", "required": true, "options": [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]}"#), "/questions/0/options/1"),
            (question(#"{"id": "q", "type": "multi_choice", "title": "T", "required": true, "options": [{"id": "a", "label": ""}, {"id": "b", "label": "B"}]}"#), "/questions/0/options/0/label"),
            (question(#"{"id": "q", "type": "rating", "title": "T", "required": true, "scale": 10}"#), "/questions/0/scale"),
        ])
    func schemaViolations(text: String, pointer: String) {
        let errors = loadErrors(text: text)
        #expect(errors.map(\.pointer) == [pointer])
        #expect(errors.allSatisfy { $0.position != nil && $0.rule == "owl-schema" })
    }

    /// Correction 15, `questionnaires.ts:182-187` (subtitle) and `:204-206` (placeholder): a present,
    /// non-null value that is not a string rejects the whole schema; `routes/questionnaires.ts:285-286, 414-416`
    /// answer 400 to it.
    @Test(
        "a present, non-null subtitle or placeholder that is not a string rejects the whole schema",
        arguments: [
            (#""subtitle": 5"#, "/questions/0/subtitle"), (#""subtitle": ["S"]"#, "/questions/0/subtitle"),
            (#""subtitle": false"#, "/questions/0/subtitle"), (#""placeholder": {"en": "P"}"#, "/questions/0/placeholder"),
            (#""placeholder": 0"#, "/questions/0/placeholder"),
        ])
    func nonStringTexts(member: String, pointer: String) {
        let errors = loadErrors(text: Self.question(#"{"id": "q", "type": "text", "title": "T", "required": true, \#(member)}"#))
        #expect(errors.map(\.pointer) == [pointer])
        #expect(errors.first?.message.contains("expected a string of at most") == true && errors.first?.message.contains("(or null)") == true)
        #expect(errors.first?.rule == "owl-schema")
    }

    /// `questionnaires.ts:182-183, 198, 204, 210`: null or absent subtitle, placeholder and multiline are
    /// omitted from the normalised schema (what `schema_snapshot` copies, `questionnaire-ingest.ts:434`).
    @Test("null subtitle, placeholder and multiline load and are left out of the normalised schema")
    func nullTextsOmitted() throws {
        let text = Self.question(#"{"id": "q", "type": "text", "title": "T", "required": true, "subtitle": null, "placeholder": null, "multiline": null}"#)
        let survey = try #require(try loadSurvey(text: text) as? OwlmetrySurvey)
        #expect(survey.schema == ["version": 1, "questions": [["id": "q", "type": "text", "title": "T", "required": true]]])
        #expect(survey.questions[0].isMultiline == false)
        #expect(lintFindings(text).findings.isEmpty)
    }

    /// `questionnaires.ts:170-178, 184, 205, 270`: lengths are JavaScript's `length`, UTF-16 code units.
    @Test("lengths count UTF-16 code units: 101 emoji are a 202-unit title, over 200")
    func utf16Lengths() {
        let emoji = String(repeating: "😀", count: 101)
        #expect(loadErrors(text: Self.question(#"{"id": "q", "type": "nps", "title": "\#(emoji)", "required": true}"#)).map(\.pointer) == ["/questions/0/title"])
        let hundred = String(repeating: "😀", count: 100)
        #expect(throws: Never.self) { try loadSurvey(text: Self.question(#"{"id": "q", "type": "nps", "title": "\#(hundred)", "required": true}"#)) }
    }

    /// `questionnaires.ts:178, 270`: a title or label is blank under JavaScript's `trim`, which removes the
    /// BOM (U+FEFF) but not U+0085; Swift's whitespace does the opposite.
    @Test("blank means JavaScript's trim: a BOM-only title is blank, a NEL-only title is not")
    func javaScriptBlank() {
        #expect(Owlmetry.isBlank("\u{FEFF} \u{3000}\u{2028}"))
        #expect(!Owlmetry.isBlank("\u{85}"))
        #expect(loadErrors(text: Self.question(#"{"id": "q", "type": "nps", "title": "\uFEFF", "required": true}"#)).map(\.pointer) == ["/questions/0/title"])
    }

    /// The SDK's trimming is Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)`; the session skips
    /// it for a text with nothing to trim and reads "answered" without trimming: both must agree with it.
    @Test("the SDK's trim and its answered test agree with Foundation's trimming on every kind of text")
    func sdkTrimmingMatchesFoundation() {
        let blanks = ["", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}"]
        let others = ["a", "Nice!", "\u{FEFF}", "\u{200B}", "\u{180E}", "😀", "é", "e\u{301}", "\u{301}", "日本"]
        var texts = blanks + others
        for blank in blanks {
            for other in others { texts += [blank + other, other + blank, blank + other + blank, other + blank + other] }
        }
        texts.append(String(repeating: "a", count: 5_001))
        for text in texts {
            let foundation = text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(Array(Owlmetry.sdkTrimmed(text).unicodeScalars) == Array(foundation.unicodeScalars), "\(Array(text.unicodeScalars))")
            #expect(Owlmetry.sdkTrimsAway(text) == foundation.isEmpty, "\(Array(text.unicodeScalars))")
        }
    }

    @Test("1 to 30 questions; 2 to 20 options")
    func counts() {
        let one = #"{"id": "q%d", "type": "nps", "title": "T", "required": false}"#
        let thirty = (0..<30).map { String(format: one, $0) }.joined(separator: ", ")
        #expect(throws: Never.self) { try loadSurvey(text: Self.question(thirty)) }
        #expect(loadErrors(text: Self.question(thirty + ", " + String(format: one, 30))).map(\.pointer) == ["/questions/30"])
        let options = (0..<21).map { #"{"id": "o\#($0)", "label": "O"}"# }
        let many = Self.question(#"{"id": "q", "type": "multi_choice", "title": "T", "required": true, "options": [\#(options.joined(separator: ", "))]}"#)
        #expect(loadErrors(text: many).map(\.pointer) == ["/questions/0/options"])
    }

    /// `questionnaires.ts:301-305` (unknown keys first), `:308-376` (schema order, the messages).
    @Test("the validator's messages word for word, unknown keys before anything, then schema order", .requires(.corpus))
    func validatorMessages() throws {
        let survey = try #require(try loadCorpus("owlmetry", "owlmetry_shared_test_all_types_schema.json") as? OwlmetrySurvey)
        let validator = survey.validator
        func problem(_ answers: [String: JSONValue], partial: Bool = true) -> String? {
            if case .failure(let error) = validator.validate(answers, allowPartial: partial) { return error.message }
            return nil
        }
        #expect(problem(["nope": 1]) == #"unknown question id "nope""#)
        #expect(problem(["q_text": 3]) == #""q_text" must be a string"#)
        #expect(problem(["q_single": 1]) == #""q_single" must be a string option id"#)
        #expect(problem(["q_single": "c"]) == #""c" is not a valid option for "q_single""#)
        #expect(problem(["q_multi": "x"]) == #""q_multi" must be an array"#)
        #expect(problem(["q_multi": [1]]) == #""q_multi" entries must be strings"#)
        #expect(problem(["q_multi": ["x", "x"]]) == #""q_multi" has duplicate selection "x""#)
        #expect(problem(["q_rate": 6]) == #""q_rate" must be an integer 1-5"#)
        #expect(problem(["q_nps": 4.5]) == #""q_nps" must be an integer 0-10"#)
        #expect(problem(["q_text": .string(String(repeating: "a", count: 4001))]) == #""q_text" exceeds 4000 chars"#)
        #expect(problem(["q_text": "  ", "q_single": "a"], partial: false) == #""q_text" is required"#)
        #expect(problem(["q_multi": [], "q_nps": .null]) == nil)
        // The unknown key wins over a bad value of an earlier question; schema order picks between bad values.
        #expect(problem(["q_text": 3, "zz": 1]) == #"unknown question id "zz""#)
        #expect(problem(["q_rate": 9, "q_text": 3]) == #""q_text" must be a string"#)
        #expect(problem(["q_rate": 9], partial: false) == #""q_text" is required"#)
    }

    /// Correction 16, `questionnaires.ts:324-332`: text is stored as sent, untrimmed; the limit counts
    /// UTF-16 code units of what was sent.
    @Test("the server keeps text as sent, untrimmed, and counts its length in UTF-16 units", .requires(.corpus))
    func textStoredAsSent() throws {
        let survey = try #require(try loadCorpus("owlmetry", "owlmetry_shared_test_all_types_schema.json") as? OwlmetrySurvey)
        #expect(try survey.validator.validate(["q_text": " hi "], allowPartial: true).get() == ["q_text": " hi "])
        let emoji = JSONValue.string(String(repeating: "😀", count: 2001))
        #expect(throws: OwlmetryAnswerError.self) { try survey.validator.validate(["q_text": emoji], allowPartial: true).get() }
        #expect(throws: Never.self) { try survey.validator.validate(["q_text": .string(String(repeating: "😀", count: 2000))], allowPartial: true).get() }
    }
}
