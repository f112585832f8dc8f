import SurveyCore
import Testing

@testable import SurveyFormats

/// A lint rule with items that break it and items that do the same thing right.
struct LintCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let failing: [String]
    let passing: [String]

    var testDescription: String { rule }

    static let gate = fhirItem("gate", "boolean")
    static let ext = "http://hl7.org/fhir/StructureDefinition/"
    static let sdc = "http://hl7.org/fhir/uv/sdc/StructureDefinition/"

    static let all: [LintCase] = [
        LintCase(rule: "fhir-file-shape", failing: [#"{"type": "string"}"#], passing: [fhirItem("a", "string")]),
        LintCase(rule: "fhir-item-type", failing: [fhirItem("a", "strnig")], passing: [fhirItem("a", "string")]),
        LintCase(rule: "fhir-dangling-question", failing: [gate, fhirItem("a", "string", enableWhen: [condition("gaet", "exists", #""answerBoolean": true"#)])],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])]),
        LintCase(rule: "fhir-que-1", failing: [fhirItem("g", "group")], passing: [fhirItem("g", "group", items: [fhirItem("a", "string")])]),
        LintCase(rule: "fhir-que-2", failing: [fhirItem("a", "string"), fhirItem("a", "integer")], passing: [fhirItem("a", "string"), fhirItem("b", "integer")]),
        LintCase(rule: "fhir-que-3", failing: [fhirItem("d", "display", #""code": [{"code": "x"}]"#)], passing: [fhirItem("d", "display")]),
        LintCase(rule: "fhir-que-4", failing: [fhirItem("c", "choice", #"\#(codingOptions(["a"])), "answerValueSet": "http://x/vs""#)], passing: [fhirItem("c", "choice", codingOptions(["a"]))]),
        LintCase(rule: "fhir-que-5", failing: [fhirItem("b", "boolean", codingOptions(["a"]))], passing: [fhirItem("s", "string", #""answerOption": [{"valueString": "a"}]"#)]),
        LintCase(rule: "fhir-que-6", failing: [fhirItem("d", "display", #""required": true"#)], passing: [fhirItem("d", "display")]),
        LintCase(rule: "fhir-que-7", failing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerString": "x""#)])],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])]),
        LintCase(rule: "fhir-que-8", failing: [fhirItem("d", "display", #""initial": [{"valueString": "x"}]"#)], passing: [fhirItem("s", "string", #""initial": [{"valueString": "x"}]"#)]),
        LintCase(rule: "fhir-que-9", failing: [fhirItem("d", "display", #""readOnly": true"#)], passing: [fhirItem("s", "string", #""readOnly": true"#)]),
        LintCase(rule: "fhir-que-10", failing: [fhirItem("d", "date", #""maxLength": 5"#)], passing: [fhirItem("s", "string", #""maxLength": 5"#)]),
        LintCase(rule: "fhir-que-11", failing: [fhirItem("c", "choice", #"\#(codingOptions(["a"])), "initial": [{"valueCoding": {"system": "http://example.org/s", "code": "a"}}]"#)],
                 passing: [fhirItem("c", "choice", #""answerOption": [{"valueString": "a", "initialSelected": true}]"#)]),
        LintCase(rule: "fhir-que-12", failing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#), condition("gate", "=", #""answerBoolean": true"#)])],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#), condition("gate", "=", #""answerBoolean": true"#)], behavior: "all")]),
        LintCase(rule: "fhir-que-13", failing: [fhirItem("s", "string", #""initial": [{"valueString": "x"}, {"valueString": "y"}]"#)],
                 passing: [fhirItem("s", "string", #""repeats": true, "initial": [{"valueString": "x"}, {"valueString": "y"}]"#)]),
        LintCase(rule: "fhir-ignored-extension", failing: [fhirItem("d", "display", #""extension": [{"url": "\#(ext)minValue", "valueInteger": 1}]"#)],
                 passing: [fhirItem("n", "integer", #""extension": [{"url": "\#(ext)minValue", "valueInteger": 1}]"#)]),
        LintCase(rule: "fhir-source-no-answers", failing: [fhirItem("d", "display"), fhirItem("a", "string", enableWhen: [condition("d", "exists", #""answerBoolean": true"#)])],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])]),
        LintCase(rule: "fhir-operator-type", failing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", ">", #""answerBoolean": true"#)])],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "=", #""answerBoolean": true"#)])]),
        LintCase(rule: "fhir-answer-type", failing: [fhirItem("n", "integer"), fhirItem("a", "string", enableWhen: [condition("n", "=", #""answerString": "5""#)])],
                 passing: [fhirItem("n", "integer"), fhirItem("a", "string", enableWhen: [condition("n", "=", #""answerInteger": 5"#)])]),
        LintCase(rule: "fhir-number-type", failing: [fhirItem("n", "integer"), fhirItem("a", "string", enableWhen: [condition("n", ">", #""answerDecimal": 5.5"#)])],
                 passing: [fhirItem("n", "decimal"), fhirItem("a", "string", enableWhen: [condition("n", ">", #""answerDecimal": 5.5"#)])]),
        LintCase(rule: "fhir-never-matches", failing: [fhirItem("c", "choice", codingOptions(["a"])), fhirItem("x", "string", enableWhen: [condition("c", "=", codingAnswer("z"))])],
                 passing: [fhirItem("c", "choice", codingOptions(["a"])), fhirItem("x", "string", enableWhen: [condition("c", "=", codingAnswer("a"))])]),
        LintCase(rule: "fhir-not-equals-unanswered", failing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "!=", #""answerBoolean": true"#)])],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "=", #""answerBoolean": false"#)])]),
        LintCase(rule: "fhir-forward-reference", failing: [fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)]), gate],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])]),
        LintCase(rule: "fhir-repeat-source", failing: [fhirItem("g", "group", #""repeats": true"#, items: [gate]), fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])],
                 passing: [fhirItem("g", "group", #""repeats": true"#, items: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])])]),
        LintCase(rule: "fhir-repeat-preceding", failing: [fhirItem("g", "group", #""repeats": true"#, items: [fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)]), gate])],
                 passing: [fhirItem("g", "group", #""repeats": true"#, items: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])])]),
        LintCase(rule: "fhir-sdc-syntax", failing: [fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "1 +")))],
                 passing: [fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "1 + 1")))]),
        LintCase(rule: "fhir-sdc-semantic", failing: [fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "iif(true, 1, 2, 3)")))],
                 passing: [fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "iif(true, 1, 2)")))]),
        LintCase(rule: "fhir-sdc-dialect", failing: [fhirItem("n", "integer"), fhirItem("a", "integer", extensions(sdcExtension("variable", "%resource.item.where(linkId='n').answer.value", name: "n_value"), sdcExtension("sdc-questionnaire-calculatedExpression", "%n_value + 1")))],
                 passing: [fhirItem("n", "integer"), fhirItem("a", "integer", extensions(sdcExtension("variable", "%resource.item.where(linkId='n').answer.value", name: "nValue"), sdcExtension("sdc-questionnaire-calculatedExpression", "%nValue + 1")))]),
        LintCase(rule: "fhir-sdc-unknown-linkid", failing: [fhirItem("n", "integer"), fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "%resource.item.where(linkId='m').answer.value")))],
                 passing: [fhirItem("n", "integer"), fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "%resource.item.where(linkId='n').answer.value")))]),
        LintCase(rule: "fhir-sdc-out-of-scope",
                 failing: [fhirItem("g", "group", extensions(sdcExtension("variable", "%resource.item.answer.value.count()", name: "count")), items: [fhirItem("n", "integer")]), fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "%count")))],
                 passing: [fhirItem("g", "group", extensions(sdcExtension("variable", "%resource.item.answer.value.count()", name: "count")), items: [fhirItem("n", "integer"), fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "%count")))])]),
        LintCase(rule: "fhir-sdc-constant", failing: [fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "2 + 3")))],
                 passing: [fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-initialExpression", "2 + 3")))]),
        LintCase(rule: "fhir-sdc-cycle",
                 failing: [fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "%resource.item.where(linkId='b').answer.value + 1"))), fhirItem("b", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "%resource.item.where(linkId='a').answer.value + 1")))],
                 passing: [fhirItem("a", "integer"), fhirItem("b", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", "%resource.item.where(linkId='a').answer.value + 1")))]),
        LintCase(rule: "fhir-sdc-server", failing: [fhirItem("a", "string", extensions(sdcExtension("sdc-questionnaire-initialExpression", "Patient?_id=1", language: "application/x-fhir-query")))],
                 passing: [fhirItem("a", "string", extensions(sdcExtension("sdc-questionnaire-initialExpression", "'x'")))]),
        LintCase(rule: "fhir-sdc-not-evaluated", failing: [fhirItem("a", "string", extensions(sdcExtension("sdc-questionnaire-initialExpression", "Name", language: "text/cql")))],
                 passing: [fhirItem("a", "string", extensions(sdcExtension("sdc-questionnaire-initialExpression", "'x'")))]),
        LintCase(rule: "fhir-sdc-engines-differ",
                 failing: [gate, fhirItem("c", "choice", codingOptions(["a", "b"]) + ", " + extensions(#"{"url": "\#(sdc)sdc-questionnaire-answerOptionsToggleExpression", "extension": [{"url": "option", "valueCoding": {"system": "http://example.org/s", "code": "b"}}, {"url": "expression", "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.where(linkId='gate').answer.value"}}]}"#))],
                 passing: [gate, fhirItem("c", "choice", codingOptions(["a", "b"]))]),
        LintCase(rule: "fhir-sdc-shape", failing: [fhirItem("a", "string", extensions(#"{"url": "\#(ext)variable", "valueExpression": {"language": "text/fhirpath", "expression": "1"}}"#))],
                 passing: [fhirItem("a", "string", extensions(sdcExtension("variable", "1", name: "one")))]),
        LintCase(rule: "fhir-enablewhen-and-expression",
                 failing: [gate, fhirItem("a", "string", #""extension": [{"url": "\#(sdc)sdc-questionnaire-enableWhenExpression", "valueExpression": {"language": "text/fhirpath", "expression": "true"}}]"#, enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])],
                 passing: [gate, fhirItem("a", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)])]),
        LintCase(rule: "fhir-enablewhen-cycle",
                 failing: [fhirItem("a", "string", enableWhen: [condition("b", "exists", #""answerBoolean": true"#)]), fhirItem("b", "string", enableWhen: [condition("a", "exists", #""answerBoolean": true"#)])],
                 passing: [fhirItem("a", "string"), fhirItem("b", "string", enableWhen: [condition("a", "exists", #""answerBoolean": true"#)])]),
        LintCase(rule: "fhir-json-type", failing: [fhirItem("a", "string", #""required": "true""#)], passing: [fhirItem("a", "string", #""required": true"#)]),
        LintCase(rule: "fhir-required-unanswerable", failing: [fhirItem("a", "string", #""required": true, "readOnly": true"#)],
                 passing: [fhirItem("a", "string", #""required": true, "readOnly": true, "initial": [{"valueString": "x"}]"#)]),
    ]
}

@Suite("FHIR lint and loading")
struct FHIRLintTests {
    @Test("each lint rule finds its problem and is silent on the right way of doing the same", arguments: LintCase.all)
    func rule(lint: LintCase) {
        let failing = fhirLint(lint.failing).with(rule: lint.rule)
        #expect(!failing.isEmpty, "expected \(lint.rule) on the failing example")
        #expect(failing.allSatisfy { $0.position != nil && $0.pointer != nil && $0.hint != nil })
        #expect(fhirLint(lint.passing).with(rule: lint.rule).isEmpty, "expected no \(lint.rule) on the passing example")
    }

    @Test(
        "que-5 follows the invariant's expression, not its one-line description: answer choices are allowed on choice, open-choice, decimal, integer, date, dateTime, time, string and quantity items, an error on the others")
    func que5Expression() {
        let choices = #""answerValueSet": "http://example.org/vs""#
        for type in ["choice", "open-choice", "decimal", "integer", "date", "dateTime", "time", "string", "quantity"] {
            #expect(fhirLint(fhirItem("a", type, choices)).with(rule: "fhir-que-5").isEmpty, "\(type)")
        }
        for type in ["boolean", "text", "url", "attachment", "reference"] {
            let found = fhirLint(fhirItem("a", type, choices)).with(rule: "fhir-que-5")
            #expect(found.count == 1 && found[0].severity == .error && found[0].pointer == "/item/0/answerValueSet", "\(type)")
        }
    }

    @Test("a Questionnaire without status gets a warning, and loads")
    func missingStatus() throws {
        let text = #"{"resourceType": "Questionnaire", "item": [\#(fhirItem("a", "string"))]}"#
        let findings = FormatRegistry.standard.lint(SourceFile(path: "q.json", text: text)).findings
        #expect(findings.map(\.rule) == ["fhir-missing-status"])
        #expect(fhirLoadErrors(text).isEmpty)
    }

    @Test(
        "a file neither engine renders does not load, every refusal of both readings located and naming its engine; what an engine throws on only when it evaluates or shows an item is no load error")
    func loadErrors() {
        let errors = fhirLoadErrors(
            questionnaireText([
                fhirItem("a", "strnig"), fhirItem("b", "string", enableWhen: [#"{"operator": "exists", "answerBoolean": true}"#]),
                fhirItem("c", "string", enableWhen: [condition("b", "exists", #""answerInteger": 1"#)]),
                fhirItem("d", "string", enableWhen: [condition("b", "exists", #""answerBoolean": true"#), condition("c", "exists", #""answerBoolean": true"#)]),
                fhirItem("e", "string", enableWhen: [condition("nowhere", "=", #""answerString": "x""#)]),
            ]))
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { $0.position != nil && $0.severity == .error })
        let messages = errors.map(\.message)
        // HAPI cannot parse the code "strnig"; LHC-Forms renders a text box (sdc-import.js:36-92).
        #expect(messages[0].hasPrefix("android-fhir refuses this Questionnaire") && messages[0].contains("\"strnig\""))
        #expect(messages[1].contains("has no \"question\"") && messages[1].contains("LHC-Forms refuses the file"))
        #expect(messages[2].contains("'nowhere', which no item has") && messages[2].contains("LHC-Forms refuses the file"))
        // c (exists with answerInteger) and d (que-12) make android-fhir throw only when it evaluates them.
        let lint = fhirLint([fhirItem("a", "strnig")]).with(rule: "fhir-item-type")
        #expect(lint.count == 1 && lint[0].message.contains("LHC-Forms renders a text box") && lint[0].hint?.contains("did you mean 'string'?") == true)
    }

    @Test("que constraints the engines render anyway (que-1, que-11) are lint errors but the file loads")
    func constraintsLoad() {
        let items = [fhirItem("g", "group"), fhirItem("c", "choice", #"\#(codingOptions(["a"])), "initial": [{"valueCoding": {"system": "http://example.org/s", "code": "a"}}]"#)]
        #expect(fhirLoadErrors(questionnaireText(items)).isEmpty)
        #expect(Set(fhirLint(items).filter { $0.severity == .error }.compactMap(\.rule)) == ["fhir-que-1", "fhir-que-11"])
    }

    @Test("a value of the wrong JSON type is a lint error at the value saying what each engine does; the file loads for LHC-Forms, android-fhir refuses it")
    func valueTypeError() throws {
        let items = [fhirItem("n", "integer"), fhirItem("a", "string", enableWhen: [condition("n", "=", #""answerInteger": "five""#)])]
        let finding = try #require(fhirLint(items).with(rule: "fhir-json-type").first)
        #expect(finding.severity == .error)
        #expect(finding.pointer == "/item/1/enableWhen/0/answerInteger")
        #expect(finding.message.contains("expected an integer") && finding.message.contains("LHC-Forms compares the value as written"))
        #expect(finding.message.contains("android-fhir refuses the file"))
        let survey = try loadQuestionnaire(questionnaireText(items))
        #expect(survey.problem(with: SessionSettings()) == nil)
        #expect(survey.problem(with: SessionSettings(options: [FHIRSurvey.engineOption: "android-fhir"]))?.contains("android-fhir refuses this Questionnaire") == true)
    }

    @Test("the format is recognized by resourceType; another resource is not a survey")
    func recognition() {
        let format = FHIRFormat()
        let questionnaire = try? JSONParser.parse(SourceFile(path: "q.json", text: questionnaireText([fhirItem("a", "string")])))
        let response = try? JSONParser.parse(SourceFile(path: "r.json", text: #"{"resourceType": "QuestionnaireResponse", "status": "completed"}"#))
        #expect(questionnaire.map(format.recognizes) == true)
        #expect(response.map(format.recognizes) == false)
    }
}
