import Foundation
import Testing

@Suite struct CompareProfilesCommandTests {
    /// a → b → c: with a = false, r4 hides c (b is disabled, so unanswered) and c3pro shows it (b has no result).
    static let chain = """
        {"resourceType": "Questionnaire", "status": "active", "item": [
          {"linkId": "a", "type": "boolean", "required": true},
          {"linkId": "b", "type": "boolean", "required": true, "enableWhen": [{"question": "a", "operator": "=", "answerBoolean": true}]},
          {"linkId": "c", "type": "string", "enableWhen": [{"question": "b", "operator": "=", "answerBoolean": true}]}
        ]}
        """

    @Test func comparesOneSurveyUnderTwoProfilesAndSavesThePathUnderItsProfile() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("chain.json", Self.chain)
        let result = runCLI(["compare", survey, "--profiles", "r4,c3pro", "--walks", "30", "--save", folder.path + "/diffs"])
        #expect(result.status == 1)
        #expect(result.out.contains("c: given the answers r4 submits, only c3pro shows c"))
        let saved = try String(contentsOfFile: folder.path + "/diffs/differs-at-c.scenario", encoding: .utf8)
        #expect(saved.contains("profile r4\nanswer a false\nsubmit\n"))
        let json = runCLI(["compare", survey, "--profiles", "r4,c3pro", "--walks", "30", "--json"]).out
        #expect(json.contains("\"profiles\": [\n    \"r4\",\n    \"c3pro\"\n  ]"))
    }

    @Test func profilesNeedTwoKnownNamesAndOneSurveyNeedsProfiles() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("chain.json", Self.chain)
        #expect(runCLI(["compare", survey]).status == 2)
        #expect(runCLI(["compare", survey, "--profiles", "r4"]).status == 2)
        let unknown = runCLI(["compare", survey, "--profiles", "r4,c3po"])
        #expect(unknown.status == 2 && unknown.error.contains("did you mean 'c3pro'"))
        #expect(runCLI(["compare", survey, "--profiles", "r4,c3pro", "--profile", "c3pro"]).status == 2)
        #expect(runCLI(["compare", survey, "--profiles", "c3pro,c3pro", "--walks", "10"]).out.contains("no difference found"))
    }
}
