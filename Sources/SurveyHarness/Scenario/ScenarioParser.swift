import SurveyCore

/// Reads scenario files. Every problem is reported at its `file:line:column` with what was expected;
/// all bad lines of a file are reported together (the first hundred of them).
public enum ScenarioParser {
    /// Bad lines reported from one file: past them the file is probably not a scenario at all.
    static let reportedProblems = 100

    public static func parse(_ file: SourceFile, limits: InputLimits = .standard) throws(InputError) -> Scenario {
        var lines: [Scenario.Line] = []
        var problems: [Diagnostic] = []
        var start = 0
        var number = 1
        let bytes = file.bytes
        while start < bytes.count {
            if number > limits.scenarioLines || problems.count >= reportedProblems {
                let message = problems.count >= reportedProblems
                    ? "stopped after \(reportedProblems) errors; expected a scenario file (one statement a line)"
                    : "more than \(limits.scenarioLines) lines; expected at most that many in one scenario (the harness's limit)"
                problems.append(Diagnostic(file: file.path, position: file.position(of: start), message: message))
                break
            }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var reader = LineReader(file: file, bytes: Array(bytes[start..<end]), base: start)
            do throws(LineError) {
                lines.append(try reader.readLine(number: number))
            } catch {
                problems.append(Diagnostic(file: file.path, position: file.position(of: start + error.offset), message: error.message))
            }
            start = end + 1
            number += 1
        }
        problems += checkHeader(lines, file: file)
        if !problems.isEmpty { throw InputError(problems) }
        return Scenario(path: file.path, lines: lines)
    }

    /// `survey` exactly once, and `survey`, `today`, `profile` and `option` before the first action or
    /// expectation.
    private static func checkHeader(_ lines: [Scenario.Line], file: SourceFile) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var sawSurvey = false
        var sawToday = false
        var sawBody = false
        func problem(_ line: Scenario.Line, _ message: String) {
            problems.append(Diagnostic(file: file.path, position: SourcePosition(line: line.number, column: 1), message: message))
        }
        for line in lines {
            switch line.statement {
            case .survey?:
                if sawSurvey { problem(line, "a second 'survey' line; expected one per scenario") }
                if sawBody { problem(line, "'survey' after the first action; expected it at the top") }
                sawSurvey = true
            case .today?:
                if sawToday { problem(line, "a second 'today' line; expected at most one") }
                if sawBody { problem(line, "'today' after the first action; expected it at the top, before any action") }
                sawToday = true
            case .profile?, .option?, .context?, .check?:
                if sawBody { problem(line, "'\(ScenarioSyntax.text(of: line.statement!).split(separator: " ")[0])' after the first action; expected it at the top, before any action") }
            case .action?, .expect?:
                sawBody = true
            case nil:
                break
            }
        }
        if !sawSurvey {
            problems.append(
                Diagnostic(
                    file: file.path, position: SourcePosition(line: 1, column: 1),
                    message: "no 'survey' line; expected 'survey PATH' naming the survey file (relative to this scenario)"))
        }
        return problems
    }
}

private struct LineError: Error {
    let offset: Int
    let message: String
}

/// One line's bytes and a read position; `base` maps offsets back into the file.
private struct LineReader {
    let file: SourceFile
    let bytes: [UInt8]
    let base: Int
    var index = 0

    init(file: SourceFile, bytes: [UInt8], base: Int) {
        self.file = file
        self.base = base
        // A Windows line ending is not part of the line.
        self.bytes = bytes.last == UInt8(ascii: "\r") ? Array(bytes.dropLast()) : bytes
    }

    mutating func readLine(number: Int) throws(LineError) -> Scenario.Line {
        if let invalid = SourceFile.firstInvalidUTF8(bytes[...]) {
            throw LineError(offset: invalid, message: "invalid UTF-8; expected UTF-8 text")
        }
        skipSpaces()
        if atEnd { return Scenario.Line(nil, number: number) }
        if bytes[index] == UInt8(ascii: "#") {
            return Scenario.Line(nil, comment: rest(from: index + 1), number: number)
        }
        let verbStart = index
        let verb = readBare()
        let statement = try readStatement(verb, at: verbStart)
        skipSpaces()
        var comment: String?
        if !atEnd {
            guard bytes[index] == UInt8(ascii: "#") else {
                throw LineError(offset: index, message: "unexpected \(describeCurrent()) after the statement; expected the end of the line or a '# comment'")
            }
            comment = rest(from: index + 1)
        }
        return Scenario.Line(statement, comment: comment, number: number)
    }

    private mutating func readStatement(_ verb: String, at verbStart: Int) throws(LineError) -> Scenario.Statement {
        switch verb {
        case "survey":
            skipSpaces()
            let start = index
            let path = try readID("the survey file's path")
            guard !path.isEmpty else {
                throw LineError(offset: start, message: "an empty survey path; expected the survey file's path, relative to this scenario")
            }
            return .survey(path)
        case "today":
            let start = index
            let text = try readID("a date as yyyy-MM-dd")
            guard let date = CalendarDate(iso: text) else {
                throw LineError(offset: start, message: "'\(text)' is not a date; expected yyyy-MM-dd, e.g. 2026-11-22")
            }
            return .today(date)
        case "answer":
            let question = try readID("a question id")
            return .action(.answer(question: question, value: try readValue("the answer as JSON, e.g. \"Yes\" or [\"Pop\"]")))
        case "clear": return .action(.clear(question: try readID("a question id")))
        case "next": return .action(.next(question: try readOptionalID()))
        case "back": return .action(.back)
        case "goto": return .action(.goto(question: try readID("a question id")))
        case "submit": return .action(.submit)
        case "custom":
            let key = try readID("a custom condition's extra.id")
            return .action(.hostCondition(key: key, outcome: try readBool()))
        case "profile": return .profile(try readID("an engine profile, e.g. c3pro"))
        case "option":
            let name = try readID("an option name")
            return .option(name: name, value: try readID("the option's value"))
        case "context":
            let name = try readID("a launch context's name, e.g. patient")
            skipSpaces()
            let start = index
            let path = try readID("the resource's JSON file, relative to this scenario")
            guard !path.isEmpty else { throw LineError(offset: start, message: "an empty path; expected the resource's JSON file, relative to this scenario") }
            return .context(name: name, path: path)
        case "add": return .action(.add(group: try readID("a repeating group's id")))
        case "remove": return .action(.remove(instance: try readID("a group instance as \"GROUP#N\"")))
        case "skip": return .action(.skip(question: try readOptionalID()))
        case "launch": return .action(.app(.launch))
        case "foreground": return .action(.app(.foreground))
        case "wait":
            skipSpaces()
            let start = index
            let text = readBare()
            guard let seconds = ScenarioSyntax.seconds(of: text) else {
                throw LineError(
                    offset: start,
                    message: text.isEmpty ? "expected a duration such as 3d, 12h, 30m or 1d12h here" : "'\(text)' is not a duration; expected numbers with units d, h, m, s in that order, e.g. 3d or 1d12h")
            }
            return .action(.app(.wait(seconds: seconds)))
        case "consent":
            skipSpaces()
            let start = index
            let word = readBare()
            guard let choice = AppEvent.Consent(rawValue: word) else {
                let choices = AppEvent.Consent.allCases.map(\.rawValue)
                throw LineError(offset: start, message: "'\(word)' is not a consent choice; expected accept, later or never\(Spelling.suggestion(for: word, in: choices))")
            }
            return .action(.app(.consent(choice)))
        case "quit": return .action(.app(.quit))
        case "resume": return .action(.app(.resume))
        case "expect": return .expect(try readExpectation())
        case "check": return .check(try readCheck())
        default:
            let suggestion = Spelling.suggestion(for: verb, in: ScenarioSyntax.allVerbs)
            throw LineError(
                offset: verbStart,
                message: "unknown verb '\(verb)'\(suggestion); expected one of \(ScenarioSyntax.allVerbs.joined(separator: ", "))")
        }
    }

    private mutating func readExpectation() throws(LineError) -> Scenario.Expectation {
        skipSpaces()
        let start = index
        let kind = readBare()
        switch kind {
        case "visible": return .visible(try readIDList())
        case "hidden": return .hidden(try readIDList())
        case "current":
            skipSpaces()
            let isKeyword = !atEnd && bytes[index] != UInt8(ascii: "\"")
            let question = try readID("a question id or 'none'")
            return .current(isKeyword && question == ScenarioSyntax.noneKeyword ? nil : question)
        case "answer":
            let question = try readID("a question id")
            return .answer(question, try readValue("the expected answer as JSON (null for unanswered)"))
        case "payload": return .payload(try readValue("the expected payload as JSON (null for none)"))
        case "submittable": return .submittable(try readBool())
        default:
            let suggestion = Spelling.suggestion(for: kind, in: ScenarioSyntax.expectations)
            throw LineError(
                offset: start,
                message: "unknown expectation '\(kind)'\(suggestion); expected one of \(ScenarioSyntax.expectations.joined(separator: ", "))")
        }
    }

    /// `check ID` (a built-in property) or `check ASSERTION` (the rest of the line, read against the survey
    /// when the scenario runs).
    private mutating func readCheck() throws(LineError) -> Scenario.Check {
        skipSpaces()
        let start = index
        let word = readBare()
        if ScenarioSyntax.assertionWords.contains(word) {
            let text = rest(from: start)
            index = bytes.count
            return .assertion(String(text.reversed().drop { $0 == " " || $0 == "\t" }.reversed()))
        }
        let isID = !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        guard isID else {
            throw LineError(
                offset: start,
                message: "\(word.isEmpty ? "nothing" : "'\(word)'") after 'check'; expected a built-in property id as fuzz prints it (e.g. hidden-answer-submitted) or an assertion: whenever …, always …, payload never contains …")
        }
        return .builtIn(word)
    }

    // MARK: tokens

    private var atEnd: Bool { index >= bytes.count }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private mutating func readBare() -> String {
        let start = index
        while index < bytes.count, !isSpace(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func rest(from start: Int) -> String {
        String(decoding: bytes[min(start, bytes.count)...], as: UTF8.self)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of line" }
        let end = bytes[index...].firstIndex(where: isSpace) ?? bytes.count
        return "'\(String(decoding: bytes[index..<end], as: UTF8.self))'"
    }

    /// An id: a bare word, or a JSON string when it has spaces, `#` or quotes.
    private mutating func readID(_ expected: String) throws(LineError) -> String {
        skipSpaces()
        guard !atEnd, bytes[index] != UInt8(ascii: "#") else {
            throw LineError(offset: index, message: "expected \(expected) here")
        }
        if bytes[index] == UInt8(ascii: "\"") {
            let start = index
            let value = try readValue(expected)
            guard case .string(let text) = value else {
                throw LineError(offset: start, message: "expected \(expected) here")
            }
            return text
        }
        let start = index
        let word = readBare()
        if let bad = word.unicodeScalars.first(where: { "[]{}\"".unicodeScalars.contains($0) }) {
            throw LineError(offset: start, message: "'\(word)' contains '\(bad)'; expected \(expected), written as a JSON string if it has such characters")
        }
        return word
    }

    private mutating func readOptionalID() throws(LineError) -> String? {
        skipSpaces()
        if atEnd || bytes[index] == UInt8(ascii: "#") { return nil }
        return try readID("a question id")
    }

    private mutating func readIDList() throws(LineError) -> [String] {
        var ids = [try readID("at least one question id")]
        while let next = try readOptionalID() { ids.append(next) }
        return ids
    }

    private mutating func readBool() throws(LineError) -> Bool {
        skipSpaces()
        let start = index
        switch readBare() {
        case "true": return true
        case "false": return false
        case let word:
            throw LineError(offset: start, message: word.isEmpty ? "expected true or false here" : "'\(word)' is not true or false; expected true or false")
        }
    }

    /// A JSON value on the rest of the line.
    private mutating func readValue(_ expected: String) throws(LineError) -> JSONValue {
        skipSpaces()
        guard !atEnd, bytes[index] != UInt8(ascii: "#") else {
            throw LineError(offset: index, message: "expected \(expected) here")
        }
        switch JSONParser.parsePrefix(bytes, from: index) {
        case .success(let parsed):
            index = parsed.end
            if !atEnd, !isSpace(bytes[index]) {
                throw LineError(offset: index, message: "unexpected \(describeCurrent()) right after the JSON value; expected a space, '# comment' or the end of the line")
            }
            return parsed.node.plain
        case .failure(let error):
            throw LineError(offset: min(error.offset, bytes.count), message: "\(error.message) (in \(expected))")
        }
    }
}
