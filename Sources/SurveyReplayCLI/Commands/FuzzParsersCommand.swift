import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayFuzzing

/// `survey-replay fuzz-parsers [TARGET...]`: mutated inputs for every parser, each target in a child
/// process so a crash or a hang is caught, saved and reproducible.
enum FuzzParsersCommand {
    static let spec = CommandSpec(
        name: "fuzz-parsers",
        summary: "Feed every parser mutated files; catch crashes, hangs and unlocated errors.",
        operands: [
            .init(
                "TARGET", help: "Targets to run (default: all; --list names them).", optional: true, repeated: true,
                completion: .choices(FuzzTargets.all().map(\.name)))
        ],
        options: [
            .flag("--list", help: "List the targets and their seed counts."),
            .value("--runs", "N", help: "Inputs per target at most (default 2000)."),
            .value("--seconds", "S", help: "Time per target at most (default 30)."),
            .value("--seed", "S", help: "Seed of the mutations (default 1); with --run, the seed of that campaign."),
            .value("--corpus", "DIR", help: "Seed files besides Scenarios/ (default ../shared/corpus)."),
            .value("--failures", "DIR", help: "Where failing inputs are saved (default .build/fuzz-failures)."),
            .value("--run", "N", help: "Run input N of the campaign in this process and report it."),
            .value("--input", "FILE", help: "Run this file through the target in this process (a saved failure)."),
            .value("--write-seeds", "DIR", help: "Write the target's seeds into DIR (a corpus for libFuzzer) and stop."),
            .flag("--child", help: "Internal: run inputs from --from to --runs, reporting progress."),
            .value("--from", "N", help: "Internal: the first input of a child."),
        ],
        discussion: """
            Targets: json (the located JSON scanner), one per survey format (load, lint and three checked walks),
            scenario, properties, golden, coverage (coverage merge files) and payload (import); output (writing
            to odd names and over devices, pipes, links, sockets and folders) and fifo (every reader given a
            path that is not a regular file, which it must refuse at once). Seeds are the
            project's files under Scenarios/ and Snapshots/ and the corpus. Each input is made from the seed and
            its run number alone (byte flips, special tokens, deletions, duplications, truncation, splices, and
            for JSON structural changes such as nesting far past the depth limit), so any failure is made again
            with --run N. A target fails on a crash, a hang (no result in 10 s), an error without a line and
            column inside the input, or a wrong result (a scenario or JSON that does not print back the same, a
            walk that breaks the simulation's invariants). scripts/fuzz-libfuzzer.sh runs the same targets under
            libFuzzer with AddressSanitizer.

            Exit codes: 0 no failure; 1 failures (saved, each with its --run command); 2 bad usage.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let console = invocation.console
        let all = FuzzTargets.all()
        let corpus = arguments.value("--corpus") ?? "../shared/corpus"
        let seed = try WalkOptions.seed(arguments, command: "fuzz-parsers")
        if arguments.flag("--list") {
            for target in all { console.out("\(target.name.padded(to: 12)) \(target.seeds(corpus).count) seeds  \(target.summary)\n") }
            return ExitCode.success
        }
        let targets = try arguments.operands.map { name in
            guard let target = all.first(where: { $0.name == name }) else {
                throw UsageError(message: "no fuzz target '\(name)'\(Spelling.suggestion(for: name, in: all.map(\.name))); --list names them", command: "fuzz-parsers")
            }
            return target
        }
        let runs = try WalkOptions.positive(arguments, "--runs", default: 2_000, command: "fuzz-parsers")

        if arguments.flag("--child") {
            guard targets.count == 1 else { throw UsageError(message: "--child runs one target", command: "fuzz-parsers") }
            let from = Int(arguments.value("--from") ?? "0") ?? 0
            return FuzzCampaign.child(target: targets[0], seed: seed, from: from, until: runs, corpus: corpus)
        }
        if arguments.value("--run") != nil || arguments.value("--input") != nil || arguments.value("--write-seeds") != nil {
            guard targets.count == 1 else { throw UsageError(message: "name one target for --run, --input or --write-seeds", command: "fuzz-parsers") }
            return try single(targets[0], arguments, seed: seed, corpus: corpus, console: console)
        }

        guard let seconds = Double(arguments.value("--seconds") ?? "30"), seconds > 0 else {
            throw UsageError(message: "--seconds needs a positive number, not '\(arguments.value("--seconds") ?? "")'", command: "fuzz-parsers")
        }
        // The child is this same program: survey-replay-fuzz takes the target first, survey-replay the command.
        let program = CommandLine.arguments[0]
        let configuration = FuzzCampaign.Configuration(
            executable: program.contains("/") ? program : "/proc/self/exe",
            commandPrefix: program.hasSuffix("survey-replay-fuzz") ? [] : ["fuzz-parsers"], seed: seed, runs: runs,
            seconds: seconds, corpus: corpus, failuresFolder: arguments.value("--failures") ?? ".build/fuzz-failures")
        var failed = false
        for target in targets.isEmpty ? all : targets {
            let result = FuzzCampaign(target: target, configuration: configuration).run()
            let rate = result.seconds > 0 ? Int(Double(result.runs) / result.seconds) : 0
            console.out("\(target.name.padded(to: 12)) \(result.runs) runs in \(String(format: "%.1f", result.seconds)) s (\(rate)/s), \(result.failures.count) failure\(result.failures.count == 1 ? "" : "s")\n")
            for failure in result.failures {
                failed = true
                console.out("  \(failure.kind) at run \(failure.run): \(failure.message.trimmingCharacters(in: .whitespacesAndNewlines))\n")
                console.out("    again: survey-replay fuzz-parsers \(target.name) --seed \(seed) --run \(failure.run)\(failure.savedAt.map { "   (saved: \($0))" } ?? "")\n")
            }
        }
        return failed ? ExitCode.failure : ExitCode.success
    }

    /// One input in this process: by run number, from a file, or the seeds written out.
    private static func single(_ target: FuzzTarget, _ arguments: ParsedArguments, seed: UInt64, corpus: String, console: Console) throws -> Int32 {
        if let folder = arguments.value("--write-seeds") {
            for (index, bytes) in target.seeds(corpus).enumerated() {
                try AtomicFile.write(bytes, to: folder + "/\(target.name)-seed\(index)")
            }
            return ExitCode.success
        }
        let input: [UInt8]
        if let path = arguments.value("--input") {
            input = try InputFiles.read(path).bytes
        } else {
            guard let text = arguments.value("--run"), let run = Int(text), run >= 0 else {
                throw UsageError(message: "--run needs a run number, not '\(arguments.value("--run") ?? "")'", command: "fuzz-parsers")
            }
            input = Mutator(seeds: target.seeds(corpus), isJSON: target.isJSON).input(seed: seed, run: run)
        }
        if let problem = target.run(input) {
            console.out("\(target.name): \(problem)\n")
            return ExitCode.failure
        }
        console.out("\(target.name): ok (\(input.count) bytes)\n")
        return ExitCode.success
    }
}
