import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay report [PATH...] -o DIR`: a static HTML site of the suite, its goldens, each survey's
/// coverage and skip-logic graph, lint, and (with --fuzz) random-walk findings.
enum ReportCommand {
    static let outputOption = OptionSpec.value("-o", "DIR", help: "The folder to write the site into (created if needed).")
    static let htmlOption = OptionSpec.value("--html", "DIR", help: "Also write the HTML report (as 'survey-replay report' does) into DIR.")

    static let spec = CommandSpec(
        name: "report",
        summary: "Write an HTML report: scenarios against their goldens, coverage, skip-logic graphs, lint, fuzz findings.",
        operands: [.init("PATH", help: "Scenario files or folders, survey files, or folders of surveys (default: the scenarios folder).", optional: true, repeated: true)],
        options: [
            outputOption,
            .value("--title", "TEXT", help: "The report's title (default: SurveyReplay report)."),
            .value("--walks", "N", help: "Add N random walks on every survey to its coverage (default 0)."),
            .value("--fuzz", "N", help: "Fuzz every survey with N walks and add a page of the findings (default 0: none)."),
            .value("--seed", "S", help: "Seed of the walks (default 1)."),
            .value("--max-steps", "K", help: "Steps per walk at most (default 100)."),
            .value("--today", "DATE", help: "The walks' clock as yyyy-MM-dd (default 2026-01-01)."),
            .value("--scenarios", "DIR", help: "The scenarios folder (default: Scenarios)."),
            .value("--snapshots", "DIR", help: "The goldens folder that mirrors it (default: Snapshots)."),
        ] + WalkOptions.engineOptions,
        discussion: """
            The site is self-contained: HTML with inline CSS and SVG, no scripts needed to read it, nothing loaded
            from the network, the same bytes for the same input. Open DIR/index.html from disk, or publish DIR as a
            CI artifact. Pages:
              index.html         every scenario with its status (passed, failed, pending .snap.new, no golden,
                                 stale, could not run), obsolete goldens, every survey with coverage and lint
              scenarios/*.html   the session step by step as a respondent sees it; golden and run side by side
                                 for a failure, the first divergence marked
              surveys/*.html     the questions in order with every branch coloured by coverage and linked to
                                 the scenario that first takes it, MC/DC pairs, the skip-logic graph, lint
              fuzz.html          with --fuzz: findings, their shrunk scenarios as sessions, seeds and tokens
            Goldens are only read, never written. Folders are searched for scenarios and for survey files;
            JSON files no format recognizes are listed, not drawn.

            Exit codes: 0 the report was written (whatever the scenarios' statuses: use 'test --html DIR' to fail
            a build); 2 bad usage, or a path that does not exist.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        guard let output = arguments.value("-o") else { throw UsageError(message: "missing -o DIR: the folder to write the report into", command: "report") }
        guard output != "-" else { throw UsageError(message: "-o needs a folder for the site's pages, not '-' (standard output)", command: "report") }
        let layout = SnapshotLayout(scenariosRoot: arguments.value("--scenarios") ?? "Scenarios", snapshotsRoot: arguments.value("--snapshots") ?? "Snapshots")
        let paths = arguments.operands.isEmpty ? [layout.scenariosRoot] : arguments.operands
        let walks = arguments.value("--walks") == nil ? 0 : try WalkOptions.positive(arguments, "--walks", default: 0, command: "report")
        let fuzzWalks = arguments.value("--fuzz") == nil ? 0 : try WalkOptions.positive(arguments, "--fuzz", default: 0, command: "report")
        var input = try makeInput(paths: paths, layout: layout, invocation: invocation, command: "report", walks: walks)
        input.title = arguments.value("--title") ?? "SurveyReplay report"
        if fuzzWalks > 0 {
            for path in input.surveyFiles {
                guard let survey = try? FormatRegistry.standard.load(InputFiles.read(path)) else { continue }
                input.fuzz.append(try fuzzRun(survey: survey, path: path, walks: fuzzWalks, invocation: invocation, command: "report"))
            }
        }
        return try write(input, to: output, console: invocation.console)
    }

    /// What a report of these paths is made of: the scenarios among them run against their goldens (read
    /// only), and every survey file they name or hold.
    static func makeInput(paths: [String], layout: SnapshotLayout, invocation: Invocation, command: String, walks: Int) throws -> ReportInput {
        let arguments = invocation.arguments
        var missing: [Diagnostic] = []
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            missing.append(Diagnostic(file: path, position: nil, message: "no such file or folder; expected scenario files, survey files or folders of them"))
        }
        if !missing.isEmpty { throw InputError(missing) }
        let scenarioPaths = paths.filter { !$0.hasSuffix(".json") }
        let suite = SuiteRunner(layout: layout, mode: .never, jobs: ProcessInfo.processInfo.activeProcessorCount).run(paths: scenarioPaths)
        var surveyFiles = paths.filter { $0.hasSuffix(".json") }.map(InputFiles.normalize)
        var otherFiles: [Diagnostic] = []
        let (found, _) = ScenarioDiscovery.find(scenarioPaths, extension: "json")
        for file in found where !surveyFiles.contains(file) && (file as NSString).lastPathComponent != LintConfig.fileName {
            do throws(InputError) {
                _ = try FormatRegistry.standard.load(InputFiles.read(file))
                surveyFiles.append(file)
            } catch {
                if error.diagnostics.contains(where: { $0.message.hasPrefix("cannot tell which survey format") }) {
                    otherFiles += error.diagnostics.prefix(1)
                } else {
                    surveyFiles.append(file)
                }
            }
        }
        let settings = try WalkOptions.settings(arguments, today: try WalkOptions.today(arguments, command: command), command: command, for: [])
        return ReportInput(
            title: "SurveyReplay report", suite: suite.reports.isEmpty && suite.obsolete.isEmpty ? nil : suite, surveyFiles: surveyFiles.sorted(),
            otherFiles: otherFiles, walks: walks, seed: try WalkOptions.seed(arguments, command: command),
            maxSteps: try WalkOptions.positive(arguments, "--max-steps", default: 100, command: command), settings: settings)
    }

    /// Fuzzes one survey as `fuzz` does, for the report's fuzz page (with the default settings when the
    /// options given do not fit it).
    static func fuzzRun(survey: any Survey, path: String, walks: Int, invocation: Invocation, command: String) throws -> ReportInput.FuzzRun {
        let arguments = invocation.arguments
        let settings = try WalkOptions.settings(arguments, today: try WalkOptions.today(arguments, command: command), command: command, for: [])
        let fits = survey.problem(with: settings) == nil
        let configuration = Fuzzer.Configuration(
            walks: walks, seed: try WalkOptions.seed(arguments, command: command),
            maxSteps: try WalkOptions.positive(arguments, "--max-steps", default: 100, command: command),
            settings: fits ? settings : SessionSettings(today: settings.today))
        let result = Fuzzer(survey: survey, configuration: configuration).run()
        let contexts = fits ? try WalkOptions.contexts(arguments, command: command) : []
        return FuzzReport(survey: survey, surveyPath: path, configuration: configuration, result: result, strict: false, contexts: contexts).reportRun
    }

    /// Builds and writes the site, and says where it is.
    static func write(_ input: ReportInput, to folder: String, console: Console) throws -> Int32 {
        let site = ReportBuilder().site(input)
        try site.write(to: folder)
        console.out("report: \(folder)/index.html (\(site.pages.count) page\(site.pages.count == 1 ? "" : "s"))\n")
        return ExitCode.success
    }
}
