import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay fuzz SURVEY`: seeded random walks with properties, shrinking and replay tokens.
enum FuzzCommand {
    static let spec = CommandSpec(
        name: "fuzz",
        summary: "Walk a survey at random, check properties after every step, and shrink what fails.",
        operands: [.init("SURVEY", help: "The survey file.")],
        options: [
            .value("--walks", "N", help: "Number of walks (default 100)."),
            .value("--seed", "S", help: "Seed of the walks (default 1); the same seed gives the same walks everywhere."),
            .value("--max-steps", "K", help: "Steps per walk at most (default 100)."),
            .value("--properties", "FILE", help: "The author's properties to check after every step (see the README).", completion: .file(extensions: ["properties"])),
            .value("--save-failures", "DIR", help: "Write each finding's shrunk scenario into DIR."),
            .value("--shard", "I/N", help: "Run only shard I of N (1-based): the shards together run exactly the whole run."),
            .value("--replay", "TOKEN", help: "Rerun only the walk a token names (printed with each finding)."),
            .value("--today", "DATE", help: "The clock as yyyy-MM-dd (default 2026-01-01)."),
            .flag("--strict", help: "Fail on survey hazards too, not only on engine errors and properties."),
            .flag("--json", help: "Print the summary and findings as JSON."),
            .value("--junit", "FILE", help: "Also write a JUnit XML report to FILE."),
            ReportCommand.htmlOption,
        ] + WalkOptions.engineOptions,
        discussion: """
            Each walk starts a fresh session and, step by step, picks one action a respondent could take then
            (answer the question on screen with one of its candidate values, change an earlier answer, tap Next,
            Submit, set a custom condition), recording the choices rather than the values. After every step it
            checks the engine's invariants, the format's payload rules and hazards, and the author's
            properties; after every walk, that replaying it and reading it back as a scenario give the same
            trace, and that Submit can still be reached.

            Findings are engine errors (a bug of the harness: always fail), properties (always fail) and survey
            hazards (the survey's own risk, e.g. SurveyNative submitting answers of hidden questions: warnings,
            failures with --strict). Each is shrunk to a minimal scenario, printed with the seed and a replay
            token.

            Exit codes: 0 nothing failed; 1 an engine error, a property, or (with --strict) a hazard; 2 bad usage
            or an unreadable or malformed file.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let surveyPath = arguments.operands[0]
        let survey = try FormatRegistry.standard.load(InputFiles.read(surveyPath))
        let walks = try WalkOptions.positive(arguments, "--walks", default: 100, command: "fuzz")
        let maxSteps = try WalkOptions.positive(arguments, "--max-steps", default: 100, command: "fuzz")
        let seed = try WalkOptions.seed(arguments, command: "fuzz")
        var shard = (index: 0, count: 1)
        if let text = arguments.value("--shard") {
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                throw UsageError(message: "--shard needs I/N with 1 ≤ I ≤ N, e.g. 2/4, not '\(text)'", command: "fuzz")
            }
            shard = (parts[0] - 1, parts[1])
        }
        let today = try WalkOptions.today(arguments, command: "fuzz")
        let properties = try arguments.value("--properties").map { path throws(InputError) in
            try PropertiesFile.parse(InputFiles.read(path), survey: survey)
        }
        let replay = try arguments.value("--replay").map { text throws in
            guard let token = ReplayToken(text: text) else {
                throw UsageError(message: "'\(text)' is not a replay token; expected the sr1-… token printed with a finding", command: "fuzz")
            }
            return token
        }

        let configuration = Fuzzer.Configuration(
            walks: walks, seed: replay?.seed ?? seed, maxSteps: replay?.maxSteps ?? maxSteps, shard: shard,
            settings: try WalkOptions.settings(arguments, today: replay?.today ?? today, command: "fuzz", for: [survey]), properties: properties)
        let fuzzer = Fuzzer(survey: survey, configuration: configuration)
        let console = invocation.console
        let result: Fuzzer.Result
        if let replay {
            result = fuzzer.replay(replay)
        } else {
            let progress: ((Int, Int) -> Void)? = console.isTerminal ? { done, total in
                if done % 50 == 0 || done == total { console.error("\r\u{1B}[K[walk \(done)/\(total)]") }
            } : nil
            result = fuzzer.run(progress: progress)
            if console.isTerminal { console.error("\r\u{1B}[K") }
        }
        let strict = arguments.flag("--strict")
        let report = FuzzReport(
            survey: survey, surveyPath: surveyPath, configuration: configuration, result: result, strict: strict,
            contexts: try WalkOptions.contexts(arguments, command: "fuzz"))

        if let folder = arguments.value("--save-failures") {
            for finding in result.findings {
                let path = folder + "/" + report.fileName(for: finding)
                try AtomicFile.write(report.scenario(for: finding, writtenTo: path).text, to: path)
            }
        }
        let out = invocation.reportWriter(besides: [arguments.value("--junit")])
        if arguments.flag("--json") {
            out(CanonicalJSON.pretty(report.json) + "\n")
        } else {
            out(report.text(color: invocation.usesColor))
        }
        if let junit = arguments.value("--junit") {
            try invocation.write(report.junit.xml, toFile: junit)
        }
        if let folder = arguments.value("--html") {
            let input = ReportInput(
                title: "Random walks of \(surveyPath)", suite: nil, surveyFiles: [surveyPath], walks: replay == nil ? configuration.walks : 0,
                seed: configuration.seed, maxSteps: configuration.maxSteps, settings: configuration.settings, fuzz: [report.reportRun])
            _ = try ReportCommand.write(input, to: folder, console: console)
        }
        return report.failed ? ExitCode.failure : ExitCode.success
    }

}
