import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay bench [--json]`: the performance figures, measured in-process on generated surveys and
/// the project's own files. Meant for a release build: `swift run -c release survey-replay bench`.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench",
        summary: "Measure load time, replay and walk speed, scaling with survey size, memory and suite time.",
        options: [
            .flag("--json", help: "Print the figures as JSON (keys documented in the README)."),
            .value("--runs", "N", help: "Repetitions of each figure (default 5); min, median and max are reported."),
            .flag("--quick", help: "Smaller workloads (for a smoke test, not for the figures)."),
            .value("--survey", "SURVEY", help: "The small survey for walk and replay speed (default Scenarios/checkin/checkin.json)."),
            .value("--corpus", "DIR", help: "Survey files whose covering scenarios 'generate' is measured on (default ../shared/corpus)."),
            .value("--only", "PART", help: "Measure one part only (to profile it).", choices: BenchReport.Part.allCases.map(\.rawValue)),
        ],
        discussion: """
            Run it from the project folder in a release build. Synthetic SurveyNative surveys of 100, 1,000,
            10,000 and 100,000 questions are generated in memory (each show_if on one to three earlier
            questions, some and/or trees three deep, some sub-questions and validations). Figures are min,
            median and max over the runs; targets met are marked.

            The generate part runs 'generate' on the team's surveys (under Scenarios/) and on every survey in
            --corpus that loads, and counts the seeded random walks that take as many branches.

            The fhirpath part evaluates a score expression (the sum of nine answers' weights) compiled once,
            and parses, checks and evaluates every expression of the official FHIRPath suite in
            --corpus/fhirpath.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let runs = try WalkOptions.positive(arguments, "--runs", default: 5, command: "bench")
        let quick = arguments.flag("--quick")
        let surveyPath = arguments.value("--survey") ?? "Scenarios/checkin/checkin.json"
        let survey = try FormatRegistry.standard.load(InputFiles.read(surveyPath))
        let parts = arguments.value("--only").flatMap(BenchReport.Part.init(rawValue:)).map { [$0] } ?? BenchReport.Part.allCases
        let report = BenchReport.measure(survey: survey, surveyPath: surveyPath, parts: Set(parts), runs: runs, quick: quick, corpus: arguments.value("--corpus") ?? "../shared/corpus", progress: { step in
            if invocation.console.isTerminal { invocation.console.error("\r\u{1B}[K\(step)…") }
        })
        if invocation.console.isTerminal { invocation.console.error("\r\u{1B}[K") }
        invocation.console.out(arguments.flag("--json") ? CanonicalJSON.pretty(report.json) + "\n" : report.text)
        return ExitCode.success
    }
}
