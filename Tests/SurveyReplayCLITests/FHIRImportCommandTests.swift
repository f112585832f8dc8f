import Foundation
import Testing

@testable import SurveyReplayCLI

@Suite("import of a QuestionnaireResponse")
struct FHIRImportCommandTests {
    static let questionnaire = #"""
        {"resourceType": "Questionnaire", "status": "active", "item": [
          {"linkId": "g", "type": "group", "item": [{"linkId": "x", "type": "string"}]},
          {"linkId": "trip", "type": "group", "repeats": true, "item": [{"linkId": "country", "type": "string"}]}]}
        """#

    @Test("a response repeating a non-repeating group: the scenario keeps what it can, each lost answer is listed at its line and column, and import exits 1")
    func repeatedGroupExitsOne() throws {
        let folder = try TemporaryFolder()
        let surveyPath = try folder.write("q.json", Self.questionnaire)
        let payloadPath = try folder.write(
            "r.json",
            #"""
            {"resourceType": "QuestionnaireResponse", "status": "completed", "questionnaire": {"reference": "Questionnaire/q"}, "item": [
              {"linkId": "g", "item": [{"linkId": "x", "answer": [{"valueString": "first"}]}]},
              {"linkId": "g", "item": [{"linkId": "x", "answer": [{"valueString": "second"}]}]},
              {"linkId": "trip", "item": [{"linkId": "country", "answer": [{"valueString": "KE"}]}]},
              {"linkId": "trip", "item": [{"linkId": "country", "answer": [{"valueString": "UG"}]}]}]}
            """#)
        let result = runCLI(["import", payloadPath, "--survey", surveyPath, "--today", "2026-11-22"])
        #expect(result.status == 1)
        #expect(result.out.contains("answer x \"first\"\nanswer \"trip#1/country\" \"KE\"\nadd trip\nanswer \"trip#2/country\" \"UG\"\nsubmit\n"))
        #expect(result.error == "\(payloadPath):3:55: warning: valueString \"second\" is not reproduced: the response repeats 'g', which does not repeat (the Questionnaire has 1 group item 'g' here): the scenario cannot reproduce its item 2\n")
    }
}
