import Foundation
import Testing
import SurveyCore
@testable import SurveyReplayCLI

@Suite struct FuzzCommandTests {
    /// The hidden-answer hazard of SurveyNative in three questions.
    static let survey = """
        {"questions": [
          {"id": "pets", "question_type": "single_select", "options": ["Yes", "No"]},
          {"id": "names", "question_type": "add_text_field", "show_if": {"id": "pets", "operation": "equals", "value": "Yes"}},
          {"id": "done", "question_type": "single_select", "options": ["Yes"]}
        ],
        "submit": {"button_title": "Send", "url": "https://example.org"}}
        """

    @Test func hazardsWarnByDefaultAndFailWithStrict() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("pets.json", Self.survey)
        let result = runCLI(["fuzz", survey, "--walks", "60", "--seed", "3"])
        #expect(result.status == 0)
        #expect(result.out.contains("walks 60, steps "))
        #expect(result.out.contains("findings: 0 engine errors, 1 survey hazards, 0 properties"))
        #expect(result.out.contains("warning survey hazard hidden-answer-submitted ('names')"))
        #expect(result.out.contains("  replay: survey-replay fuzz \(survey) --replay sr1-"))
        #expect(runCLI(["fuzz", survey, "--walks", "60", "--seed", "3", "--strict"]).status == 1)
    }

    @Test func savesShrunkScenariosThatReplay() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("surveys/pets.json", Self.survey)
        let saved = folder.path + "/found"
        #expect(runCLI(["fuzz", survey, "--walks", "60", "--seed", "3", "--save-failures", saved]).status == 0)
        let scenario = saved + "/hidden-answer-submitted-names.scenario"
        let text = try #require(FileManager.default.contents(atPath: scenario).map { String(decoding: $0, as: UTF8.self) })
        #expect(text.contains("survey ../surveys/pets.json\n"))
        #expect(text.hasPrefix("# Found by survey-replay fuzz --seed 3, walk "))
        let replayed = runCLI(["replay", "--json", scenario])
        #expect(replayed.status == 0)
        #expect(replayed.out.contains("\"names\""))
    }

    @Test func reportsAsJSONAndJUnit() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("pets.json", Self.survey)
        let junit = folder.path + "/fuzz.xml"
        let result = runCLI(["fuzz", survey, "--walks", "40", "--json", "--junit", junit])
        let json = try JSONParser.parse(SourceFile(path: "out", text: result.out)).plain
        #expect(json.objectValue?["walks"] == 40)
        #expect(json.objectValue?["findings"]?.arrayValue?.first?.objectValue?["property"] == "hidden-answer-submitted")
        let xml = try #require(FileManager.default.contents(atPath: junit).map { String(decoding: $0, as: UTF8.self) })
        #expect(xml.contains("<testsuites name=\"survey-replay\" tests=\"2\" failures=\"0\" errors=\"0\""))
        #expect(xml.contains("<system-out>warning: the payload holds an answer to &apos;names&apos;"))
    }

    @Test func aPropertyFailureFailsTheRun() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("pets.json", Self.survey)
        let properties = try folder.write("pets.properties", """
            # Pet names are only sent by pet owners.
            payload never contains names unless {"id":"pets","operation":"equals","value":"Yes"}
            """)
        let result = runCLI(["fuzz", survey, "--walks", "60", "--seed", "3", "--properties", properties])
        #expect(result.status == 1)
        #expect(result.out.contains("FAIL property Pet names are only sent by pet owners. ('names'): the payload contains 'names'"))
        #expect(result.out.contains("--properties \(properties)"))
    }

    @Test func shardingSplitsTheWalks() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("pets.json", Self.survey)
        func steps(_ arguments: [String]) -> Int {
            let out = runCLI(["fuzz", survey, "--walks", "30", "--json"] + arguments).out
            return Int((try? JSONParser.parse(SourceFile(path: "o", text: out)).plain.objectValue?["steps"]?.numberValue) ?? -1)
        }
        #expect(steps(["--shard", "1/2"]) + steps(["--shard", "2/2"]) == steps([]))
        #expect(runCLI(["fuzz", survey, "--shard", "3/2"]).status == 2)
        #expect(runCLI(["fuzz", survey, "--replay", "nonsense"]).error.contains("is not a replay token"))
        #expect(runCLI(["fuzz", survey, "--walks", "0"]).status == 2)
    }
}

@Suite struct CompareCommandTests {
    @Test func reportsTheShortestDifferingPathAndExitsOne() throws {
        let folder = try TemporaryFolder()
        let old = try folder.write("old.json", FuzzCommandTests.survey)
        let new = try folder.write("new.json", FuzzCommandTests.survey.replacingOccurrences(of: "\"value\": \"Yes\"}", with: "\"value\": \"No\"}"))
        let result = runCLI(["compare", old, new, "--walks", "30", "--save", folder.path + "/diffs"])
        #expect(result.status == 1)
        #expect(result.out.contains("1 difference:"))
        #expect(result.out.contains("names: after 'answer pets \"Yes\"', only the old version shows names"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/diffs/differs-at-names.scenario"))
        #expect(runCLI(["compare", old, old, "--walks", "10"]).out.contains("no difference found"))
    }
}
