import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay bench [--json]`: the performance figures of every format, measured in-process on generated
/// surveys, the shared corpus and the project's own files. Meant for a release build:
/// `swift run -c release survey-replay bench`.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench",
        summary: "Measure load time, walk, fuzz and replay speed, scaling with survey size, memory and suite time, per format.",
        options: [
            .flag("--json", help: "Print the figures as JSON (keys documented in the README)."),
            .value("--runs", "N", help: "Repetitions of each figure (default 5); min, median and max are reported."),
            .flag("--quick", help: "Smaller workloads (for a smoke test, not for the figures)."),
            .value("--format", "FORMAT", help: "Measure this format only (with --profile, that profile of it).", choices: FormatRegistry.standard.formats.map(\.name)),
            .value(
                "--survey", "SURVEY",
                help: "The survey replayed, walked first in its format and whose figures are the top-level ones (default the first format's first survey)."),
            .value("--corpus", "DIR", help: "The shared corpus: the surveys each format is measured on, and those 'generate' runs on (default ../shared/corpus)."),
            .value("--only", "PART", help: "Measure one part only (to profile it).", choices: BenchReport.Part.allCases.map(\.rawValue)),
        ] + WalkOptions.engineOptions,
        discussion: """
            Run it from the project folder in a release build. Each format is measured on its surveys (the
            corpus files the targets name first, then the project's own surveys its scenarios run): walk steps
            a second with properties off and on, fuzz --walks 20000 end to end (its ratio to the walk rate
            taken from walk runs alternating with the fuzz runs), memory over 1,000,000 walk steps; and on
            synthetic surveys of 100, 1,000, 10,000 and 100,000 questions (SurveyNative, FHIR R4,
            C3-PRO and SageResearch; an Owlmetry schema holds at most 30), load time and the cost of a walk
            step. Figures are min, median and max over the runs; targets met are marked.

            --format, --profile and --option choose what is measured (the C3-PRO profile: --profile c3pro);
            then only the parts measured per format run (memory, walks, replay, sizes, fuzz) unless --only
            names another. The formats are: surveynative, fhir (with the profiles r4 and c3pro), sage, owlmetry.

            The suite part times 'test' on Scenarios/; the jobs part runs it on 2,000 copied scenarios of
            every format with one job and with two. The generate part runs 'generate' on the team's surveys
            (under Scenarios/) and on every survey in --corpus that loads, and counts the seeded random walks
            that take as many branches. The fhirpath part evaluates a score expression (the sum of nine
            answers' weights) compiled once, and parses, checks and evaluates every expression of the official
            FHIRPath suite in --corpus/fhirpath.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let runs = try WalkOptions.positive(arguments, "--runs", default: 5, command: "bench")
        let quick = arguments.flag("--quick")
        let corpus = arguments.value("--corpus") ?? "../shared/corpus"
        let chosen = arguments.value("--format") != nil || arguments.value("--profile") != nil || arguments.value("--option") != nil
        let project = BenchWorkload.projectSurveys(under: "Scenarios")
        var workloads = try workloads(arguments, corpus: corpus).map { $0.addingProjectSurveys(project) }
        let survey: String
        if let path = arguments.value("--survey") {
            let format = try FormatRegistry.standard.format(of: InputFiles.read(path)).name
            guard let index = workloads.firstIndex(where: { $0.format == format }) else {
                let measured = workloads.map(\.format).joined(separator: ", ")
                throw UsageError(message: "--survey \(path) is a \(format) survey, and the formats measured are \(measured)", command: "bench")
            }
            workloads[index].surveys = [path] + workloads[index].surveys.filter { $0 != path }
            survey = path
        } else {
            survey = workloads[0].surveys[0]
        }
        let parts = arguments.value("--only").flatMap(BenchReport.Part.init(rawValue:)).map { [$0] } ?? (chosen ? BenchReport.Part.perFormat : BenchReport.Part.allCases)
        let report = BenchReport.measure(
            workloads: workloads, survey: survey, parts: Set(parts), runs: runs, quick: quick, corpus: corpus,
            progress: { step in
                if invocation.console.isTerminal { invocation.console.error("\r\u{1B}[K\(step)…") }
            })
        if invocation.console.isTerminal { invocation.console.error("\r\u{1B}[K") }
        invocation.console.out(arguments.flag("--json") ? CanonicalJSON.pretty(report.json) + "\n" : report.text)
        return ExitCode.success
    }

    /// The workloads `--format`, `--profile` and `--option` choose: every standard one without them; else per
    /// format (the one named, or each), the standard workload of that profile, or the format's own under
    /// that profile. A format named outright must accept the profile and options (a usage error says why
    /// not); otherwise the formats whose surveys do not are left out.
    private static func workloads(_ arguments: ParsedArguments, corpus: String) throws -> [BenchWorkload] {
        let standard = BenchWorkload.standard(corpus: corpus)
        let format = arguments.value("--format")
        let chosen = try WalkOptions.settings(arguments, today: SessionSettings.defaultToday, command: "bench", for: [])
        if format == nil, chosen.profile == nil, chosen.options.isEmpty { return standard }
        var workloads: [BenchWorkload] = []
        for name in format.map({ [$0] }) ?? FormatRegistry.standard.formats.map(\.name) {
            let own = standard.first { $0.format == name && $0.settings.profile == chosen.profile }
            guard var workload = own ?? standard.first(where: { $0.format == name && $0.settings.profile == nil }) else { continue }
            workload.settings.profile = chosen.profile ?? workload.settings.profile
            workload.settings.options = chosen.options
            if let main = workload.surveys.first, let survey = try? FormatRegistry.standard.load(InputFiles.read(main)) {
                if format != nil {
                    _ = try WalkOptions.settings(arguments, today: SessionSettings.defaultToday, command: "bench", for: [survey])
                } else if survey.problem(with: workload.settings) != nil {
                    continue
                }
            }
            workloads.append(workload)
        }
        guard !workloads.isEmpty else {
            let asked = ([chosen.profile.map { "profile '\($0)'" }] + chosen.options.sorted { $0.key < $1.key }.map { "option \($0.key)=\($0.value)" }).compactMap { $0 }
            throw UsageError(message: "no format takes \(asked.joined(separator: " and ")); name one with --format to see why", command: "bench")
        }
        return workloads
    }
}
