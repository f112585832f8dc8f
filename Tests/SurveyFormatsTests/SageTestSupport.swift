import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

// Small Sage tasks written inline, one rule at a time.

/// A task of these steps (JSON text), with extra top-level members.
func sageTask(_ steps: [String], extra: String = "") -> String {
    #"{"identifier": "task", \#(extra.isEmpty ? "" : extra + ", ")"steps": [\#(steps.joined(separator: ",\n"))]}"#
}

/// A legacy form step with these input fields.
func form(_ id: String, _ fields: String..., keys: String = "") -> String {
    #"{"identifier": "\#(id)", "type": "form", \#(keys.isEmpty ? "" : keys + ", ")"inputFields": [\#(fields.joined(separator: ", "))]}"#
}

/// A legacy input field.
func inputField(_ id: String, _ type: String, _ keys: String = "") -> String {
    #"{"identifier": "\#(id)", "type": "\#(type)"\#(keys.isEmpty ? "" : ", " + keys)}"#
}

/// A v3 / successor question on an integer (`simpleQuestion`) with these rules.
func simpleQuestion(_ id: String, _ type: String = "integer", rules: [String] = [], keys: String = "") -> String {
    let rulesText = rules.isEmpty ? "" : #", "surveyRules": [\#(rules.joined(separator: ", "))]"#
    return #"{"identifier": "\#(id)", "type": "simpleQuestion", "inputItem": {"type": "\#(type)"}\#(keys.isEmpty ? "" : ", " + keys)\#(rulesText)}"#
}

func instruction(_ id: String, keys: String = "") -> String {
    #"{"identifier": "\#(id)", "type": "instruction"\#(keys.isEmpty ? "" : ", " + keys)}"#
}

/// A survey rule with the members given as JSON text.
func rule(_ members: String) -> String { "{\(members)}" }

/// The successor's marker, so that a task of question steps reads as the AssessmentModel generation.
let assessmentMarker = #""$schema": "https://bridgedigitalhealth.github.io/mobile-client-json/schemas/v2/AssessmentObject.json""#

func sageSession(_ text: String, profile: String? = nil, options: [String: String] = [:], today: CalendarDate = testToday) throws -> SageSession {
    let survey = try #require(try loadSurvey(text: text) as? SageSurvey)
    let settings = SessionSettings(today: today, profile: profile, options: options)
    #expect(survey.problem(with: settings) == nil)
    return try #require(survey.makeSession(settings) as? SageSession)
}

/// A section step holding these steps.
func section(_ id: String, _ steps: String..., keys: String = "") -> String {
    #"{"identifier": "\#(id)", "type": "section", \#(keys.isEmpty ? "" : keys + ", ")"steps": [\#(steps.joined(separator: ", "))]}"#
}

/// The identifiers of the entries of a result's step history, as written.
func historyNames(_ result: JSONValue?) -> [String] {
    result?.objectValue?["stepHistory"]?.arrayValue?.compactMap { $0.objectValue?["identifier"]?.stringValue } ?? []
}

/// A result's path record: `nodePath` strings, or `path` markers as "id" / "id(direction)" when not forward.
func pathNames(_ result: JSONValue?) -> [String] {
    if let nodePath = result?.objectValue?["nodePath"]?.arrayValue { return nodePath.compactMap(\.stringValue) }
    return (result?.objectValue?["path"]?.arrayValue ?? []).compactMap { marker in
        guard let id = marker.objectValue?["identifier"]?.stringValue, let direction = marker.objectValue?["direction"]?.stringValue else { return nil }
        return direction == "forward" ? id : "\(id)(\(direction))"
    }
}

/// The value of each answer entry of a result's step history, in order (nil when the entry has none).
func historyValues(_ result: JSONValue?) -> [JSONValue?] {
    (result?.objectValue?["stepHistory"]?.arrayValue ?? []).map { $0.objectValue?["value"] }
}

/// A file of the corpus's `<format>/` folder (tests reading it declare `.requires(.corpus)`).
func corpusURL(_ format: String, _ name: String) -> URL {
    Corpus.url("\(format)/\(name)")
}

func loadCorpus(_ format: String, _ name: String) throws -> any Survey {
    let text = try String(contentsOf: corpusURL(format, name), encoding: .utf8)
    return try FormatRegistry.standard.load(SourceFile(path: name, text: text))
}

func lintFindings(_ text: String) -> (format: String?, findings: [Diagnostic]) {
    FormatRegistry.standard.lint(SourceFile(path: "test.json", text: text))
}
