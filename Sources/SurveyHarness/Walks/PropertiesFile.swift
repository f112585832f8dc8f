import SurveyCore

/// An author's properties: assertions, in the survey's own condition language, checked after every step
/// of every walk. One assertion a line; a comment line just above names it.
///
/// ```
/// # No concert question for people who do not like music.
/// whenever {"id":"like_music","operation":"equals","value":"No"} then hidden go_to_concerts
/// whenever {"id":"age","operation":"less than","value":"18"} then visible guardian
/// whenever {"operation":"custom","ids":["age"],"extra":{"id":"adult"}} then submittable false
/// always {"id":"consent","operation":"not equals","value":"No"}
/// payload never contains music_types unless {"id":"like_music","operation":"equals","value":"Yes"}
/// ```
public struct PropertiesFile: Sendable {
    public struct Property: Sendable {
        public let name: String
        public let line: Int
        /// The assertion as written (what a scenario's `check` line carries).
        public let text: String
        public let assertion: Assertion
    }

    public enum Assertion: Sendable {
        case whenever(any SessionPredicate, then: Consequence)
        case always(any SessionPredicate)
        case payloadNeverContains(String, unless: (any SessionPredicate)?)
    }

    public enum Consequence: Sendable {
        case visible([String])
        case hidden([String])
        case submittable(Bool)
    }

    public let path: String
    public let properties: [Property]

    public static func parse(_ file: SourceFile, survey: any Survey) throws(InputError) -> PropertiesFile {
        var properties: [Property] = []
        var problems: [Diagnostic] = []
        var lastComment: String?
        let known = Set(survey.questionIDs)
        for number in 1...file.lineCount {
            let start = file.offset(ofLine: number)
            let end = number < file.lineCount ? file.offset(ofLine: number + 1) : file.bytes.count
            if let invalid = SourceFile.firstInvalidUTF8(file.bytes[start..<end]) {
                problems.append(Diagnostic(file: file.path, position: file.position(of: start + invalid), message: "invalid UTF-8; expected UTF-8 text"))
                lastComment = nil
                continue
            }
            let text = file.line(number)
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty {
                lastComment = nil
                continue
            }
            if trimmed.hasPrefix("#") {
                lastComment = String(trimmed.dropFirst().drop { $0 == " " })
                continue
            }
            var reader = PropertyLineReader(file: file, line: number, known: known, survey: survey)
            do throws(InputError) {
                let assertion = try reader.readAssertion()
                properties.append(
                    Property(
                        name: lastComment ?? "\(file.path):\(number)", line: number,
                        text: String(String(trimmed).reversed().drop { $0 == " " || $0 == "\t" }.reversed()), assertion: assertion))
            } catch {
                problems += error.diagnostics
            }
            lastComment = nil
        }
        if !problems.isEmpty { throw InputError(problems) }
        return PropertiesFile(path: file.path, properties: properties)
    }

    /// Checks every property against the session after a step; `payload` is the submitted answers, if any.
    public func violations(in session: any SurveySession, payloadQuestions: Set<String>?) -> [Finding] {
        var findings: [Finding] = []
        for property in properties {
            switch property.assertion {
            case .whenever(let condition, let consequence):
                guard condition.holds(in: session) else { continue }
                switch consequence {
                case .visible(let ids):
                    let visible = Set(session.visibleQuestions)
                    for id in ids where !visible.contains(id) {
                        findings.append(Finding(.property, property.name, "the condition holds but '\(id)' is not visible", question: id))
                    }
                case .hidden(let ids):
                    let visible = Set(session.visibleQuestions)
                    for id in ids where visible.contains(id) {
                        findings.append(Finding(.property, property.name, "the condition holds but '\(id)' is visible", question: id))
                    }
                case .submittable(let expected):
                    if session.isSubmittable != expected {
                        findings.append(Finding(.property, property.name, "the condition holds but Submit is \(expected ? "not shown" : "shown")"))
                    }
                }
            case .always(let condition):
                if !condition.holds(in: session) {
                    findings.append(Finding(.property, property.name, "the condition does not hold"))
                }
            case .payloadNeverContains(let id, let unless):
                guard let payloadQuestions, payloadQuestions.contains(id) else { continue }
                if let unless, unless.holds(in: session) { continue }
                findings.append(Finding(.property, property.name, "the payload contains '\(id)'", question: id))
            }
        }
        return findings
    }
}

/// Reads one assertion line; errors point at the word or JSON that is wrong.
private struct PropertyLineReader {
    let file: SourceFile
    let line: Int
    let known: Set<String>
    let survey: any Survey
    private let bytes: [UInt8]
    private let base: Int
    private var index = 0

    init(file: SourceFile, line: Int, known: Set<String>, survey: any Survey) {
        self.file = file
        self.line = line
        self.known = known
        self.survey = survey
        self.bytes = Array(file.line(line).utf8)
        self.base = file.offset(ofLine: line)
    }

    private func error(_ message: String, at offset: Int? = nil) -> InputError {
        InputError(Diagnostic(file: file.path, position: SourcePosition(line: line, column: (offset ?? index) + 1), message: message))
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    }

    private mutating func word() -> (String, Int) {
        skipSpaces()
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") { index += 1 }
        return (String(decoding: bytes[start..<index], as: UTF8.self), start)
    }

    private mutating func expect(_ expected: String) throws(InputError) {
        let (found, start) = word()
        guard found == expected else {
            throw error(found.isEmpty ? "expected '\(expected)' here" : "'\(found)' where '\(expected)' was expected", at: start)
        }
    }

    private mutating func condition() throws(InputError) -> any SessionPredicate {
        skipSpaces()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw error("expected a condition here, written as the survey writes its conditions (a JSON object)")
        }
        switch JSONParser.parsePrefix(file, from: base + index) {
        case .success(let parsed):
            // One assertion a line: a condition that runs past the line's end is not read into the next.
            guard parsed.end - base <= bytes.count else {
                throw error("the condition runs past the end of the line; expected the whole assertion on one line")
            }
            index = parsed.end - base
            return try survey.compileCondition(JSONCursor(node: parsed.node))
        case .failure(let failure):
            throw InputError(Diagnostic(file: file.path, position: file.position(of: failure.offset), message: failure.message))
        }
    }

    private mutating func ids() throws(InputError) -> [String] {
        var result: [String] = []
        while true {
            let (id, start) = word()
            if id.isEmpty || id.hasPrefix("#") { break }
            guard known.contains(id) else {
                throw error("the survey has no question '\(id)'\(Spelling.suggestion(for: id, in: known.sorted()))", at: start)
            }
            result.append(id)
        }
        guard !result.isEmpty else { throw error("expected at least one question id here") }
        return result
    }

    private mutating func end() throws(InputError) {
        skipSpaces()
        if index < bytes.count, bytes[index] != UInt8(ascii: "#") {
            throw error("unexpected text after the assertion; expected the end of the line")
        }
    }

    mutating func readAssertion() throws(InputError) -> PropertiesFile.Assertion {
        let (keyword, start) = word()
        switch keyword {
        case "whenever":
            let condition = try condition()
            try expect("then")
            let (kind, kindStart) = word()
            let consequence: PropertiesFile.Consequence
            switch kind {
            case "visible": consequence = .visible(try ids())
            case "hidden": consequence = .hidden(try ids())
            case "submittable":
                let (flag, flagStart) = word()
                guard let value = Bool(flag) else { throw error("expected true or false", at: flagStart) }
                consequence = .submittable(value)
                try end()
            default:
                throw error("'\(kind)' is not a consequence; expected visible, hidden or submittable", at: kindStart)
            }
            return .whenever(condition, then: consequence)
        case "always":
            let condition = try condition()
            try end()
            return .always(condition)
        case "payload":
            try expect("never")
            try expect("contains")
            let (id, idStart) = word()
            guard known.contains(id) else {
                throw error("the survey has no question '\(id)'\(Spelling.suggestion(for: id, in: known.sorted()))", at: idStart)
            }
            skipSpaces()
            if index >= bytes.count || bytes[index] == UInt8(ascii: "#") { return .payloadNeverContains(id, unless: nil) }
            try expect("unless")
            let condition = try condition()
            try end()
            return .payloadNeverContains(id, unless: condition)
        default:
            let suggestion = Spelling.suggestion(for: keyword, in: ["whenever", "always", "payload"])
            throw error("unknown assertion '\(keyword)'\(suggestion); expected 'whenever', 'always' or 'payload never contains'", at: start)
        }
    }
}
