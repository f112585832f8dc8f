import SurveyCore
import SurveyHarness

/// How a fuzz run is told: as text for people, JSON for tools, JUnit for CI, and scenarios for the suite.
struct FuzzReport {
    let survey: any Survey
    let surveyPath: String
    let configuration: Fuzzer.Configuration
    let result: Fuzzer.Result
    let strict: Bool
    /// The launch context files the settings were read from, which saved scenarios and the replay name.
    let contexts: [LaunchContextFile]

    func fails(_ finding: Finding) -> Bool {
        finding.kind != .hazard || strict
    }

    var failed: Bool { result.findings.contains { fails($0.finding) } }

    func replayCommand(_ report: Fuzzer.Report) -> String {
        let settings = configuration.settings
        let profile = settings.profile.map { " --profile \($0)" } ?? ""
        let options = settings.options.isEmpty ? "" : " --option " + settings.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        return "survey-replay fuzz \(surveyPath) --replay \(report.token.text)\(configuration.properties.map { " --properties \($0.path)" } ?? "")\(profile)\(options)\(WalkOptions.contextArgument(contexts))"
    }

    /// The `check` lines a saved finding carries, so that the scenario keeps failing in `test` until the
    /// survey is fixed: the property it broke (for an author's property, the assertion as written). A
    /// warning (a hazard without --strict) carries none.
    func checks(for finding: Finding) -> [Scenario.Check] {
        guard fails(finding) else { return [] }
        guard finding.kind == .property else { return [.builtIn(finding.property)] }
        return (configuration.properties?.properties ?? []).filter { $0.name == finding.property }.map { .assertion($0.text) }
    }

    func scenario(for report: Fuzzer.Report, writtenTo path: String?) -> Scenario {
        let reference = path.map { InputFiles.relativePath(of: surveyPath, fromFolder: InputFiles.folder(of: $0)) } ?? surveyPath
        return Scenario.make(
            path: path ?? "-", surveyPath: reference, settings: configuration.settings, contexts: contexts.map { $0.named(fromScenarioAt: path) },
            header: [
                "Found by survey-replay fuzz --seed \(configuration.seed), walk \(report.firstWalk): \(report.finding.kind.rawValue) \(report.finding.property)",
                report.finding.message,
                "Replay the walk: \(replayCommand(report))",
            ],
            checks: checks(for: report.finding), actions: report.shrunk)
    }

    func fileName(for report: Fuzzer.Report) -> String {
        let base = [report.finding.property, report.finding.question].compactMap { $0 }.joined(separator: "-")
        let safe = String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(80))
        return safe + ".scenario"
    }

    var counts: [Finding.Kind: Int] {
        var counts: [Finding.Kind: Int] = [:]
        for report in result.findings { counts[report.finding.kind, default: 0] += 1 }
        return counts
    }

    func text(color: Bool) -> String {
        let style = Style(color: color)
        var lines = [
            "fuzz \(surveyPath) (\(survey.format)): seed \(configuration.seed), today \(configuration.settings.today), at most \(configuration.maxSteps) steps a walk"
                + (configuration.shard.count > 1 ? ", shard \(configuration.shard.index + 1)/\(configuration.shard.count)" : ""),
            "walks \(result.walks), steps \(result.steps), submitted \(result.submitted), distinct paths \(result.distinctPaths), distinct visible lists \(result.distinctVisibleLists)",
            "findings: \(counts[.engineError] ?? 0) engine errors, \(counts[.hazard] ?? 0) survey hazards, \(counts[.property] ?? 0) properties",
        ]
        for report in result.findings {
            let label = fails(report.finding) ? style.paint("FAIL", .red) : style.paint("warning", .yellow)
            let about = report.finding.question.map { " ('\($0)')" } ?? ""
            lines.append("")
            lines.append("\(label) \(report.finding.kind.rawValue) \(report.finding.property)\(about): \(report.finding.message)")
            lines.append(
                "  found in \(report.walks) walk\(report.walks == 1 ? "" : "s"), first in walk \(report.firstWalk) (\(report.originalSteps) steps); shrunk to \(report.shrunk.count) action\(report.shrunk.count == 1 ? "" : "s"):")
            let body = scenario(for: report, writtenTo: nil).text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            lines += body.map { "    " + $0 }
            lines.append("  replay: \(replayCommand(report))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: JSONValue {
        .object([
            "survey": .string(surveyPath),
            "format": .string(survey.format),
            "seed": .string(String(configuration.seed)),
            "today": .string(configuration.settings.today.description),
            "maxSteps": .number(Double(configuration.maxSteps)),
            "shard": .string("\(configuration.shard.index + 1)/\(configuration.shard.count)"),
            "walks": .number(Double(result.walks)),
            "steps": .number(Double(result.steps)),
            "submitted": .number(Double(result.submitted)),
            "distinctPaths": .number(Double(result.distinctPaths)),
            "distinctVisibleLists": .number(Double(result.distinctVisibleLists)),
            "failed": .bool(failed),
            "findings": .array(result.findings.map { report in
                .object([
                    "kind": .string(report.finding.kind.rawValue),
                    "property": .string(report.finding.property),
                    "question": report.finding.question.map(JSONValue.string) ?? .null,
                    "message": .string(report.finding.message),
                    "fails": .bool(fails(report.finding)),
                    "walks": .number(Double(report.walks)),
                    "firstWalk": .number(Double(report.firstWalk)),
                    "originalSteps": .number(Double(report.originalSteps)),
                    "scenario": .string(scenario(for: report, writtenTo: nil).text),
                    "token": .string(report.token.text),
                ])
            }),
        ])
    }

    var junit: JUnitDocument {
        let name = "fuzz \(surveyPath)"
        var cases = [
            JUnitDocument.Case(
                classname: name, name: "\(result.walks) walks, seed \(configuration.seed)",
                output: "steps \(result.steps), distinct paths \(result.distinctPaths), distinct visible lists \(result.distinctVisibleLists)")
        ]
        for report in result.findings {
            let detail = report.finding.message + "\n\n" + scenario(for: report, writtenTo: nil).text
            let caseName = "\(report.finding.kind.rawValue) \(report.finding.property)" + (report.finding.question.map { " (\($0))" } ?? "")
            cases.append(
                JUnitDocument.Case(
                    classname: name, name: caseName, file: surveyPath,
                    problem: fails(report.finding) ? .failure(type: report.finding.property, message: report.finding.message, detail: detail) : nil,
                    output: fails(report.finding) ? nil : "warning: " + detail))
        }
        return JUnitDocument(suites: [JUnitDocument.Suite(name: name, cases: cases)])
    }
}
