import SurveyCore
import SurveyHarness

/// The options the commands that walk or write scenarios share, read the same way by all.
enum WalkOptions {
    static func seed(_ arguments: ParsedArguments, command: String) throws -> UInt64 {
        guard let text = arguments.value("--seed") else { return 1 }
        guard let value = UInt64(text) else {
            throw UsageError(message: "--seed needs a whole number from 0 to 2^64-1, not '\(text)'", command: command)
        }
        return value
    }

    /// The clock for walks: fixed by default, so runs never depend on the machine's date.
    static func today(_ arguments: ParsedArguments, command: String) throws -> CalendarDate {
        guard let text = arguments.value("--today") else { return SessionSettings.defaultToday }
        guard let date = CalendarDate(iso: text) else { throw UsageError(message: "--today needs yyyy-MM-dd, not '\(text)'", command: command) }
        return date
    }

    /// `--profile NAME`, `--option NAME=VALUE[,NAME=VALUE…]` and `--context NAME=FILE[,NAME=FILE…]`: which
    /// engine's behaviour to simulate where engines disagree, and what the host app hands it as the survey opens.
    static let engineOptions: [OptionSpec] = [
        .value("--profile", "NAME", help: "The engine profile to simulate, for formats with several (e.g. c3pro)."),
        .value("--option", "NAME=VALUE", help: "Choose between disagreeing engines' readings of a rule; several as A=x,B=y or repeated."),
        .value(
            "--context", "NAME=FILE",
            help: "A launch context the host hands the engine, from a JSON resource file (FHIR SDC: patient=ada.context); several as A=x,B=y or repeated."),
    ]

    /// The session settings of a command: its clock, profile, options and launch contexts (each file read),
    /// checked against each survey.
    static func settings(
        _ arguments: ParsedArguments, today: CalendarDate, command: String, for surveys: [any Survey]
    ) throws -> SessionSettings {
        var options: [String: String] = [:]
        for (name, value) in try pairs(arguments, "--option", valueName: "VALUE", command: command) { options[name] = value }
        var settings = SessionSettings(today: today, profile: arguments.value("--profile"), options: options)
        for context in try contexts(arguments, command: command) {
            settings.launchContext[context.name] = try context.read { reason in
                Diagnostic(file: context.path, position: nil, message: "the file of --context \(context.name)=\(context.path): \(reason)")
            }
        }
        for survey in surveys {
            if let problem = survey.problem(with: settings) { throw UsageError(message: problem, command: command) }
        }
        return settings
    }

    /// The launch context files `--context` names, in the order given (files relative to the current folder):
    /// what the settings read, and what the scenarios a command writes name on their `context` lines.
    static func contexts(_ arguments: ParsedArguments, command: String) throws -> [LaunchContextFile] {
        var contexts: [LaunchContextFile] = []
        for (name, path) in try pairs(arguments, "--context", valueName: "FILE", command: command) {
            if contexts.contains(where: { $0.name == name }) {
                throw UsageError(message: "--context names '\(name)' twice; expected one file for each launch context", command: command)
            }
            contexts.append(LaunchContextFile(name: name, path: path))
        }
        return contexts
    }

    /// ` --context A=x,B=y` for a command line that reads these launch contexts again (empty for none).
    static func contextArgument(_ contexts: [LaunchContextFile]) -> String {
        contexts.isEmpty ? "" : " --context " + contexts.map { "\($0.name)=\($0.path)" }.joined(separator: ",")
    }

    /// The `NAME=VALUE` pairs of an option, from every time it is given, each time one or several separated
    /// by commas.
    private static func pairs(_ arguments: ParsedArguments, _ option: String, valueName: String, command: String) throws -> [(String, String)] {
        try arguments.allValues(option).flatMap { $0.split(separator: ",", omittingEmptySubsequences: true) }.map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError(message: "\(option) needs NAME=\(valueName), not '\(pair)'", command: command)
            }
            return (parts[0], parts[1])
        }
    }

    static func positive(_ arguments: ParsedArguments, _ name: String, default value: Int, command: String) throws -> Int {
        guard let text = arguments.value(name) else { return value }
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "\(name) needs a whole number of at least 1, not '\(text)'", command: command)
        }
        return number
    }
}
