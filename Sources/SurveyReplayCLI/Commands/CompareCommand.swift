import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay compare OLD NEW`: the same walks against two versions of a survey.
enum CompareCommand {
    static let spec = CommandSpec(
        name: "compare",
        summary: "Walk two versions of a survey the same way and report the shortest paths that differ.",
        operands: [.init("OLD", help: "The old version of the survey."), .init("NEW", help: "The new version.")],
        options: [
            .value("--walks", "N", help: "Walks chosen on each version (default 200)."),
            .value("--seed", "S", help: "Seed of the walks (default 1)."),
            .value("--max-steps", "K", help: "Steps per walk at most (default 100)."),
            .value("--today", "DATE", help: "The clock as yyyy-MM-dd (default 2026-01-01)."),
            .value("--save", "DIR", help: "Write each difference's path into DIR as a scenario of the new version."),
            .flag("--json", help: "Print the differences as JSON."),
        ] + WalkOptions.engineOptions,
        discussion: """
            Walks are chosen on each version and replayed on both. After every step the two are compared:
            the outcome of the action, the visible questions, the current question, whether Submit shows; at
            the end, the payload. Each difference is reported once, at the question where it shows, with the
            shortest path found to it (shrunk so that no action can be removed).

            Exit codes: 0 no difference found; 1 differences found; 2 bad usage or an unreadable or malformed file.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let (oldPath, newPath) = (arguments.operands[0], arguments.operands[1])
        let old = try FormatRegistry.standard.load(InputFiles.read(oldPath))
        let new = try FormatRegistry.standard.load(InputFiles.read(newPath))
        let walks = try WalkOptions.positive(arguments, "--walks", default: 200, command: "compare")
        let maxSteps = try WalkOptions.positive(arguments, "--max-steps", default: 100, command: "compare")
        let seed = try WalkOptions.seed(arguments, command: "compare")
        let today = try WalkOptions.today(arguments, command: "compare")
        let settings = try WalkOptions.settings(arguments, today: today, command: "compare", for: [old, new])
        let differences = Comparer(old: old, new: new, settings: settings, maxSteps: maxSteps).run(walks: walks, seed: seed)

        func scenario(_ difference: Comparer.Difference, path: String?) -> Scenario {
            let reference = path.map { InputFiles.relativePath(of: newPath, fromFolder: InputFiles.folder(of: $0)) } ?? newPath
            return Scenario.make(
                path: path ?? "-", surveyPath: reference, settings: settings,
                header: ["Found by survey-replay compare \(oldPath) \(newPath) --seed \(seed): \(difference.detail)"], actions: difference.actions)
        }
        if let folder = arguments.value("--save") {
            for difference in differences {
                let name = String(difference.question.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" }.prefix(80))
                let path = folder + "/differs-at-" + name + ".scenario"
                try AtomicFile.write(scenario(difference, path: path).text, to: path)
            }
        }
        let console = invocation.console
        if arguments.flag("--json") {
            let entries: [JSONValue] = differences.map { difference in
                let text = scenario(difference, path: nil).text
                return .object([
                    "question": .string(difference.question), "detail": .string(difference.detail),
                    "walks": .number(Double(difference.walks)), "scenario": .string(text),
                ])
            }
            let json: JSONValue = .object([
                "old": .string(oldPath), "new": .string(newPath), "seed": .string(String(seed)),
                "walks": .number(Double(walks)), "differences": .array(entries),
            ])
            console.out(CanonicalJSON.pretty(json) + "\n")
        } else {
            var lines = ["compare \(oldPath) \(newPath): \(walks) walks on each version, seed \(seed), today \(today)"]
            lines.append(differences.isEmpty ? "no difference found" : "\(differences.count) difference\(differences.count == 1 ? "" : "s"):")
            for difference in differences {
                let count = difference.actions.count
                lines.append("")
                lines.append("\(difference.question): \(difference.detail)")
                lines.append("  found in \(difference.walks) walk\(difference.walks == 1 ? "" : "s"); shortest path, \(count) action\(count == 1 ? "" : "s"):")
                let body = scenario(difference, path: nil).text.split(separator: "\n").filter { !$0.hasPrefix("#") }
                lines += body.map { "    " + $0 }
            }
            console.out(lines.joined(separator: "\n") + "\n")
        }
        return differences.isEmpty ? ExitCode.success : ExitCode.failure
    }

}
