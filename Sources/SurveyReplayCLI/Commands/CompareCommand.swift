import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay compare OLD NEW`: the same walks against two versions of a survey; `compare SURVEY
/// --profiles A,B`: against one survey under two engine profiles.
enum CompareCommand {
    static let spec = CommandSpec(
        name: "compare",
        summary: "Walk two versions of a survey (or one under two profiles) the same way and report the shortest paths that differ.",
        operands: [
            .init("OLD", help: "The old version of the survey (with --profiles, the survey)."),
            .init("NEW", help: "The new version (with --profiles, optional: the survey under the second profile).", optional: true),
        ],
        options: [
            .value("--profiles", "A,B", help: "Compare engine profiles: OLD under A against NEW (or OLD again) under B, e.g. r4,c3pro."),
            .value("--walks", "N", help: "Walks chosen on each version (default 200)."),
            .value("--seed", "S", help: "Seed of the walks (default 1)."),
            .value("--max-steps", "K", help: "Steps per walk at most (default 100)."),
            .value("--today", "DATE", help: "The clock as yyyy-MM-dd (default 2026-01-01)."),
            .value("--save", "DIR", help: "Write each difference's path into DIR as a scenario of the version it replays on (the new one when both)."),
            .flag("--json", help: "Print the differences as JSON."),
        ] + WalkOptions.engineOptions,
        discussion: """
            Walks are chosen on each version and replayed on both. After every step the two are compared:
            the outcome of the action, the visible questions, the current question, whether Submit shows; at
            the end, the payload. Each difference is reported once, at the question where it shows, with the
            shortest path found to it (shrunk so that no action can be removed).

            With --profiles, the two engines may navigate differently (FHIR r4 is one scrolling form, c3pro one
            step at a time), so taps do not carry over: each walk that submits is played under its profile, its
            submitted answers are given to the other profile as `import` gives a payload, and the questions
            shown and the answers submitted are compared. The path printed is the walk, under the profile named
            in its header.

            Exit codes: 0 no difference found; 1 differences found; 2 bad usage or an unreadable or malformed file.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let profiles = try profilePair(arguments)
        guard arguments.operands.count == 2 || profiles != nil else {
            throw UsageError(message: "compare needs OLD and NEW, or one survey with --profiles A,B", command: "compare")
        }
        let (oldPath, newPath) = (arguments.operands[0], arguments.operands.count > 1 ? arguments.operands[1] : arguments.operands[0])
        let old = try FormatRegistry.standard.load(InputFiles.read(oldPath))
        let new = newPath == oldPath ? old : try FormatRegistry.standard.load(InputFiles.read(newPath))
        let walks = try WalkOptions.positive(arguments, "--walks", default: 200, command: "compare")
        let maxSteps = try WalkOptions.positive(arguments, "--max-steps", default: 100, command: "compare")
        let seed = try WalkOptions.seed(arguments, command: "compare")
        let today = try WalkOptions.today(arguments, command: "compare")
        let settings = try WalkOptions.settings(arguments, today: today, command: "compare", for: profiles == nil ? [old, new] : [])
        let contexts = try WalkOptions.contexts(arguments, command: "compare")
        var oldSettings = settings
        var newSettings = settings
        if let profiles {
            oldSettings.profile = profiles.old
            newSettings.profile = profiles.new
            for (survey, side) in [(old, oldSettings), (new, newSettings)] {
                if let problem = survey.problem(with: side) { throw UsageError(message: problem, command: "compare") }
            }
        }
        let comparer = Comparer(
            old: old, new: new, oldSettings: oldSettings, newSettings: newSettings,
            names: profiles ?? ("the old version", "the new version"), replay: profiles == nil ? .actions : .answers, maxSteps: maxSteps)
        let differences = comparer.run(walks: walks, seed: seed)
        let invocationText =
            "\(oldPath)\(newPath == oldPath ? "" : " " + newPath)\(profiles.map { " --profiles \($0.old),\($0.new)" } ?? "")\(WalkOptions.contextArgument(contexts))"

        func scenario(_ difference: Comparer.Difference, path: String?) -> Scenario {
            // A path replayed on both is a scenario of the new version, unless the new version cannot take it
            // (an option renamed): then it is one of the old version, where it replays.
            let walkedOnOld = difference.walkedOnOld ?? !comparer.fits(difference.actions, onOld: false)
            let surveyPath = walkedOnOld ? oldPath : newPath
            let reference = path.map { InputFiles.relativePath(of: surveyPath, fromFolder: InputFiles.folder(of: $0)) } ?? surveyPath
            return Scenario.make(
                path: path ?? "-", surveyPath: reference, settings: walkedOnOld ? oldSettings : newSettings, contexts: contexts.map { $0.named(fromScenarioAt: path) },
                header: ["Found by survey-replay compare \(invocationText) --seed \(seed): \(difference.detail)"], actions: difference.actions)
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
            var json: [String: JSONValue] = [
                "old": .string(oldPath), "new": .string(newPath), "seed": .string(String(seed)),
                "walks": .number(Double(walks)), "differences": .array(entries),
            ]
            if let profiles { json["profiles"] = .array([.string(profiles.old), .string(profiles.new)]) }
            console.out(CanonicalJSON.pretty(.object(json)) + "\n")
        } else {
            let sides = profiles == nil ? "version" : "profile"
            var lines = ["compare \(invocationText): \(walks) walks on each \(sides), seed \(seed), today \(today)"]
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

    /// `--profiles A,B`: two profile names; with it, `--profile` has no place.
    private static func profilePair(_ arguments: ParsedArguments) throws -> (old: String, new: String)? {
        guard let text = arguments.value("--profiles") else { return nil }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard names.count == 2, !names[0].isEmpty, !names[1].isEmpty else {
            throw UsageError(message: "--profiles needs two profile names, A,B, not '\(text)'", command: "compare")
        }
        if arguments.value("--profile") != nil {
            throw UsageError(message: "--profiles names both sides' profiles: leave out --profile", command: "compare")
        }
        return (names[0], names[1])
    }

}
