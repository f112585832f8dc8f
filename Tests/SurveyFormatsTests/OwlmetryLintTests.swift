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

    @Test("owl-unknown-key and owl-dropped-key: keys the validator drops")
    func droppedKeys() {
        #expect(rules(#"{"id": "a", "type": "nps", "title": "A", "required": true, "requird": false}"#) == ["owl-unknown-key"])
        #expect(rules(#"{"id": "a", "type": "nps", "title": "A", "required": true, "subtitle": 3}"#) == ["owl-dropped-key"])
        #expect(rules(#"{"id": "a", "type": "nps", "title": "A", "required": true, "subtitle": "S"}"#).isEmpty)
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

    @Test("sage-invalid-regex: a textValidator that does not compile")
    func invalidRegex() {
        let bad = sageTask([form("a", inputField("x", "string", #""textFieldOptions": {"textValidator": "[a-"}"#))])
        #expect(lintFindings(bad).findings.compactMap(\.rule) == ["sage-invalid-regex"])
        let good = sageTask([form("a", inputField("x", "string", #""textFieldOptions": {"textValidator": "[a-z]+"}"#))])
        #expect(lintFindings(good).findings.isEmpty)
    }
}
