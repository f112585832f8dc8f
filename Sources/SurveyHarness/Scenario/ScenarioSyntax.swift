import SurveyCore

/// The spelling of scenario statements, shared by the parser and the printer so they cannot drift apart.
enum ScenarioSyntax {
    static let actionVerbs = [
        "answer", "clear", "next", "back", "goto", "submit", "custom", "add", "remove", "skip", "launch", "foreground", "wait", "consent",
        "quit", "resume",
    ]
    static let headerVerbs = ["survey", "today", "profile", "option", "context", "check"]
    /// The words that start an author's assertion, as in a properties file.
    static let assertionWords = ["whenever", "always", "payload"]
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

    /// Text written into a `#` comment (a generated header naming ids, paths and messages), with every
    /// control character escaped as JSON escapes it: a newline in an id must not end the comment and start
    /// a statement (`"x\nsurvey /etc/passwd #"`).
    static func comment(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16).uppercased()
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
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
        case .add(let group): "add \(id(group))"
        case .remove(let instance): "remove \(id(instance))"
        case .skip(let question?): "skip \(id(question))"
        case .skip(nil): "skip"
        case .app(.launch): "launch"
        case .app(.foreground): "foreground"
        case .app(.wait(let seconds)): "wait \(duration(seconds))"
        case .app(.consent(let choice)): "consent \(choice.rawValue)"
        case .app(.quit): "quit"
        case .app(.resume): "resume"
        }
    }

    /// Seconds as days, hours, minutes and seconds: `1d12h`, `90s` is `1m30s`, zero is `0s`.
    static func duration(_ seconds: Int) -> String {
        guard seconds > 0 else { return "0s" }
        var rest = seconds
        var text = ""
        for (unit, size) in durationUnits {
            if rest >= size {
                text += "\(rest / size)\(unit)"
                rest %= size
            }
        }
        return text
    }

    static let durationUnits: [(Character, Int)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]

    /// Reads `1d12h`, `90s`, `15m`: numbers each followed by a unit, the units in that order.
    static func seconds(of text: String) -> Int? {
        var total = 0
        var number = ""
        var lastUnit = -1
        for character in text {
            if character.isASCII, character.isNumber {
                number.append(character)
            } else if let unit = durationUnits.firstIndex(where: { $0.0 == character }), unit > lastUnit, let value = Int(number),
                value <= Int(Int32.max)
            {
                total += value * durationUnits[unit].1
                number = ""
                lastUnit = unit
            } else {
                return nil
            }
        }
        return number.isEmpty && lastUnit >= 0 ? total : nil
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
        case .profile(let name): "profile \(id(name))"
        case .option(let name, let value): "option \(id(name)) \(id(value))"
        case .context(let name, let path): "context \(id(name)) \(id(path))"
        case .action(let action): text(of: action)
        case .expect(let expectation): text(of: expectation)
        case .check(.builtIn(let property)): "check \(property)"
        case .check(.assertion(let text)): "check \(text)"
        }
    }
}
