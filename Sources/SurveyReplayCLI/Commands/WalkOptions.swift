import SurveyCore

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

    /// `--profile NAME` and `--option NAME=VALUE[,NAME=VALUE…]`: which engine's behaviour to simulate where
    /// engines disagree.
    static let engineOptions: [OptionSpec] = [
        .value("--profile", "NAME", help: "The engine profile to simulate, for formats with several (e.g. c3pro)."),
        .value("--option", "NAME=VALUE", help: "Choose between disagreeing engines' readings of a rule; several as A=x,B=y."),
    ]

    /// The session settings of a command: its clock, profile and options, checked against each survey.
    static func settings(
        _ arguments: ParsedArguments, today: CalendarDate, command: String, for surveys: [any Survey]
    ) throws -> SessionSettings {
        var options: [String: String] = [:]
        for pair in (arguments.value("--option") ?? "").split(separator: ",", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError(message: "--option needs NAME=VALUE, not '\(pair)'", command: command)
            }
            options[parts[0]] = parts[1]
        }
        let settings = SessionSettings(today: today, profile: arguments.value("--profile"), options: options)
        for survey in surveys {
            if let problem = survey.problem(with: settings) { throw UsageError(message: problem, command: command) }
        }
        return settings
    }

    static func positive(_ arguments: ParsedArguments, _ name: String, default value: Int, command: String) throws -> Int {
        guard let text = arguments.value(name) else { return value }
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "\(name) needs a whole number of at least 1, not '\(text)'", command: command)
        }
        return number
    }
}
