import SurveyCore

/// The options `fuzz` and `compare` share, read the same way by both.
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

    static func positive(_ arguments: ParsedArguments, _ name: String, default value: Int, command: String) throws -> Int {
        guard let text = arguments.value(name) else { return value }
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "\(name) needs a whole number of at least 1, not '\(text)'", command: command)
        }
        return number
    }
}
