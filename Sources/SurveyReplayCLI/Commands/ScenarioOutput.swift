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

    /// The `-o FILE` given, or nil for standard output (no `-o`, `-o -`, or a name of it such as /dev/stdout).
    static func outputFile(_ invocation: Invocation) -> String? {
        invocation.arguments.value("-o").flatMap { $0 == "-" || AtomicFile.descriptor(named: $0) == STDOUT_FILENO ? nil : $0 }
    }

    /// Writes the scenario for `actions` to `-o FILE` (atomically) or standard output. The survey path in it,
    /// and those of its launch context files, are relative to the folder the scenario is written to, as a
    /// scenario reads them: that of `-o FILE`, or of the file standard output is redirected to (`>
    /// Scenarios/x/new.scenario`). Into a pipe they stay as given, with a note saying so.
    static func write(
        _ actions: [Action], surveyPath: String, settings: SessionSettings, contexts: [LaunchContextFile], header: [String], invocation: Invocation
    ) throws {
        let output = outputFile(invocation)
        let home = output ?? invocation.console.outputFile
        let surveyReference: String
        if let home {
            surveyReference = InputFiles.relativePath(of: surveyPath, fromFolder: InputFiles.folder(of: home))
        } else {
            surveyReference = surveyPath
            if !surveyPath.hasPrefix("/"), !invocation.console.isTerminal {
                invocation.console.error(
                    "note: the scenario's survey line is '\(surveyPath)', relative to the current folder; a scenario reads it relative to its own folder, so write it with -o FILE (or redirect into the file) to have the path made for where it is saved\n")
            }
        }
        let scenario = Scenario.make(
            path: output ?? "-", surveyPath: surveyReference, settings: settings, contexts: contexts.map { $0.named(fromScenarioAt: home) }, header: header,
            actions: actions)
        if let output {
            try AtomicFile.write(scenario.text, to: output)
        } else {
            invocation.console.out(scenario.text)
        }
    }
}
