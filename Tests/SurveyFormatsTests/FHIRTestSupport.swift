import Foundation
import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

// Small Questionnaires written inline, one rule at a time. Builders return JSON text so a test reads like the
// file it describes.

/// One item: `keys` are extra members written as JSON text (`"required": true`).
func fhirItem(_ linkId: String, _ type: String, _ keys: String = "", enableWhen: [String] = [], behavior: String? = nil, items: [String] = []) -> String {
    var members = [#""linkId": "\#(linkId)""#, #""type": "\#(type)""#]
    if !keys.isEmpty { members.append(keys) }
    if !enableWhen.isEmpty { members.append(#""enableWhen": [\#(enableWhen.joined(separator: ", "))]"#) }
    if let behavior { members.append(#""enableBehavior": "\#(behavior)""#) }
    if !items.isEmpty { members.append(#""item": [\#(items.joined(separator: ", "))]"#) }
    return "{" + members.joined(separator: ", ") + "}"
}

/// One enableWhen condition: `answer` is the member, e.g. `"answerInteger": 5`.
func condition(_ question: String, _ op: String, _ answer: String) -> String {
    #"{"question": "\#(question)", "operator": "\#(op)", \#(answer)}"#
}

/// An item `source` of the type and three items enabled by `source = answer`, `source != answer` and
/// `source > answer`: "eq", "ne" and "gt".
func comparedItems(_ source: String, _ type: String, answer: String) -> [String] {
    [fhirItem(source, type)] + [("eq", "="), ("ne", "!="), ("gt", ">")].map { id, op in fhirItem(id, "string", enableWhen: [condition(source, op, answer)]) }
}

/// `answerCoding` of code `code` in the test system.
func codingAnswer(_ code: String) -> String { #""answerCoding": {"system": "http://example.org/s", "code": "\#(code)"}"# }

/// A Coding of the test system, as a scenario answers it.
func coding(_ code: String) -> JSONValue { ["system": "http://example.org/s", "code": .string(code)] }

/// `"answerOption": [...]` with Codings of the test system for these codes.
func codingOptions(_ codes: [String]) -> String {
    let options = codes.map { #"{"valueCoding": {"system": "http://example.org/s", "code": "\#($0)", "display": "\#($0.uppercased())"}}"# }
    return #""answerOption": [\#(options.joined(separator: ", "))]"#
}

func questionnaireText(_ items: [String], extra: String = #""status": "active""#) -> String {
    #"{"resourceType": "Questionnaire", \#(extra), "item": [\#(items.joined(separator: ", "))]}"#
}

func loadQuestionnaire(_ text: String) throws -> FHIRSurvey {
    let survey = try FormatRegistry.standard.load(SourceFile(path: "q.json", text: text))
    return try #require(survey as? FHIRSurvey)
}

func fhirSession(_ items: [String], options: [String: String] = [:]) throws -> FHIRSession {
    let survey = try loadQuestionnaire(questionnaireText(items))
    return try #require(survey.makeSession(SessionSettings(today: testToday, options: options)) as? FHIRSession)
}

func fhirSession(_ items: String..., options: [String: String] = [:]) throws -> FHIRSession {
    try fhirSession(items, options: options)
}

/// The errors loading the text gives (none when it loads).
func fhirLoadErrors(_ text: String) -> [Diagnostic] {
    do throws(InputError) {
        _ = try FormatRegistry.standard.load(SourceFile(path: "q.json", text: text))
        return []
    } catch {
        return error.diagnostics
    }
}

/// The lint findings of a Questionnaire with these items, by rule.
func fhirLint(_ items: [String]) -> [Diagnostic] {
    FormatRegistry.standard.lint(SourceFile(path: "q.json", text: questionnaireText(items))).findings
}

func fhirLint(_ items: String...) -> [Diagnostic] { fhirLint(items) }

extension [Diagnostic] {
    func with(rule: String) -> [Diagnostic] { filter { $0.rule == rule } }
}

extension FHIRSession {
    func isVisible(_ id: String) -> Bool { visibleQuestions.contains(id) }

    /// The submitted response's items, without the resource's header.
    var responseItems: JSONValue? { payload?.objectValue?["item"] }
}

/// Runs seeded walks with the built-in properties over a survey, expecting no engine error in any; returns how
/// many submitted.
func walksSubmitted(_ survey: any Survey, settings: SessionSettings, walks: Int, maxSteps: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Int {
    var walker = Walker(survey: survey, settings: settings, maxSteps: maxSteps, builtInProperties: true, properties: nil)
    var submitted = 0
    for seed in 0..<walks {
        var stream = ChoiceStream(generator: SplitMix64(seed: UInt64(seed)))
        let outcome = walker.walk(&stream)
        #expect(outcome.findings.filter { $0.finding.kind == .engineError }.isEmpty, "\(outcome.findings.map(\.finding.message))", sourceLocation: sourceLocation)
        if outcome.submitted { submitted += 1 }
    }
    return submitted
}
