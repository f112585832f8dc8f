import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay lint SURVEY...`: what will break at run time, found without running.
enum LintCommand {
    static let spec = CommandSpec(
        name: "lint",
        summary: "Find what will break at run time in survey files, without running them.",
        operands: [.init("SURVEY", help: "Survey files.", repeated: true)],
        options: [.flag("--json", help: "Print the findings as JSON: rule, severity, file, line, column, pointer, message, hint.")],
        discussion: """
            Each finding has a rule id, a severity (error: the survey cannot work as written or crashes the
            engine; warning: the engine does something the author probably did not mean; note: engine
            behaviour worth knowing where this survey meets it), file:line:col, the JSON pointer, a message and
            a hint. Rules are listed in docs/surveynative.md.

            Exit codes: 0 no errors (warnings and notes allowed); 1 an error was found; 2 bad usage, or a file
            that cannot be read or is malformed (not JSON, or JSON of no survey format).
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        var all: [Diagnostic] = []
        var malformed = false
        for path in invocation.arguments.operands {
            let (format, findings) = FormatRegistry.standard.lint(try InputFiles.read(path))
            // No format recognized it: not JSON, or JSON of no survey format. That is a malformed file
            // (exit 2, as on every command), not a finding about a survey.
            if format == nil { malformed = true }
            all += findings
        }
        let console = invocation.console
        if invocation.arguments.flag("--json") {
            let entries: [JSONValue] = all.map { finding in
                .object([
                    "rule": finding.rule.map(JSONValue.string) ?? .null,
                    "severity": .string(finding.severity.rawValue),
                    "file": finding.file.map(JSONValue.string) ?? .null,
                    "line": finding.position.map { .number(Double($0.line)) } ?? .null,
                    "column": finding.position.map { .number(Double($0.column)) } ?? .null,
                    "pointer": finding.pointer.map(JSONValue.string) ?? .null,
                    "message": .string(finding.message),
                    "hint": finding.hint.map(JSONValue.string) ?? .null,
                ])
            }
            console.out(CanonicalJSON.pretty(.array(entries)) + "\n")
        } else {
            for finding in all {
                let rule = finding.rule.map { " [\($0)]" } ?? ""
                console.out(finding.description.replacingFirstLine { $0 + rule } + "\n")
            }
            func count(_ severity: Diagnostic.Severity, _ name: String) -> String {
                let number = all.filter { $0.severity == severity }.count
                return "\(number) \(name)\(number == 1 ? "" : "s")"
            }
            console.out("\(count(.error, "error")), \(count(.warning, "warning")), \(count(.note, "note"))\n")
        }
        if malformed { return ExitCode.badInput }
        return all.contains { $0.severity == .error } ? ExitCode.failure : ExitCode.success
    }
}

extension String {
    fileprivate func replacingFirstLine(_ change: (String) -> String) -> String {
        guard let end = firstIndex(of: "\n") else { return change(self) }
        return change(String(self[..<end])) + String(self[end...])
    }
}
