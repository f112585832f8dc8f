import SurveyCore
import Testing

@testable import SurveyFormats

/// Owlmetry's lint rules, each with a failing and a passing example.
@Suite("Owlmetry lint")
struct OwlmetryLintTests {
    func rules(_ questions: String) -> [String] {
        lintFindings(#"{"version": 1, "questions": [\#(questions)]}"#).findings.compactMap(\.rule)
    }

    let required = #"{"id": "a", "type": "nps", "title": "A", "required": true}"#
    let optional = #"{"id": "b", "type": "nps", "title": "B", "required": false}"#

    /// `questionnaires.ts:194-199, 278`: the normalised question keeps only known keys.
    @Test("owl-unknown-key: keys the validator drops; a non-string subtitle is no longer dropped but an error")
    func droppedKeys() {
        #expect(rules(#"{"id": "a", "type": "nps", "title": "A", "required": true, "requird": false}"#) == ["owl-unknown-key"])
        #expect(rules(#"{"id": "a", "type": "nps", "title": "A", "required": true, "subtitle": 3}"#) == ["owl-schema"])
        #expect(rules(#"{"id": "a", "type": "nps", "title": "A", "required": true, "subtitle": "S"}"#).isEmpty)
        #expect(rules(#"{"id": "a", "type": "nps", "title": "A", "required": true, "subtitle": null}"#).isEmpty)
    }

    /// owlmetry/owlmetry-swift@4b6c330c `Sources/Owlmetry/SwiftUI/Questionnaire/Pages/OwlQuestionnaireTextPage.swift:19-31`:
    /// a multiline question is a TextEditor, which has no placeholder; only the TextField shows one.
    @Test("owl-placeholder-hidden: a placeholder on a multiline question is never shown")
    func placeholderHidden() {
        let multiline = #"{"id": "a", "type": "text", "title": "A", "required": true, "multiline": true, "placeholder": "P"}"#
        #expect(rules(multiline) == ["owl-placeholder-hidden"])
        #expect(rules(#"{"id": "a", "type": "text", "title": "A", "required": true, "placeholder": "P"}"#).isEmpty)
    }

    @Test("owl-optional-only: nothing required")
    func optionalOnly() {
        #expect(rules(optional) == ["owl-optional-only"])
        #expect(rules(required + ", " + optional).isEmpty)
    }

    @Test("owl-resume-on-skipped: an optional question before a required one")
    func resumeOnSkipped() {
        #expect(rules(optional + ", " + required) == ["owl-resume-on-skipped"])
        #expect(rules(required + ", " + optional).isEmpty)
    }

    @Test("lint reports every schema error, not only the first")
    func allErrors() {
        let findings = rules(#"{"id": "A", "type": "nps", "title": "A", "required": true}, {"id": "b", "type": "x", "title": "", "required": 1}"#)
        #expect(findings == ["owl-schema", "owl-schema", "owl-schema", "owl-schema"])
    }
}
