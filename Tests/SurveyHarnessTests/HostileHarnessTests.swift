import Foundation
import SurveyCore
import SurveyFormats
import Testing

@testable import SurveyHarness

/// The harness's own pieces behind issue 18's fixes, each on its own.
@Suite("Harness pieces for hostile input")
struct HostileHarnessTests {
    // MARK: check lines

    @Test("check lines read and print back the same, at the top only, and name a built-in id or an assertion")
    func checkLines() throws {
        let text = """
            survey s.json
            check hidden-answer-submitted
            check whenever {"id":"smoker","operation":"equals","value":"No"} then hidden per_day
            answer smoker "No"

            """
        let scenario = try ScenarioParser.parse(SourceFile(path: "s.scenario", text: text))
        #expect(scenario.text == text)
        #expect(scenario.checks.map(\.check) == [
            .builtIn("hidden-answer-submitted"), .assertion(#"whenever {"id":"smoker","operation":"equals","value":"No"} then hidden per_day"#),
        ])
        #expect(throws: InputError.self) { try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey s.json\nnext\ncheck dead-end\n")) }
        #expect(throws: InputError.self) { try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey s.json\ncheck Not An Id\n")) }
    }

    @Test("a check fails the scenario at its line after the step that breaks it, and holds where the path keeps it")
    func checksRun() throws {
        let survey = try Fixtures.survey()
        func run(_ text: String) throws -> ScenarioResult {
            ScenarioRunner().run(try ScenarioParser.parse(SourceFile(path: "s.scenario", text: text)), survey: survey)
        }
        let broken = try run("survey s.json\ncheck always {\"id\":\"smoker\",\"operation\":\"equals\",\"value\":\"No\"}\nanswer smoker \"No\"\nanswer smoker \"Yes\"\n")
        #expect(broken.failures == [.init(line: 2, afterStep: 2, message: "the condition does not hold", isCheck: true)])
        #expect(broken.failureDiagnostics(scenarioPath: "s.scenario").map(\.description) == ["s.scenario:2:1: error: check failed after step 2: the condition does not hold"])
        let held = try run("survey s.json\ncheck always {\"id\":\"smoker\",\"operation\":\"not equals\",\"value\":\"Maybe\"}\nanswer smoker \"No\"\n")
        #expect(held.passed)
        // A hazard: per_day's answer submitted after it was hidden.
        let hazard = try run(
            "survey s.json\ncheck hidden-answer-submitted\nanswer smoker \"Yes\"\nnext\nanswer per_day \"3\"\nanswer smoker \"No\"\nnext\nanswer done \"Yes\"\nsubmit\n")
        #expect(hazard.failures.count == 1)
        #expect(hazard.failures.first?.message.hasPrefix("survey hazard hidden-answer-submitted ('per_day')") == true, "\(hazard.failures)")
        // A check naming a question the survey no longer has: the scenario does not fit it.
        let stale = try run("survey s.json\ncheck whenever {\"id\":\"smoker\",\"operation\":\"equals\",\"value\":\"No\"} then hidden gone\nnext\n")
        #expect(stale.stale?.line == 2)
        #expect(stale.stale?.reason.contains("no question 'gone'") == true)
    }

    // MARK: comments

    @Test("text written into a generated comment has its control characters escaped, so it stays one comment line")
    func commentEscaping() throws {
        let scenario = Scenario.make(path: "x.scenario", surveyPath: "s.json", settings: SessionSettings(), header: ["a\nsurvey /etc/passwd #\r\u{1}\u{2028}\tb"], actions: [])
        #expect(scenario.text.hasPrefix(#"# a\nsurvey /etc/passwd #\r\u0001\u2028"# + "\tb\nsurvey s.json\n"))
        #expect(try ScenarioParser.parse(SourceFile(path: "x.scenario", text: scenario.text)).surveyPath == "s.json")
    }

    // MARK: goldens

    @Test("git conflict markers in a golden are found in order, at the first marker; one marker alone is not a conflict")
    func conflictMarkers() {
        let conflicted = "# golden\nstep 1\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch\nend\n"
        #expect(GoldenFile.conflict(in: conflicted, path: "g.snap")?.description.hasPrefix("g.snap:3:1: error: a git merge conflict: lines 3 to 7") == true)
        #expect(GoldenFile.conflict(in: "# golden\n=======\nstep\n", path: "g.snap") == nil)
        #expect(GoldenFile.conflict(in: ">>>>>>> x\n=======\n<<<<<<< y\n", path: "g.snap") == nil)
    }

    @Test("a golden is read with CRLF as LF; a missing one is nil, a loop is an error")
    func goldenReading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sr-golden-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "a\r\nb\r\n".write(toFile: folder + "/g.snap", atomically: true, encoding: .utf8)
        #expect(try GoldenFile.read(folder + "/g.snap") == "a\nb\n")
        #expect(try GoldenFile.read(folder + "/none.snap") == nil)
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop.snap", withDestinationPath: folder + "/loop.snap")
        #expect(throws: InputError.self) { try GoldenFile.read(folder + "/loop.snap") }
    }

    // MARK: record modes

    @Test("a record mode variable that names no mode is an error, even where the flag or CI would override it")
    func recordModeVariable() throws {
        for environment in [["SURVEY_REPLAY_RECORD": "sometimes"], ["SURVEY_REPLAY_RECORD": "ALL", "CI": "1"]] {
            #expect(throws: RecordMode.Invalid.self) { try RecordMode.resolve(flag: .all, environment: environment) }
        }
        #expect(try RecordMode.resolve(flag: nil, environment: ["SURVEY_REPLAY_RECORD": ""]).mode == .missing)
    }

    // MARK: coverage

    @Test("the coverage fingerprint changes with ids, conditions, options and validations, not with the file's layout")
    func fingerprint() throws {
        func print(_ json: String) throws -> String {
            try FormatRegistry.standard.load(SourceFile(path: "s.json", text: json)).coveragePlan().fingerprint
        }
        let base = try print(Fixtures.surveyJSON)
        #expect(base.count == 16)
        #expect(try print(Fixtures.surveyJSON.replacingOccurrences(of: "\n", with: "\n\n  ")) == base)
        for (from, to) in [("per_day", "per_week"), ("\"value\": \"Yes\"", "\"value\": \"No\""), (#"["Yes", "No"]"#, #"["Yes", "No", "Maybe"]"#), ("\"value\": 0", "\"value\": 1")] {
            #expect(try print(Fixtures.surveyJSON.replacingOccurrences(of: from, with: to)) != base, "\(from) -> \(to)")
        }
    }

    @Test("counts add up to 2^53 - 1 and stop there, saying so")
    func countsStopAtTheLimit() throws {
        let plan = try Fixtures.survey().coveragePlan()
        var counts = CoverageCounts(plan: plan)
        counts.choices[0] = CoverageCounts.maximum - 1
        var one = CoverageCounts(plan: plan)
        one.choices[0] = 1
        #expect(counts.add(one) == false)
        #expect(counts.choices[0] == CoverageCounts.maximum)
        #expect(counts.add(one) == true)
        #expect(counts.choices[0] == CoverageCounts.maximum)
    }

    // MARK: the recorder on multiple choices

    static let milk = QuestionPrompt.MultipleChoice(values: [.string("Whole"), .string("Skim"), .string("None"), nil], exclusive: [2])

    func apply(_ typed: String, to current: JSONValue?) -> Result<(answer: JSONValue, said: [String]), InputProblem> {
        MultipleChoiceInput(choices: Self.milk).apply(typed, to: current)
    }

    @Test("numbers toggle choices from the current answer; an exclusive choice unpicks the others; Other takes its text")
    func toggles() throws {
        #expect(try apply("1,2", to: nil).get().answer == ["Whole", "Skim"])
        #expect(try apply("2", to: ["Whole", "Skim"]).get().answer == ["Whole"])
        #expect(try apply("2", to: ["Whole", "Skim"]).get().said == ["unpicked \"Skim\""])
        #expect(try apply("3", to: ["Whole", "Skim"]).get().answer == ["None"])
        #expect(try apply("1", to: ["None"]).get().answer == ["Whole"])
        #expect(try apply("4 Oat milk", to: ["Whole"]).get().answer == ["Whole", "Oat milk"])
        #expect(try apply("4 Soy", to: ["Whole", "Oat milk"]).get().answer == ["Whole", "Soy"])
        #expect(try apply("4", to: ["Whole", "Oat milk"]).get().answer == ["Whole"])
        #expect(try apply("Skim", to: nil).get().answer == ["Skim"])
        #expect(try apply("Rice milk", to: nil).get().answer == ["Rice milk"], "text that names no option is the Other text")
    }

    @Test("what a typed line cannot mean on a multiple choice is said, and nothing is answered")
    func togglesRefused() {
        for (typed, message) in [("9", "there is no option 9; pick 1…4"), ("1 x", "option 1 takes no text"), ("4", "option 4 takes text"), (" , ", "type the numbers")] {
            guard case .failure(let problem) = apply(typed, to: nil) else {
                Issue.record("'\(typed)' was taken")
                continue
            }
            #expect(problem.message.hasPrefix(message), "\(typed): \(problem.message)")
        }
    }
}
