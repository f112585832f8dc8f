import SurveyCore

/// The spelling of scenario statements, shared by the parser and the printer so they cannot drift apart.
enum ScenarioSyntax {
    static let actionVerbs = ["answer", "clear", "next", "back", "goto", "submit", "custom"]
    static let headerVerbs = ["survey", "today"]
    static let expectations = ["visible", "hidden", "current", "answer", "payload", "submittable"]
    static var allVerbs: [String] { headerVerbs + actionVerbs + ["expect"] }

    /// The keyword `expect current none` uses for "no current question"; an id spelt so must be quoted.
    static let noneKeyword = "none"

    /// Ids are written bare unless they would read as something else (spaces, `#`, quotes, JSON brackets,
    /// the `none` keyword); then they are JSON strings.
    static func id(_ id: String) -> String {
        let needsQuotes = id.isEmpty || id == noneKeyword
            || id.unicodeScalars.contains { scalar in
                scalar.properties.isWhitespace || scalar.value < 0x20 || "\"#[]{}".unicodeScalars.contains(scalar)
            }
        return needsQuotes ? CanonicalJSON.quote(id) : id
    }

    static func text(of action: Action) -> String {
        switch action {
        case .answer(let question, let value): "answer \(id(question)) \(CanonicalJSON.compact(value))"
        case .clear(let question): "clear \(id(question))"
        case .next(let question?): "next \(id(question))"
        case .next(nil): "next"
        case .back: "back"
        case .goto(let question): "goto \(id(question))"
        case .submit: "submit"
        case .hostCondition(let key, let outcome): "custom \(id(key)) \(outcome)"
        }
    }

    static func text(of expectation: Scenario.Expectation) -> String {
        switch expectation {
        case .visible(let ids): "expect visible " + ids.map(id).joined(separator: " ")
        case .hidden(let ids): "expect hidden " + ids.map(id).joined(separator: " ")
        case .current(let question?): "expect current \(id(question))"
        case .current(nil): "expect current \(noneKeyword)"
        case .answer(let question, let value): "expect answer \(id(question)) \(CanonicalJSON.compact(value))"
        case .payload(let value): "expect payload \(CanonicalJSON.compact(value))"
        case .submittable(let flag): "expect submittable \(flag)"
        }
    }

    static func text(of statement: Scenario.Statement) -> String {
        switch statement {
        case .survey(let path): "survey \(id(path))"
        case .today(let date): "today \(date)"
        case .action(let action): text(of: action)
        case .expect(let expectation): text(of: expectation)
        }
    }
}
