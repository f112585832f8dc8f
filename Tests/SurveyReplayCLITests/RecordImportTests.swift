import Foundation
import Testing
import SurveyCore
import SurveyFormats
@testable import SurveyHarness
@testable import SurveyReplayCLI

@Suite struct RecorderTests {
    private func record(_ inputs: [String], survey: any Survey) -> (actions: [Action], output: String) {
        var lines = inputs[...]
        var output = ""
        let actions = Recorder(survey: survey, settings: SessionSettings(today: CalendarDate(year: 2026, month: 11, day: 22)))
            .run(read: { lines.popFirst() }, write: { output += $0 })
        return (actions, output)
    }

    private func survey() throws -> any Survey {
        try FormatRegistry.standard.load(SourceFile(path: "smoking.json", text: CLIFixtures.survey))
    }

    @Test func typedAnswersAndCommandsBecomeActions() throws {
        let (actions, output) = record(["1", "abc", ":goto smoker", "2", "1", ":help", ":submit"], survey: try survey())
        #expect(actions == [
            .answer(question: "smoker", value: "Yes"), .answer(question: "per_day", value: "abc"), .goto(question: "smoker"),
            .answer(question: "smoker", value: "No"), .answer(question: "done", value: "Yes"), .submit,
        ])
        #expect(output.contains("smoker: Do you smoke? [single_select]\n  1. Yes\n  2. No\n"))
        #expect(output.contains(":goto ID"))
    }

    @Test func doTakesAnyScenarioLine() throws {
        let (actions, output) = record([":do answer smoker \"No\"", ":do wait 3x", ":do", ":do launch", ":do next done"], survey: try survey())
        #expect(actions == [.answer(question: "smoker", value: "No"), .next(question: "done")])
        #expect(output.contains("'3x' is not a duration"))
        #expect(output.contains("'' is not an action; expected a scenario line such as 'back' or 'add vitals'"))
        #expect(output.contains("not possible in this survey: SurveyNative surveys have no app lifecycle"))
    }

    @Test func explainsWhatItCannotDoAndKeepsGoing() throws {
        let (actions, output) = record(["7", ":goto nowhere", ":back", ":custom", ":bogus", ":submit", ":quit", "1"], survey: try survey())
        #expect(actions == [.submit])
        #expect(output.contains("there is no option 7; pick 1…2"))
        #expect(output.contains("not possible in this survey: the survey has no question 'nowhere'"))
        #expect(output.contains("there is no visible question before this one"))
        #expect(output.contains("usage: :custom KEY true|false"))
        #expect(output.contains("unknown command ':bogus'"))
        #expect(output.contains("refused: Submit is not shown yet"))
    }

    @Test func aRecordingPipedThroughTheCommandReplaysToTheSameTrace() throws {
        let folder = try TemporaryFolder()
        let surveyPath = try folder.write("surveys/smoking.json", CLIFixtures.survey)
        let scenarioPath = folder.path + "/scenarios/new.scenario"
        let recorded = try runBinary(["record", surveyPath, "-o", scenarioPath, "--today", "2026-11-22"], input: "1\n:submit\n12\n1\n:submit\n")
        #expect(recorded.status == 0)

        let text = try #require(FileManager.default.contents(atPath: scenarioPath).map { String(decoding: $0, as: UTF8.self) })
        #expect(text == """
            # Recorded with survey-replay record from \(surveyPath); the clock is set by --today.
            survey ../surveys/smoking.json
            today 2026-11-22
            answer smoker "Yes"
            submit
            answer per_day "12"
            answer done "Yes"
            submit

            """)
        let replayed = runCLI(["replay", scenarioPath])
        #expect(replayed.status == 0)
        #expect(replayed.out.contains("step 5: submit\n  ok\n  event: submitted"))
    }
}

@Suite struct ImportTests {
    @Test func aPayloadBecomesAScenarioThatReproducesIt() throws {
        let folder = try TemporaryFolder()
        try folder.write("smoking.json", CLIFixtures.survey)
        let payload = #"{"answers": {"smoker": "Yes", "per_day": "12", "done": "Yes"}}"#
        let payloadPath = try folder.write("payload.json", payload)
        let scenarioPath = folder.path + "/imported.scenario"
        let result = runCLI(["import", payloadPath, "--survey", folder.path + "/smoking.json", "-o", scenarioPath, "--today", "2026-11-22"])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        let replayed = runCLI(["replay", "--json", scenarioPath])
        let trace = try JSONParser.parse(SourceFile(path: "out", text: replayed.out)).plain
        let original = try JSONParser.parse(SourceFile(path: "p", text: payload)).plain
        #expect(trace.objectValue?["payload"] == original)
    }

    @Test func answersTheSurveyCannotReachAreReported() throws {
        let folder = try TemporaryFolder()
        try folder.write("smoking.json", CLIFixtures.survey)
        let payloadPath = try folder.write("payload.json", #"{"answers": {"smoker": "No", "per_day": "12", "done": "Yes", "ghost": "1"}}"#)
        let result = runCLI(["import", payloadPath, "--survey", folder.path + "/smoking.json", "--today", "2026-11-22"])
        #expect(result.status == 1)
        #expect(result.out.contains("answer smoker \"No\"\nanswer done \"Yes\"\nsubmit\n"))
        #expect(result.error.contains("warning: 'per_day' = \"12\": the survey never shows this question on the path the other answers take"))
        #expect(result.error.contains("warning: 'ghost': the survey has no such question"))
    }

    @Test func aMalformedPayloadIsALocatedError() throws {
        let folder = try TemporaryFolder()
        try folder.write("smoking.json", CLIFixtures.survey)
        let payloadPath = try folder.write("payload.json", "{\n  \"answer\": {}\n}")
        let result = runCLI(["import", payloadPath, "--survey", folder.path + "/smoking.json"])
        #expect(result.status == 2)
        #expect(result.error.contains("\(payloadPath):1:1: error: the payload has no \"answers\"; expected one"))
        #expect(runCLI(["import", payloadPath]).error.contains("missing --survey SURVEY"))
    }
}
