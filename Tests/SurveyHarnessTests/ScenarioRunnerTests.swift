import Foundation
import Testing
import SurveyCore
@testable import SurveyHarness

@Suite struct ScenarioRunnerTests {
    private func run(_ body: String) throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey smoking.json\n" + body))
        return ScenarioRunner().run(scenario, survey: try Fixtures.survey())
    }

    @Test func recordsEveryStepWithOutcomeAndView() throws {
        let result = try run("answer smoker \"Yes\"\nanswer per_day \"0\"\nanswer per_day \"3\"\nanswer done \"Yes\"\nsubmit\n")
        #expect(result.passed)
        #expect(result.trace.start == Trace.View(current: "smoker", visible: ["smoker"], submittable: false))
        #expect(result.trace.steps.map(\.outcome) == [.ok, .validationFailed("Enter at least 1"), .ok, .ok, .ok])
        #expect(result.trace.steps[0].view.visible == ["smoker", "per_day"])
        #expect(result.trace.steps[3].view == Trace.View(current: nil, visible: ["smoker", "per_day", "done"], submittable: true))
        #expect(result.trace.steps[4].events.map(\.name) == ["submitted"])
        #expect(result.trace.payload == ["answers": ["smoker": "Yes", "per_day": "3", "done": "Yes"]])
    }

    @Test func aFailedExpectationNamesItsLineAndStep() throws {
        let result = try run("answer smoker \"No\"\nexpect visible per_day\nexpect current done\n")
        #expect(!result.passed)
        #expect(result.failures == [.init(line: 3, afterStep: 1, message: "expected 'per_day' visible, but it is not; visible: smoker done")])
        let diagnostic = result.failureDiagnostics(scenarioPath: "s.scenario").first
        #expect(diagnostic?.description == "s.scenario:3:1: error: expectation failed after step 1: expected 'per_day' visible, but it is not; visible: smoker done")
    }

    @Test func everyExpectationKindCanFail() throws {
        let result = try run(
            "answer smoker \"Yes\"\nexpect hidden per_day\nexpect current done\nexpect answer smoker \"No\"\nexpect payload {}\nexpect submittable true\n")
        #expect(result.failures.map(\.line) == [3, 4, 5, 6, 7])
    }

    @Test func aRefusedActionIsRecordedNotFatal() throws {
        let result = try run("answer done \"Yes\"\nanswer smoker \"No\"\n")
        #expect(result.stale == nil)
        guard case .rejected(let reason) = result.trace.steps[0].outcome else {
            Issue.record("expected a rejection")
            return
        }
        #expect(reason.contains("not shown yet"))
        #expect(result.trace.steps.count == 2)
    }

    @Test func aScenarioThatNoLongerFitsStopsAsStaleAtItsStep() throws {
        let result = try run("answer smoker \"Yes\"\nanswer smokr \"No\"\nanswer done \"Yes\"\n")
        #expect(result.stale == .init(step: 2, line: 3, reason: "the survey has no question 'smokr'; did you mean 'smoker'?"))
        #expect(result.trace.steps.count == 1)
        #expect(result.staleDiagnostic(scenarioPath: "s.scenario")?.description.hasPrefix("s.scenario:3:1: error: stale at step 2: the survey has no question 'smokr'") == true)
    }

    @Test func anOptionTheSurveyLacksMakesTheScenarioStale() throws {
        let result = try run("answer smoker \"Sometimes\"\n")
        #expect(result.stale?.reason.contains("expected one of its options (\"Yes\", \"No\")") == true)
    }

    @Test func anExpectationNamingAMissingQuestionIsStale() throws {
        let result = try run("expect hidden gone\n")
        #expect(result.stale?.step == 0)
    }

    @Test func rendersTheJSONContract() throws {
        let result = try run("answer smoker \"Maybe?\"\n")
        #expect(result.stale != nil)
        let trace = try run("answer done \"Yes\"\n").trace
        #expect(
            CanonicalJSON.compact(trace.json)
                == #"{"format":"surveynative","payload":null,"start_events":[],"steps":[{"action":"answer done \"Yes\"","current":"smoker","events":[],"message":"'done' is not shown yet: the survey has only reached 'smoker'","n":1,"outcome":"rejected","submittable":false,"visible":["smoker"]}],"survey":"smoking.json"}"#)
    }

    @Test func rendersGoldenTextWithWhatChangedOnScreen() throws {
        let trace = try run("answer smoker \"Yes\"\nanswer smoker \"No\"\n").trace
        #expect(
            trace.text == """
                survey smoking.json (surveynative)

                start
                  current: smoker
                  visible: smoker

                step 1: answer smoker "Yes"
                  ok
                  appears: per_day
                  current: per_day
                  visible: smoker per_day

                step 2: answer smoker "No"
                  ok
                  appears: done
                  disappears: per_day
                  current: done
                  visible: smoker done

                payload: none

                """)
    }
}

@Suite struct InputFilesTests {
    @Test func resolvesSurveyPathsAgainstTheScenarioFolder() {
        #expect(InputFiles.resolve("s.json", relativeTo: "Scenarios/a/x.scenario") == "Scenarios/a/s.json")
        #expect(InputFiles.resolve("../shared/s.json", relativeTo: "Scenarios/a/x.scenario") == "Scenarios/shared/s.json")
        #expect(InputFiles.resolve("/abs/s.json", relativeTo: "Scenarios/a/x.scenario") == "/abs/s.json")
        #expect(InputFiles.resolve("s.json", relativeTo: "x.scenario") == "s.json")
    }

    @Test func aMissingFileOrADirectoryIsAClearError() {
        #expect(throws: InputError.self) { try InputFiles.read("/nonexistent/file.json") }
        do {
            _ = try InputFiles.read("/tmp")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/tmp: error: is a directory; expected a file")
        }
    }
}

@Suite struct ScenarioSettingsTests {
    @Test func aProfileTheFormatLacksIsAStaleScenarioAtItsLine() throws {
        let scenario = try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey smoking.json\nprofile c3pro\nanswer smoker \"Yes\"\n"))
        let result = ScenarioRunner().run(scenario, survey: try Fixtures.survey())
        #expect(result.stale == .init(step: 0, line: 2, reason: "unknown profile 'c3pro'; the surveynative format has no profiles"))
        #expect(result.trace.steps.isEmpty)
    }

    @Test func anOptionTheFormatLacksIsAStaleScenario() throws {
        let scenario = try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey smoking.json\noption strict yes\n"))
        let result = ScenarioRunner().run(scenario, survey: try Fixtures.survey())
        #expect(result.stale?.reason == "unknown option 'strict'; the surveynative format has no options")
    }

    @Test("a context file is read relative to the scenario: one that cannot be read stops the scenario at its line, bad JSON or JSON that is no object at its place in the file")
    func launchContextFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-replay-context-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "{\"resourceType\": \"Patient\", \"gender\": \"female\"}".write(toFile: folder + "/p.json", atomically: true, encoding: .utf8)
        try "{\"resourceType\": }".write(toFile: folder + "/bad.json", atomically: true, encoding: .utf8)
        func scenario(_ line: String) throws -> Scenario {
            try ScenarioParser.parse(SourceFile(path: folder + "/s.scenario", text: "survey smoking.json\n\(line)\nanswer smoker \"Yes\"\n"))
        }
        let settings = try ScenarioRunner().settings(of: try scenario("context patient p.json"))
        #expect(settings.launchContext["patient"] == ["resourceType": "Patient", "gender": "female"])
        let missing = ScenarioRunner().run(try scenario("context patient nope.json"), survey: try Fixtures.survey())
        #expect(missing.stale?.line == 2)
        #expect(missing.stale?.reason.contains("the context file \(folder)/nope.json") == true)
        let bad = ScenarioRunner().run(try scenario("context patient bad.json"), survey: try Fixtures.survey())
        #expect(bad.stale?.reason.hasPrefix("\(folder)/bad.json:1:18: error:") == true)
        try "\n  \"Patient\"".write(toFile: folder + "/string.json", atomically: true, encoding: .utf8)
        let string = ScenarioRunner().run(try scenario("context patient string.json"), survey: try Fixtures.survey())
        #expect(string.stale?.line == 2)
        #expect(string.stale?.reason == "\(folder)/string.json:2:3: error: expected a resource object such as {\"resourceType\": \"Patient\", …} for the launch context 'patient', found a string")
    }
}
