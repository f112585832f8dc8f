import Foundation
import Testing
import SurveyCore
@testable import SurveyReplayCLI

@Suite struct ReplayCommandTests {
    @Test func printsTheTraceAndSucceedsWhenEveryExpectationHolds() throws {
        let folder = try TemporaryFolder()
        try folder.write("s/smoking.json", CLIFixtures.survey)
        let scenario = try folder.write("s/no.scenario", "survey smoking.json\nanswer smoker \"No\"\nexpect current done\n")
        let result = runCLI(["replay", scenario])
        #expect(result.status == 0)
        #expect(result.out.contains("step 1: answer smoker \"No\"\n  ok\n  appears: done\n  current: done"))
        #expect(result.error.isEmpty)
    }

    @Test func printsTheJSONContractWithJSON() throws {
        let folder = try TemporaryFolder()
        try folder.write("smoking.json", CLIFixtures.survey)
        let scenario = try folder.write("a.scenario", "survey smoking.json\nanswer smoker \"No\"\nanswer done \"Yes\"\nsubmit\n")
        let result = runCLI(["replay", "--json", scenario])
        #expect(result.status == 0)
        let json = try JSONParser.parse(SourceFile(path: "out", text: result.out)).plain
        guard case .object(let top) = json, case .array(let steps)? = top["steps"], case .object(let last)? = steps.last else {
            Issue.record("unexpected JSON: \(result.out)")
            return
        }
        #expect(top.keys.sorted() == ["format", "payload", "start_events", "steps", "survey"])
        #expect(top["start_events"] == [])
        #expect(top["format"] == "surveynative")
        #expect(top["survey"] == "smoking.json")
        #expect(last.keys.sorted() == ["action", "current", "events", "message", "n", "outcome", "submittable", "visible"])
        #expect(last["n"] == 3)
        #expect(last["outcome"] == "ok")
        #expect(last["current"] == .null)
        #expect(top["payload"] == ["answers": ["smoker": "No", "done": "Yes"]])
    }

    @Test func aFailedExpectationExitsOneAndNamesTheLine() throws {
        let folder = try TemporaryFolder()
        try folder.write("smoking.json", CLIFixtures.survey)
        let scenario = try folder.write("a.scenario", "survey smoking.json\nanswer smoker \"No\"\nexpect visible per_day\n")
        let result = runCLI(["replay", scenario])
        #expect(result.status == 1)
        #expect(result.error == "\(scenario):3:1: error: expectation failed after step 1: expected 'per_day' visible, but it is not; visible: smoker done\n")
    }

    @Test func aStaleScenarioExitsTwoWithoutAPartialTrace() throws {
        let folder = try TemporaryFolder()
        try folder.write("smoking.json", CLIFixtures.survey)
        let scenario = try folder.write("a.scenario", "survey smoking.json\nanswer smoker \"No\"\nanswer don \"Yes\"\n")
        let result = runCLI(["replay", scenario])
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        #expect(result.error.hasPrefix("\(scenario):3:1: error: stale at step 2: the survey has no question 'don'; did you mean 'done'?"))
    }

    @Test func malformedFilesExitTwoWithTheirLocation() throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.json", "{\"questions\": [\n  {\"id\": \"a\",}\n]}")
        let scenario = try folder.write("a.scenario", "survey bad.json\n")
        let result = runCLI(["replay", scenario])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("\(folder.path)/bad.json:2:14: error: unexpected '}'; expected a string key in quotes"))

        let badScenario = try folder.write("b.scenario", "survey bad.json\nanswer x [\n")
        let second = runCLI(["replay", badScenario])
        #expect(second.status == 2)
        #expect(second.error.hasPrefix("\(badScenario):2:11: error: unexpected end of input"))
    }

    @Test func aMissingFileExitsTwo() {
        let result = runCLI(["replay", "/nonexistent/x.scenario"])
        #expect(result.status == 2)
        #expect(result.error.contains("/nonexistent/x.scenario: error: no such file"))
    }
}

@Suite struct CommandLineTests {
    @Test func anUnknownCommandSuggestsTheNearestOne() {
        let result = runCLI(["replya"])
        #expect(result.status == 2)
        #expect(result.error.contains("unknown command 'replya'; did you mean 'replay'?"))
    }

    @Test func badOptionsExitTwoWithTheUsage() {
        let unknown = runCLI(["replay", "--jsno", "x.scenario"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown option '--jsno'; did you mean '--json'?"))
        #expect(unknown.error.contains("Usage: survey-replay replay [options] FILE.scenario"))
        let missing = runCLI(["replay"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("missing FILE.scenario"))
        let extra = runCLI(["replay", "a", "b"])
        #expect(extra.error.contains("unexpected argument 'b'"))
    }

    @Test func helpIsGeneratedFromTheSpec() {
        let result = runCLI(["replay", "--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("Usage: survey-replay replay [options] FILE.scenario"))
        #expect(result.out.contains("--json"))
        #expect(result.out.contains("Exit codes"))
        let overview = runCLI(["--help"])
        #expect(overview.out.contains("replay"))
    }

    @Test func parsesFlagsValuesAndOperands() throws {
        let spec = CommandSpec(
            name: "t", summary: "", operands: [.init("PATH", help: "", optional: true, repeated: true)],
            options: [.flag("--json", help: ""), .value("--record", "MODE", help: "", choices: ["all", "never"])], run: { _ in 0 })
        let parsed = try spec.parse(["a", "--record", "all", "--json", "b", "--record=never", "--", "--c"])
        #expect(parsed.operands == ["a", "b", "--c"])
        #expect(parsed.flag("--json"))
        #expect(parsed.value("--record") == "never")
        #expect(throws: UsageError.self) { try spec.parse(["--record", "some"]) }
        #expect(throws: UsageError.self) { try spec.parse(["--record"]) }
        #expect(throws: UsageError.self) { try spec.parse(["--json=1"]) }
    }
}

@Suite struct ExecutableTests {
    @Test func theRealBinaryReportsExitCodes() throws {
        let folder = try TemporaryFolder()
        try folder.write("smoking.json", CLIFixtures.survey)
        let scenario = try folder.write("a.scenario", "survey smoking.json\nanswer smoker \"No\"\nexpect current per_day\n")
        let result = try runBinary(["replay", scenario])
        #expect(result.status == 1)
        #expect(result.error.contains("expected the current question to be 'per_day', but it is 'done'"))
    }
}
