import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay lint SURVEY...`: what will break at run time, found without running.
enum LintCommand {
    static let spec = CommandSpec(
        name: "lint",
        summary: "Find what will break at run time in survey files, without running them.",
        operands: [.init("SURVEY", help: "Survey files.", repeated: true)],
        options: [
            .value("--format", "FORMAT", help: "How to print the findings (default text).", choices: ["text", "json", "sarif", "github"]),
            .flag("--json", help: "The same as --format json."),
            .value("--disable", "RULE", help: "Do not report this rule (repeat, or separate with commas)."),
            .value("--severity", "LEVEL", help: "The least severe findings shown: error, warning or note (default note: all).", choices: ["error", "warning", "note"]),
            .value("--config", "FILE", help: "The lint settings to use (default: the nearest \(LintConfig.fileName) beside or above each survey)."),
        ],
        discussion: """
            Each finding has a rule id, a severity (error: the survey cannot work as written or crashes the
            engine; warning: the engine does something the author probably did not mean; note: engine
            behaviour worth knowing where this survey meets it), file:line:col, the JSON pointer, a message and
            a hint. Rules are listed in docs/<format>.md under "Lint rules".

            Formats: text (file:line:col: severity: message [rule]); json (rule, severity, file, line, column,
            pointer, message, hint); sarif (SARIF 2.1.0 with every reported rule's description and help, for
            code-scanning dashboards); github (::error file=…,line=…,col=…::message workflow commands, which
            GitHub Actions shows as annotations on the changed files).

            Settings per suite: a \(LintConfig.fileName) in a survey's folder or a folder above applies to it:
              {"severity": "warning", "disable": ["sn-hidden-answer-submitted"],
               "surveys": {"checkin.json": {"disable": ["sn-forward-reference"]}}}
            Survey paths in it are relative to its folder. Rules disabled there or with --disable are not
            reported; --severity overrides the file's.

            Exit codes: 0 no errors shown (warnings and notes allowed); 1 an error was found; 2 bad usage, a
            malformed lint config, or a file that cannot be read or is malformed (not JSON, or JSON of no
            survey format).
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let registry = FormatRegistry.standard
        let rules = registry.lintRules
        var commandLine = LintConfig(minimum: arguments.value("--severity").flatMap(Diagnostic.Severity.init(rawValue:)))
        for id in arguments.allValues("--disable").flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard rules[id] != nil else {
                throw UsageError(message: "--disable: no lint rule '\(id)'\(Spelling.suggestion(for: id, in: Array(rules.keys)))", command: "lint")
            }
            commandLine.disabled.insert(id)
        }
        let explicit = try arguments.value("--config").map { path throws(InputError) in try LintConfig.read(InputFiles.read(path), rules: Set(rules.keys)) }
        var configs: [String: LintConfig] = [:]
        var all: [Diagnostic] = []
        var malformed = false
        for path in arguments.operands {
            let file = try InputFiles.read(path)
            var config = explicit ?? LintConfig()
            if explicit == nil, let found = LintConfig.find(for: path) {
                if configs[found] == nil { configs[found] = try LintConfig.read(InputFiles.read(found), rules: Set(rules.keys)) }
                config = configs[found]!
            }
            let settings = config.applying(to: path, commandLine: commandLine)
            let (format, findings) = registry.lint(file)
            // No format recognized it: not JSON, or JSON of no survey format. That is a malformed file
            // (exit 2, as on every command), not a finding about a survey, and it is always shown.
            if format == nil {
                malformed = true
                all += findings
            } else {
                all += findings.filter(settings.shows)
            }
        }
        let console = invocation.console
        switch arguments.flag("--json") ? "json" : arguments.value("--format") ?? "text" {
        case "json":
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
        case "sarif":
            console.out(CanonicalJSON.pretty(SARIFLog.json(all, rules: rules)) + "\n")
        case "github":
            console.out(GitHubAnnotations.text(all))
        default:
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
