import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

/// A c3pro lint rule with a Questionnaire that breaks it and one that does the same thing right.
struct C3PROLintCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let failing: String
    let passing: String

    var testDescription: String { rule }

    static let colors = fhirItem("c", "choice", colorOptions)
    static let gate = fhirItem("gate", "boolean")
    static func when(_ question: String, _ answer: String = #""answerBoolean": true"#) -> [String] { [stu3Condition(question, answer)] }
    static let red = #""answerCoding": {"system": "http://example.org/s", "code": "red"}"#
    static func slider(_ low: Int, _ high: Int, start: Int? = nil) -> String {
        let defaultValue = start.map { [("questionnaire-defaultValue", #""valueInteger": \#($0)"#)] } ?? []
        return fhirItem("s", "integer", extensions([("minValue", #""valueInteger": \#(low)"#), ("maxValue", #""valueInteger": \#(high)"#)] + defaultValue))
    }

    /// Each rule follows the source its finding describes (docs/fhir.md, C3-PRO lint rules): the errors are what
    /// C3-PRO reports beside the task (C3-PRO@e5790c52 QuestionnaireItemPromise.swift:80-100, 307-315, 329-383;
    /// Questionnaire+C3-PRO.swift:31-97) or what makes ResearchKit throw while it is built (ResearchKit@44c88877
    /// ORKAnswerFormat.m:1735-1778, ORKOrderedTask.m:141-148); the warnings what C3-PRO reads otherwise
    /// (QuestionnaireItemPromise.swift:154-156, 259-282, 317-320; ORKAnswerFormat.m:1700-1708; ConditionalStep.swift:84-113;
    /// ORKQuestionStepViewController.m:496-501 with ORKTaskResult+FHIR.swift:176-195 for an empty selection).
    static let all: [C3PROLintCase] = [
        C3PROLintCase(rule: "fhir-stu3-input", failing: c3proText([colors]), passing: questionnaireText([fhirItem("c", "choice", codingOptions(["a"]))])),
        C3PROLintCase(rule: "c3pro-unsupported-item", failing: c3proText([fhirItem("f", "text"), colors]), passing: c3proText([fhirItem("f", "string"), colors])),
        C3PROLintCase(rule: "c3pro-inline-options", failing: c3proText([fhirItem("s", "choice", #""option": [{"valueString": "a"}]"#)]), passing: c3proText([colors])),
        C3PROLintCase(rule: "c3pro-valueset-missing", failing: c3proText([fhirItem("s", "choice", ##""options": {"reference": "#nowhere"}"##)]), passing: c3proText([colors])),
        C3PROLintCase(rule: "c3pro-no-choices", failing: c3proText([fhirItem("s", "choice"), colors]), passing: c3proText([colors])),
        C3PROLintCase(
            rule: "c3pro-unsupported-enablewhen", failing: c3proText([fhirItem("n", "integer"), fhirItem("s", "string", enableWhen: when("n", #""answerInteger": 3"#))]),
            passing: c3proText([gate, fhirItem("s", "string", enableWhen: when("gate"))])),
        C3PROLintCase(
            rule: "c3pro-duplicate-step", failing: c3proText([fhirItem("d", "display", #""text": "A""#), fhirItem("d", "display", #""text": "B""#), colors]),
            passing: c3proText([fhirItem("d", "display", #""text": "A""#), fhirItem("e", "display", #""text": "B""#), colors])),
        C3PROLintCase(
            rule: "c3pro-no-steps", failing: c3proText([fhirItem("g", "group", items: [fhirItem("d", "display", enableWhen: when("g"))])]),
            passing: c3proText([fhirItem("g", "group", items: [fhirItem("d", "display", #""text": "Hi""#, enableWhen: when("g"))])])),
        C3PROLintCase(
            rule: "c3pro-requirement-without-result",
            failing: c3proText([gate, fhirItem("b", "boolean", enableWhen: when("gate")), fhirItem("s", "string", enableWhen: when("b"))]),
            passing: c3proText([gate, fhirItem("b", "boolean", enableWhen: when("gate")), fhirItem("s", "string", enableWhen: when("gate"))])),
        C3PROLintCase(
            rule: "c3pro-multiple-choice-equality", failing: c3proText([fhirItem("c", "choice", #"\#(colorOptions), "repeats": true"#), fhirItem("t", "boolean", enableWhen: when("c", red))]),
            passing: c3proText([colors, fhirItem("t", "boolean", enableWhen: when("c", red))])),
        C3PROLintCase(rule: "c3pro-slider-limits", failing: c3proText([slider(0, 20), colors]), passing: c3proText([slider(0, 10), colors])),
        C3PROLintCase(rule: "c3pro-slider-default", failing: c3proText([slider(0, 10, start: 11), colors]), passing: c3proText([slider(0, 10, start: 10), colors])),
        C3PROLintCase(
            rule: "c3pro-unbounded-integer", failing: c3proText([fhirItem("n", "integer", extensions([("minValue", #""valueInteger": 0"#)])), colors]),
            passing: c3proText([fhirItem("n", "integer"), colors])),
        C3PROLintCase(
            rule: "c3pro-empty-answer", failing: c3proText([fhirItem("c", "choice", #"\#(colorOptions), "repeats": true"#)]),
            passing: c3proText([fhirItem("c", "choice", #"\#(colorOptions), "repeats": true, "required": true"#)])),
        C3PROLintCase(
            rule: "c3pro-ignored-maxoccurs",
            failing: c3proText([fhirItem("c", "choice", #"\#(colorOptions), "repeats": true, "required": true, \#(extensions([("questionnaire-maxOccurs", #""valueInteger": 2"#)]))"#)]),
            passing: c3proText([fhirItem("c", "choice", #"\#(colorOptions), "repeats": true, "required": true, \#(extensions([("questionnaire-maxOccurs", #""valueInteger": 1"#)]))"#)])),
        C3PROLintCase(
            rule: "c3pro-ignored-maxlength", failing: c3proText([fhirItem("s", "string", #""maxLength": 5"#), colors]), passing: c3proText([fhirItem("s", "string"), colors])),
        C3PROLintCase(
            rule: "c3pro-generated-linkid", failing: c3proText([#"{"type": "boolean", "text": "Fine?"}"#, colors]), passing: c3proText([fhirItem("f", "boolean"), colors])),
        C3PROLintCase(
            rule: "c3pro-missing-type", failing: c3proText([#"{"linkId": "f", "text": "Fine?"}"#, colors]), passing: c3proText([fhirItem("f", "string"), colors])),
        C3PROLintCase(
            rule: "c3pro-several-conditions", failing: c3proText([gate, colors, fhirItem("s", "string", enableWhen: when("gate") + when("c", red))]),
            passing: c3proText([gate, colors, fhirItem("g", "group", enableWhen: when("gate"), items: [fhirItem("s", "string", enableWhen: when("c", red))])])),
        C3PROLintCase(
            rule: "c3pro-answer-and-item", failing: c3proText([fhirItem("p", "boolean", items: [fhirItem("pc", "string")]), colors]),
            passing: c3proText([fhirItem("g", "group", items: [fhirItem("p", "boolean"), fhirItem("pc", "string")]), colors])),
    ]
}

@Suite("FHIR c3pro lint and the profile comparison")
struct FHIRC3PROLintTests {
    @Test("each c3pro lint rule finds its problem, located, and is silent on the right way of doing the same", arguments: C3PROLintCase.all)
    func rule(lint: C3PROLintCase) {
        let failing = FormatRegistry.standard.lint(SourceFile(path: "q.json", text: lint.failing)).findings.with(rule: lint.rule)
        #expect(!failing.isEmpty, "expected \(lint.rule) on the failing example")
        #expect(failing.allSatisfy { $0.position != nil && $0.pointer != nil && $0.hint != nil })
        #expect(FormatRegistry.standard.lint(SourceFile(path: "q.json", text: lint.passing)).findings.with(rule: lint.rule).isEmpty, "expected no \(lint.rule) on the passing example")
    }

    @Test("an R4 Questionnaire is not C3-PRO's input: none of the c3pro rules apply to it")
    func r4Silent() {
        let text = questionnaireText([fhirItem("f", "attachment"), fhirItem("c", "choice", codingOptions(["a"]))])
        let rules = FormatRegistry.standard.lint(SourceFile(path: "q.json", text: text)).findings.compactMap(\.rule)
        #expect(!rules.contains { $0.hasPrefix("c3pro-") || $0 == "fhir-stu3-input" })
    }

    @Test("comparing r4 with c3pro finds the unanswered-requirement difference: after a = false, only c3pro shows c, whose requirement reads the passed-over b")
    func profileComparison() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("a", "boolean", #""required": true"#),
                fhirItem("b", "boolean", #""required": true"#, enableWhen: [condition("a", "=", #""answerBoolean": true"#)]),
                fhirItem("c", "string", enableWhen: [condition("b", "=", #""answerBoolean": true"#)]),
            ]))
        let comparer = Comparer(
            old: survey, new: survey, oldSettings: SessionSettings(today: testToday, profile: "r4"), newSettings: SessionSettings(today: testToday, profile: "c3pro"),
            names: ("r4", "c3pro"), replay: .answers, maxSteps: 30)
        let differences = comparer.run(walks: 30, seed: 1)
        let atC = try #require(differences.first { $0.question == "c" })
        #expect(atC.detail.contains("only c3pro shows c") || atC.detail.hasPrefix("c3pro submits c = "), "\(atC.detail)")
        #expect(atC.actions.contains(.answer(question: "a", value: false)))
        #expect(!atC.actions.contains { $0.question == "b" })
        // The same walk with the same profile on both sides differs nowhere.
        let same = Comparer(
            old: survey, new: survey, oldSettings: SessionSettings(today: testToday, profile: "c3pro"), newSettings: SessionSettings(today: testToday, profile: "c3pro"),
            names: ("c3pro", "c3pro"), replay: .answers, maxSteps: 30)
        #expect(same.run(walks: 10, seed: 1).isEmpty)
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:307-315 (a text item gets no step), Questionnaire+C3-PRO.swift:96 (answerInteger cannot be read)
    @Test("comparing r4 with c3pro finds what C3-PRO prepares without: only r4 shows the text item, only c3pro shows the item whose condition it cannot read")
    func profileComparisonOfPreparation() throws {
        let survey = try loadQuestionnaire(
            c3proText([
                fhirItem("n", "integer", #""required": true"#), fhirItem("t", "text"),
                fhirItem("s", "string", enableWhen: [stu3Condition("n", #""answerInteger": 3"#)]), fhirItem("end", "display", #""text": "Bye""#),
            ]))
        let comparer = Comparer(
            old: survey, new: survey, oldSettings: SessionSettings(today: testToday, profile: "r4"), newSettings: SessionSettings(today: testToday, profile: "c3pro"),
            names: ("r4", "c3pro"), replay: .answers, maxSteps: 30)
        let details = comparer.run(walks: 40, seed: 1).map(\.detail)
        #expect(details.contains { $0.contains("only r4 shows t") }, "\(details)")
        #expect(details.contains { $0.contains("only c3pro shows s") }, "\(details)")
    }
}
