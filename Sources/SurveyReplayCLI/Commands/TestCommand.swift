import Foundation
import SurveyCore
import SurveyHarness

/// `survey-replay test [PATH...]`: the regression suite. Replays every scenario and compares its trace
/// with its golden in Snapshots/.
enum TestCommand {
    static let spec = CommandSpec(
        name: "test",
        summary: "Replay every scenario and compare it with its golden snapshot (the default command).",
        operands: [.init("PATH", help: "Scenario files or folders (default: the scenarios folder).", optional: true, repeated: true, completion: .file(extensions: ["scenario"]))],
        options: [
            .value("--record", "MODE", help: "When to write goldens; default missing, or never when CI is set.", choices: RecordMode.allCases.map(\.rawValue)),
            .value("--jobs", "N", help: "Scenarios to run at once (default: the number of CPUs); output order is fixed."),
            .value("--filter", "TEXT", help: "Only scenarios whose name (folder/name) contains TEXT; none is an error."),
            .value("--junit", "FILE", help: "Also write a JUnit XML report to FILE."),
            ReportCommand.htmlOption,
            .flag("--fail-on-obsolete", help: "Fail when a golden has no scenario (the default when CI is set)."),
            .flag("--allow-obsolete", help: "Only warn about goldens without a scenario, even on CI."),
            .value("--scenarios", "DIR", help: "The scenarios folder (default: Scenarios)."),
            .value("--snapshots", "DIR", help: "The goldens folder that mirrors it (default: Snapshots)."),
        ],
        discussion: """
            Each scenario Scenarios/X.scenario has its golden at Snapshots/X.snap: the trace as text, one block
            per step (action, outcome, what appears and disappears, current, visible), then the payload.

            Record modes (--record, or SURVEY_REPLAY_RECORD; with CI set only --record overrides 'never'):
              missing  write goldens that do not exist; a mismatch fails and writes X.snap.new beside it
              failed   write goldens that are missing or differ
              all      write every golden
              never    write nothing; a missing or different golden fails
            Settle pending .snap.new files with 'survey-replay review --accept' or '--reject'.

            Golden files are read whatever their line endings (a checkout with CRLF still matches) and written
            with LF. A golden left with git conflict markers is an error naming them; only --record all
            replaces it.

            Exit codes: 0 every scenario held; 1 a golden differs or is missing, an expectation or a check
            failed, or (with --fail-on-obsolete) a golden has no scenario; 2 bad usage (a --filter that matches
            no scenario, an unknown record mode in --record or SURVEY_REPLAY_RECORD), a file that is missing or
            malformed (a golden with conflict markers too), or a scenario that is stale (no longer fits its
            survey).
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let console = invocation.console
        let (mode, note): (RecordMode, String?)
        do {
            (mode, note) = try RecordMode.resolve(flag: arguments.value("--record").flatMap(RecordMode.init(rawValue:)), environment: invocation.environment)
        } catch {
            throw UsageError(message: error.message, command: "test")
        }
        if let note { console.error("note: \(note)\n") }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = arguments.value("--jobs") {
            guard let value = Int(text), value >= 1 else { throw UsageError(message: "--jobs needs a whole number of at least 1, not '\(text)'", command: "test") }
            jobs = value
        }
        let isCI = RecordMode.isCI(invocation.environment)
        let failOnObsolete = arguments.flag("--fail-on-obsolete") || (isCI && !arguments.flag("--allow-obsolete"))
        let layout = SnapshotLayout(scenariosRoot: arguments.value("--scenarios") ?? "Scenarios", snapshotsRoot: arguments.value("--snapshots") ?? "Snapshots")
        if arguments.operands.isEmpty, !FileManager.default.fileExists(atPath: layout.scenariosRoot) {
            throw InputError(Diagnostic(file: layout.scenariosRoot, position: nil, message: "no scenarios folder here; expected \(layout.scenariosRoot)/ in the current folder (or pass paths or --scenarios DIR)"))
        }

        let runner = SuiteRunner(layout: layout, mode: mode, jobs: jobs, filter: arguments.value("--filter"))
        let showProgress = console.isTerminal
        var progress: (@Sendable (Int, Int) -> Void)?
        if showProgress {
            progress = { done, total in console.error("\r\u{1B}[K[\(done)/\(total)]") }
        }
        let result = runner.run(paths: arguments.operands, progress: progress)
        if showProgress { console.error("\r\u{1B}[K") }
        if let filter = runner.filter, result.reports.isEmpty, result.problems.isEmpty {
            let names = result.filteredOut
            let hint = Spelling.nearest(to: filter, in: names).map { "; did you mean '\($0)'?" }
                ?? names.first.map { "; expected part of a name such as '\($0)'" } ?? "; there are no scenarios there"
            throw UsageError(message: "--filter '\(filter)' matches none of the \(names.count) scenario\(names.count == 1 ? "" : "s")\(hint)", command: "test")
        }

        let style = Style(color: invocation.usesColor)
        for problem in result.problems { console.error(problem.description + "\n") }
        let out = invocation.reportWriter(besides: [arguments.value("--junit")])
        for report in result.reports { out(describe(report, mode: mode, style: style)) }
        for path in result.obsolete {
            out("\(style.paint(failOnObsolete ? "FAIL" : "warn", failOnObsolete ? .red : .yellow))    obsolete snapshot \(path): no scenario for it\n")
        }
        for path in result.removedTemporaries {
            out("note    removed \(path): a temporary file left by an interrupted run\n")
        }
        out(summary(result, failOnObsolete: failOnObsolete) + "\n")

        if let junit = arguments.value("--junit") {
            try invocation.write(JUnitReport.xml(result, failOnObsolete: failOnObsolete), toFile: junit)
        }
        if let folder = arguments.value("--html") {
            _ = try ReportCommand.write(ReportInput(title: "Scenario suite", suite: result), to: folder, console: console)
        }
        if result.hasInvalidInput { return ExitCode.badInput }
        if result.failedCount > 0 || (failOnObsolete && !result.obsolete.isEmpty) { return ExitCode.failure }
        return ExitCode.success
    }

    private static func describe(_ report: ScenarioReport, mode: RecordMode, style: Style) -> String {
        let name = report.name
        if !report.invalid.isEmpty {
            return "\(style.paint("ERROR", .red))   \(name): \(report.invalid[0].message)\n" + indent(report.invalid.map(\.description).joined(separator: "\n"))
        }
        let fail = style.paint("FAIL", .red)
        let pass = style.paint("ok", .green)
        var text: String
        switch report.golden {
        case .matched?: text = ""
        case .recorded?: text = " (golden recorded: \(report.goldenPath))"
        case .updated(let divergence)?: text = " (golden updated; \(divergence.description))"
        case .mismatched(let divergence, _, _)?: text = ": \(divergence.description)"
        case .missing?: text = ": no golden at \(report.goldenPath), and record mode \(mode.rawValue) writes none"
        case nil: text = ""
        }
        if !report.expectationFailures.isEmpty, report.golden.map({ !isFailure($0) }) ?? true {
            let kinds = Set(report.expectationFailures.map { $0.message.hasPrefix("check ") ? "a check" : "an expectation" }).sorted()
            text += (text.isEmpty ? ": " : "; ") + kinds.joined(separator: " and ") + " failed"
        }
        text = "\(report.passed ? pass : fail)\(report.passed ? "      " : "    ")\(name)\(text)\n"
        if case .mismatched(_, let golden, let pendingWritten)? = report.golden {
            let newName = pendingWritten ? report.goldenPath + ".new" : "this run"
            text += indent(LineDiff.unified(old: golden, new: report.newText ?? "", oldName: report.goldenPath, newName: newName, color: style.color))
            if pendingWritten {
                text += "        pending: \(newName); accept with 'survey-replay review --accept \(newName)'\n"
            } else {
                text += "        nothing written (record mode \(mode.rawValue)); to update: survey-replay test --record failed \(report.scenarioPath)\n"
            }
        }
        text += indent(report.expectationFailures.map(\.description).joined(separator: "\n"))
        return text
    }

    private static func isFailure(_ outcome: GoldenOutcome) -> Bool {
        switch outcome {
        case .matched, .recorded, .updated: false
        case .mismatched, .missing: true
        }
    }

    private static func summary(_ result: SuiteResult, failOnObsolete: Bool) -> String {
        let total = result.reports.count
        let invalid = result.reports.filter { !$0.invalid.isEmpty }.count
        let failed = result.failedCount - invalid
        var parts = ["\(total) scenario\(total == 1 ? "" : "s"): \(total - failed - invalid) passed, \(failed) failed"]
        if invalid > 0 { parts.append("\(invalid) could not run") }
        let recorded = result.reports.filter { $0.golden == .recorded }.count
        let updated = result.reports.filter { if case .updated? = $0.golden { true } else { false } }.count
        if recorded > 0 { parts.append("\(recorded) golden\(recorded == 1 ? "" : "s") recorded") }
        if updated > 0 { parts.append("\(updated) golden\(updated == 1 ? "" : "s") updated") }
        if !result.obsolete.isEmpty { parts.append("\(result.obsolete.count) obsolete snapshot\(result.obsolete.count == 1 ? "" : "s")") }
        return parts.joined(separator: "; ") + " (record mode \(result.mode.rawValue))"
    }

    private static func indent(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.map { "        " + $0 + "\n" }.joined()
    }
}
