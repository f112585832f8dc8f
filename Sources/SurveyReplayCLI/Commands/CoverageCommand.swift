import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay coverage [PATH...]` and `survey-replay coverage merge FILE...`: skip-logic coverage.
enum CoverageCommand {
    static let spec = CommandSpec(
        name: "coverage",
        summary: "Measure which branches of the skip logic scenarios and walks take; merge saved runs.",
        operands: [.init("PATH", help: "Scenario files or folders, survey files (walks only), or 'merge' then coverage JSON files.", optional: true, repeated: true)],
        options: [
            .value("--walks", "N", help: "Add N random walks on every survey (default 0)."),
            .value("--seed", "S", help: "Seed of the walks (default 1)."),
            .value("--max-steps", "K", help: "Steps per walk at most (default 100)."),
            .value("--today", "DATE", help: "The walks' clock as yyyy-MM-dd (default 2026-01-01)."),
            .value("--json", "FILE", help: "Write the coverage as JSON (what 'coverage merge' reads)."),
            .value("--lcov", "FILE", help: "Write an LCOV tracefile of the survey files (genhtml renders them)."),
            .value("--cobertura", "FILE", help: "Write Cobertura XML."),
            .value("--dot", "FILE", help: "Write a Graphviz picture of the skip logic, coloured by coverage."),
            .value("--min", "PERCENT", help: "Fail (exit 1) when branch coverage of any survey is below PERCENT."),
            ReportCommand.htmlOption,
        ] + WalkOptions.engineOptions,
        discussion: """
            A branch is one outcome of one decision point: each show_if true and false, each leaf condition true
            and false (evaluations on an unanswered question are counted apart, as not evaluable), each
            validation passed and failed, each option picked, each question shown and answered, Submit shown
            and submitted. A branch is taken, reached but not taken, never reached, or impossible (proved so
            without running, with the reason; not counted). and/or trees also get MC/DC: for each leaf, a pair of
            evaluations in which only that leaf changed and the decision changed with it.

            Without PATH, the scenarios under Scenarios/. 'coverage merge A.json B.json --json all.json' adds
            runs from sharded CI jobs (the surveys must be where the files say).

            Exit codes: 0 done; 1 coverage below --min; 2 bad usage or an unreadable or malformed file.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let surveys: [(path: String, recorder: CoverageRecorder)]
        var problems: [Diagnostic] = []
        if arguments.operands.first == "merge" {
            if arguments.value("--html") != nil {
                throw UsageError(message: "--html needs the scenarios, not saved counts: run 'survey-replay report PATH... -o DIR'", command: "coverage")
            }
            surveys = try merge(Array(arguments.operands.dropFirst()))
        } else {
            let walks = arguments.value("--walks") == nil ? 0 : try WalkOptions.positive(arguments, "--walks", default: 0, command: "coverage")
            let paths = arguments.operands.isEmpty ? ["Scenarios"] : arguments.operands
            (surveys, problems) = CoverageRun().run(
                paths: paths, walks: walks, seed: try WalkOptions.seed(arguments, command: "coverage"),
                maxSteps: try WalkOptions.positive(arguments, "--max-steps", default: 100, command: "coverage"),
                settings: try WalkOptions.settings(arguments, today: try WalkOptions.today(arguments, command: "coverage"), command: "coverage", for: []))
        }
        if !problems.isEmpty { throw InputError(problems) }
        let console = invocation.console
        let out = invocation.reportWriter(besides: ["--json", "--lcov", "--cobertura", "--dot"].map(arguments.value))
        for (path, recorder) in surveys { out(CoverageTable.text(path: path, recorder) + "\n") }
        if let file = arguments.value("--json") { try invocation.write(CanonicalJSON.pretty(CoverageFile.json(surveys)) + "\n", toFile: file) }
        if let file = arguments.value("--lcov") { try invocation.write(LCOVReport.text(surveys), toFile: file) }
        if let file = arguments.value("--cobertura") { try invocation.write(CoberturaReport.xml(surveys), toFile: file) }
        if let file = arguments.value("--dot") { try invocation.write(CoverageDOT.text(surveys), toFile: file) }
        if let folder = arguments.value("--html") {
            let walks = arguments.value("--walks") == nil ? 0 : try WalkOptions.positive(arguments, "--walks", default: 0, command: "coverage")
            var input = try ReportCommand.makeInput(
                paths: arguments.operands.isEmpty ? ["Scenarios"] : arguments.operands, layout: SnapshotLayout(), invocation: invocation, command: "coverage", walks: walks)
            input.title = "Skip-logic coverage"
            _ = try ReportCommand.write(input, to: folder, console: console)
        }
        if let text = arguments.value("--min") {
            guard let minimum = Double(text), (0...100).contains(minimum) else {
                throw UsageError(message: "--min needs a percentage from 0 to 100, not '\(text)'", command: "coverage")
            }
            let below = surveys.filter { CoverageReport($0.recorder).percent < minimum }
            for (path, recorder) in below {
                console.error("\(path): branch coverage \(CoverageTable.format(CoverageReport(recorder).percent))% is below --min \(text)%\n")
            }
            if !below.isEmpty { return ExitCode.failure }
        }
        return ExitCode.success
    }

    /// Adds the counts of saved coverage files, survey by survey. Every refusal is located in the coverage
    /// file: a survey it names that cannot be loaded, counts of a survey that changed since, counts that add
    /// up past the largest a coverage file holds.
    private static func merge(_ files: [String]) throws -> [(path: String, recorder: CoverageRecorder)] {
        guard !files.isEmpty else { throw UsageError(message: "coverage merge needs coverage JSON files", command: "coverage") }
        var merged: [(path: String, recorder: CoverageRecorder)] = []
        for file in files {
            for entry in try CoverageFile.read(InputFiles.read(file)) {
                let recorder: CoverageRecorder
                if let known = merged.first(where: { $0.path == entry.path }) {
                    recorder = known.recorder
                } else {
                    let survey: any Survey
                    do {
                        survey = try FormatRegistry.standard.load(InputFiles.read(entry.path))
                    } catch {
                        let located = entry.survey.error("the survey this coverage was counted on cannot be loaded; expected \(entry.path) where the file says (paths are relative to the folder coverage merge runs in)")
                        throw InputError(located.diagnostics + error.diagnostics)
                    }
                    recorder = CoverageRecorder(plan: survey.coveragePlan())
                    merged.append((entry.path, recorder))
                }
                if recorder.merge(try CoverageFile.counts(entry, plan: recorder.plan)) {
                    throw entry.counts.error(
                        "adding these counts passes \(CoverageCounts.maximum), the largest count a coverage file holds; expected counts that add up to less")
                }
            }
        }
        return merged
    }
}
