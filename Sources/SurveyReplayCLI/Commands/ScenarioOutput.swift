import Foundation
import SurveyCore
import SurveyHarness

/// What `record` and `import` share: the clock option, and writing the scenario they make.
enum ScenarioOutput {
    static let todayOption = OptionSpec.value("--today", "DATE", help: "The scenario's clock as yyyy-MM-dd (default: today's date, UTC).")
    static let outputOption = OptionSpec.value("-o", "FILE", help: "Write the scenario to FILE (default: standard output).")

    static func today(_ invocation: Invocation, command: String) throws -> CalendarDate {
        guard let text = invocation.arguments.value("--today") else {
            return CalendarDate(dayNumber: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)))
        }
        guard let date = CalendarDate(iso: text) else {
            throw UsageError(message: "--today needs a date as yyyy-MM-dd, not '\(text)'", command: command)
        }
        return date
    }

    /// Writes the scenario for `actions` to `-o FILE` (atomically) or standard output. The survey path in
    /// it is relative to the scenario's folder.
    static func write(
        _ actions: [Action], surveyPath: String, settings: SessionSettings, header: [String], invocation: Invocation
    ) throws {
        let output = invocation.arguments.value("-o")
        let surveyReference = output.map { InputFiles.relativePath(of: surveyPath, fromFolder: InputFiles.folder(of: $0)) } ?? surveyPath
        let scenario = Scenario.make(path: output ?? "-", surveyPath: surveyReference, settings: settings, header: header, actions: actions)
        if let output {
            try AtomicFile.write(scenario.text, to: output)
        } else {
            invocation.console.out(scenario.text)
        }
    }
}
