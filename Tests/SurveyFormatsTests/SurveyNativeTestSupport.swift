import Foundation
import SurveyCore
import Testing

@testable import SurveyFormats

// Small SurveyNative surveys written inline, one rule at a time. Builders return JSON text so a test reads
// like the survey file it describes.

/// The day every test session runs on, so picker ranges and `current_year` are fixed.
let testToday = CalendarDate(year: 2026, month: 11, day: 22)

/// JSON text of a value.
func json(_ value: JSONValue) -> String { CanonicalJSON.compact(value) }

func json(_ strings: [String]) -> String { json(.array(strings.map(JSONValue.string))) }

// MARK: questions

/// One question: `keys` are extra members written as JSON text (`"options": [...]`).
func question(_ id: String, _ type: String, _ keys: String = "", showIf: String? = nil, subQuestions: [String] = []) -> String {
    var members = [#""id": "\#(id)""#, #""question_type": "\#(type)""#]
    if !keys.isEmpty { members.append(keys) }
    if let showIf { members.append(#""show_if": \#(showIf)"#) }
    if !subQuestions.isEmpty { members.append(#""sub_questions": [\#(subQuestions.joined(separator: ", "))]"#) }
    return "{" + members.joined(separator: ", ") + "}"
}

/// A single_select of plain options.
func select(_ id: String, _ options: [String] = ["Yes", "No"], showIf: String? = nil, subQuestions: [String] = []) -> String {
    question(id, "single_select", #""options": \#(json(options))"#, showIf: showIf, subQuestions: subQuestions)
}

/// A single_select whose last option is an Other option titled `other`, validated by `rules`.
func selectWithOther(_ id: String, _ options: [String] = ["Vanilla"], other: String = "Other", rules: [String] = []) -> String {
    let otherOption = #"{"title": "\#(other)", "type": "freeform", \#(validations(rules))}"#
    return question(id, "single_select", #""options": [\#(options.map { json(.string($0)) }.joined(separator: ", ")), \#(otherOption)]"#)
}

func multiSelect(_ id: String, _ options: [String] = ["Pop", "Rock", "Rap"], showIf: String? = nil) -> String {
    question(id, "multi_select", #""options": \#(json(options))"#, showIf: showIf)
}

func textField(_ id: String, _ keys: String = "", showIf: String? = nil) -> String {
    question(id, "single_text_field", keys, showIf: showIf)
}

/// A table_select with rows `r1`, `r2` and the options Yes, Sometimes, No.
func tableSelect(_ id: String, options: [String] = ["Yes", "Sometimes", "No"], rows: [String] = ["r1", "r2"]) -> String {
    let tableQuestions = rows.map { #"{"title": "\#($0)?", "id": "\#($0)"}"# }.joined(separator: ", ")
    return question(id, "table_select", #""options": \#(json(options)), "table_questions": [\#(tableQuestions)]"#)
}

/// A multi_text_field with fields Dogs and Cats.
func multiTextField(_ id: String, _ keys: String = "") -> String {
    let fields = #""fields": [{"label": "Dogs", "input_type": "number"}, {"label": "Cats", "input_type": "number"}]"#
    return question(id, "multi_text_field", keys.isEmpty ? fields : fields + ", " + keys)
}

/// A dynamic_label_text_field offering Feet+Inches or Centimeters, validated by `rules`.
func dynamicLabel(_ id: String, rules: [String] = []) -> String {
    question(id, "dynamic_label_text_field", #""label_options": [["Feet", "Inches"], "Centimeters"], \#(validations(rules))"#)
}

/// The member `"validations": [...]` holding these entries.
func validations(_ entries: [String]) -> String { #""validations": [\#(entries.joined(separator: ", "))]"# }

func validations(_ entries: String...) -> String { validations(entries) }

/// One validation entry comparing with a literal value.
func validation(_ operation: String, _ value: JSONValue, message: String, forLabel: String? = nil) -> String {
    let label = forLabel.map { #", "for_label": "\#($0)""# } ?? ""
    return #"{"operation": "\#(operation)", "value": \#(json(value)), "on_fail_message": \#(json(.string(message)))\#(label)}"#
}

// MARK: conditions

/// A simple condition on the answer to `id` (or its part `subid`).
func when(_ id: String, _ operation: String, _ value: JSONValue, subid: String? = nil) -> String {
    let part = subid.map { #", "subid": "\#($0)""# } ?? ""
    return #"{"id": "\#(id)"\#(part), "operation": "\#(operation)", "value": \#(json(value))}"#
}

/// A decision tree with any operation (the engine knows "and" and "or").
func tree(_ operation: String, _ subconditions: [String]) -> String {
    #"{"operation": "\#(operation)", "subconditions": [\#(subconditions.joined(separator: ", "))]}"#
}

func allOf(_ subconditions: String...) -> String { tree("and", subconditions) }

func anyOf(_ subconditions: String...) -> String { tree("or", subconditions) }

/// A condition the host app decides, under the key `extra.id`.
func custom(ids: [String], key: String) -> String {
    #"{"operation": "custom", "ids": \#(json(ids)), "extra": {"id": "\#(key)"}}"#
}

// MARK: loading and sessions

func surveyText(_ questions: [String]) -> String {
    #"{"questions": [\#(questions.joined(separator: ",\n"))], "submit": {"button_title": "Send", "url": "https://example.com/answers"}}"#
}

func loadSurvey(text: String) throws -> any Survey {
    try FormatRegistry.standard.load(SourceFile(path: "test.json", text: text))
}

func startSession(_ questions: [String], today: CalendarDate = testToday) throws -> any SurveySession {
    try loadSurvey(text: surveyText(questions)).makeSession(SessionSettings(today: today))
}

func startSession(_ questions: String..., today: CalendarDate = testToday) throws -> any SurveySession {
    try startSession(questions, today: today)
}

/// The errors of a survey file that must not load (an issue is recorded if it loads).
func loadErrors(text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Diagnostic] {
    do {
        _ = try loadSurvey(text: text)
        Issue.record("expected the survey not to load", sourceLocation: sourceLocation)
        return []
    } catch let error as InputError {
        return error.diagnostics
    } catch {
        Issue.record("expected an InputError, got \(error)", sourceLocation: sourceLocation)
        return []
    }
}

func loadErrors(_ questions: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Diagnostic] {
    loadErrors(text: surveyText(questions), sourceLocation: sourceLocation)
}

/// Whether `condition`, as the show_if of a question `target` placed after `before` and followed by `end`
/// and then `after`, holds once `actions` are performed. The actions must take the session past the
/// questions before `target`, so that the condition was evaluated and `target` shown or skipped.
func showIfHolds(
    _ condition: String, before: [String] = [select("a")], after: [String] = [], performing actions: [Action],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> Bool {
    let session = try startSession(before + [select("target", showIf: condition), select("end")] + after)
    session.play(actions, sourceLocation: sourceLocation)
    let current = session.currentQuestion
    try #require(
        current == "target" || current == "end",
        "the actions must reach the question with the condition; the session is on \(current ?? "Submit")",
        sourceLocation: sourceLocation)
    return session.visibleQuestions.contains("target")
}

// MARK: test arguments

/// A question (JSON text) and a value to answer it with.
struct Answering: Sendable, CustomTestStringConvertible {
    let question: String
    let value: JSONValue

    init(_ question: String, _ value: JSONValue) {
        self.question = question
        self.value = value
    }

    var testDescription: String { "\(question.prefix(70))… answered \(json(value))" }
}

/// A numeric comparison of a typed text with a value, and whether it holds.
struct Comparison: Sendable, CustomTestStringConvertible {
    let text: String
    let operation: String
    let value: JSONValue
    let holds: Bool

    init(_ text: String, _ operation: String, _ value: JSONValue, _ holds: Bool) {
        self.text = text
        self.operation = operation
        self.value = value
        self.holds = holds
    }

    var testDescription: String { "\"\(text)\" \(operation) \(json(value)) is \(holds)" }
}

// MARK: actions and outcomes

extension Action {
    static func answer(_ id: String, _ value: JSONValue) -> Action { .answer(question: id, value: value) }

    /// Next on the active question.
    static let tapNext = Action.next(question: nil)
}

extension SurveySession {
    /// Performs the actions of a respondent who does everything right: each must be taken.
    func play(_ actions: [Action], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for action in actions {
            let outcome = perform(action).outcome
            #expect(outcome == .ok, "\(action)", sourceLocation: sourceLocation)
        }
    }

    func play(_ actions: Action..., sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        play(actions, sourceLocation: sourceLocation)
    }

    /// The answers of the submitted payload.
    var submittedAnswers: [String: JSONValue]? { payload?.objectValue?["answers"]?.objectValue }
}

extension Outcome {
    enum Kind { case ok, rejected, validationFailed, doesNotFit }

    var kind: Kind {
        switch self {
        case .ok: .ok
        case .rejected: .rejected
        case .validationFailed: .validationFailed
        case .doesNotFit: .doesNotFit
        }
    }
}

extension StepResult {
    func has(event name: String) -> Bool { events.contains { $0.name == name } }
}
