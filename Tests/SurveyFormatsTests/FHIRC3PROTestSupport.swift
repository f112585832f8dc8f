import SurveyCore
import Testing

@testable import SurveyFormats

// Small STU3-era Questionnaires, as C3-PRO reads them: choices from a contained ValueSet (`options`),
// enableWhen without operator.

/// The contained ValueSet `#colors`: red, green and blue in the test system, listed by compose.include.concept.
let c3proColors = #"{"resourceType": "ValueSet", "id": "colors", "status": "active", "compose": {"include": [{"system": "http://example.org/s", "concept": [{"code": "red", "display": "Red"}, {"code": "green", "display": "Green"}, {"code": "blue", "display": "Blue"}]}]}}"#

/// `"options": {"reference": "#colors"}`.
let colorOptions = ##""options": {"reference": "#colors"}"##

/// An STU3 enableWhen: no operator, the answer alone (`"answerBoolean": true`).
func stu3Condition(_ question: String, _ answer: String) -> String {
    #"{"question": "\#(question)", \#(answer)}"#
}

/// A Questionnaire with these items and the `#colors` ValueSet contained.
func c3proText(_ items: [String]) -> String {
    questionnaireText(items, extra: #""id": "test", "status": "draft", "contained": [\#(c3proColors)]"#)
}

func c3proSession(_ items: [String]) throws -> FHIRC3PROSession {
    try c3proSession(text: c3proText(items))
}

func c3proSession(_ items: String...) throws -> FHIRC3PROSession {
    try c3proSession(items)
}

func c3proSession(text: String, options: [String: String] = [:]) throws -> FHIRC3PROSession {
    let survey = try loadQuestionnaire(text)
    return try #require(survey.makeSession(c3proSettings(options)) as? FHIRC3PROSession)
}

func c3proSettings(_ options: [String: String] = [:]) -> SessionSettings {
    SessionSettings(today: testToday, profile: "c3pro", options: options)
}

/// An extension member: `"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/NAME", VALUE}, ...]`.
func extensions(_ entries: [(name: String, value: String)]) -> String {
    let list = entries.map { #"{"url": "http://hl7.org/fhir/StructureDefinition/\#($0.name)", \#($0.value)}"# }
    return #""extension": [\#(list.joined(separator: ", "))]"#
}

extension FHIRC3PROSession {
    /// The submitted response's items.
    var responseItems: JSONValue? { payload?.objectValue?["item"] }

    func outcome(_ action: Action) -> Outcome { perform(action).outcome }
}
