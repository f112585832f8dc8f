import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

/// `import` of a QuestionnaireResponse never loses an answer silently: what a scenario cannot reproduce is
/// listed at its place in the response with why (docs/fhir.md, "Import").
@Suite("FHIR import")
struct FHIRImportTests {
    static let repeatingGroup = [
        fhirItem("flag", "boolean"),
        fhirItem("trip", "group", #""repeats": true"#, items: [fhirItem("country", "string")]),
        fhirItem("note", "string", enableWhen: [condition("flag", "=", #""answerBoolean": true"#)]),
        fhirItem("weight", "decimal"),
    ]

    private func read(_ items: [String], _ response: String, settings: SessionSettings = SessionSettings(today: testToday)) throws -> (FHIRSurvey, PayloadReading) {
        let survey = try loadQuestionnaire(questionnaireText(items))
        let reading = try survey.readPayload(JSONCursor(node: JSONParser.parse(SourceFile(path: "r.json", text: response))), settings: settings)
        return (survey, reading)
    }

    private func imported(_ items: [String], _ response: String) throws -> PayloadImporter.Result {
        let (survey, reading) = try read(items, response)
        return PayloadImporter(survey: survey, settings: SessionSettings(today: testToday)).importPayload(reading)
    }

    @Test("a value an SDC calculatedExpression computes, read-only, is reproduced by the replay computing it: not listed; a different one is")
    func calculatedValues() throws {
        let items = [fhirItem("a", "integer"), fhirItem("double", "integer", #""readOnly": true, "# + extensions(calculated("%resource.item.where(linkId='a').answer.value * 2")))]
        func response(_ double: Int) -> String {
            #"{"resourceType": "QuestionnaireResponse", "status": "completed", "item": [{"linkId": "a", "answer": [{"valueInteger": 4}]}, {"linkId": "double", "answer": [{"valueInteger": \#(double)}]}]}"#
        }
        let same = try imported(items, response(8))
        #expect(same.problems.isEmpty)
        #expect(same.actions == [.answer(question: "a", value: 4), .submit])
        let other = try imported(items, response(9))
        #expect(other.problems.count == 1 && other.problems[0].message.contains("read-only"))
    }

    @Test("a response whose questionnaire is a Reference is still read the r4 way under r4: repeating-group siblings are instances; only the c3pro profile reads C3-PRO's way")
    func referenceDoesNotSwitchTheReading() throws {
        let response = #"""
            {"resourceType": "QuestionnaireResponse", "status": "completed", "questionnaire": {"reference": "Questionnaire/x"},
             "item": [{"linkId": "trip", "item": [{"linkId": "country", "answer": [{"valueString": "KE"}]}]},
                      {"linkId": "trip", "item": [{"linkId": "country", "answer": [{"valueString": "UG"}]}]}]}
            """#
        let (_, r4) = try read(Self.repeatingGroup, response)
        #expect(r4.answers.map(\.question) == ["trip#1/country", "trip#2/country"])
        #expect(r4.problems.isEmpty)
        let (_, c3pro) = try read(Self.repeatingGroup, response, settings: SessionSettings(today: testToday, profile: "c3pro"))
        #expect(c3pro.answers.map(\.question) == ["country", "country"])
    }

    @Test("a response that repeats a non-repeating group or item lists each answer the scenario cannot reproduce, at its place, and import reports it")
    func repeatedNonRepeating() throws {
        let items = [fhirItem("g", "group", items: [fhirItem("x", "string")]), fhirItem("y", "string")]
        let response = #"""
            {"resourceType": "QuestionnaireResponse", "status": "completed", "item": [
              {"linkId": "g", "item": [{"linkId": "x", "answer": [{"valueString": "first"}]}]},
              {"linkId": "g", "item": [{"linkId": "x", "answer": [{"valueString": "second"}]}]},
              {"linkId": "y", "answer": [{"valueString": "one"}]},
              {"linkId": "y", "answer": [{"valueString": "two"}]}]}
            """#
        let result = try imported(items, response)
        #expect(result.actions == [.answer(question: "x", value: "first"), .answer(question: "y", value: "one"), .submit])
        let problems = result.problems.map(\.description)
        #expect(problems == [
            "r.json:3:55: warning: valueString \"second\" is not reproduced: the response repeats 'g', which does not repeat (the Questionnaire has 1 group item 'g' here): the scenario cannot reproduce its item 2",
            "r.json:5:30: warning: valueString \"two\" is not reproduced: the response repeats 'y', which does not repeat (the Questionnaire has 1 string item 'y' here): the scenario cannot reproduce its item 2",
        ])
    }

    @Test(
        "invalid responses are listed with their reason: several answers on an item that does not repeat, valueQuantity on a decimal item, an item the Questionnaire lacks, an answer its own answers disable")
    func invalidResponses() throws {
        let response = #"""
            {"resourceType": "QuestionnaireResponse", "status": "completed", "item": [
              {"linkId": "flag", "answer": [{"valueBoolean": false}, {"valueBoolean": true}]},
              {"linkId": "weight", "answer": [{"valueQuantity": {"value": 70, "unit": "kg"}}]},
              {"linkId": "ghost", "answer": [{"valueString": "boo"}]},
              {"linkId": "note", "answer": [{"valueString": "hidden"}]}]}
            """#
        let result = try imported(Self.repeatingGroup, response)
        #expect(result.actions == [.answer(question: "flag", value: false), .submit])
        let problems = result.problems.map(\.description)
        #expect(problems.count == 4)
        #expect(problems[0].hasPrefix("r.json:2:58: warning: valueBoolean true is not reproduced: 'flag' does not repeat, yet the response gives it several answers"))
        #expect(problems[1].hasPrefix("r.json:3:35: warning: valueQuantity {\"unit\":\"kg\",\"value\":70} is not reproduced: valueQuantity on the decimal item 'weight', whose answers are valueDecimal"))
        #expect(problems[2].hasPrefix("r.json:4:34: warning: valueString \"boo\" is not reproduced: the Questionnaire has no item 'ghost'"))
        #expect(problems[3] == "r.json:5:32: warning: 'note' = \"hidden\": the survey never shows this question on the path the other answers take: 'note' is disabled: its enableWhen is false")
    }

    @Test("items without a linkId (C3-PRO's STU3 wrappers) are listed under r4 with every answer inside them")
    func itemsWithoutLinkId() throws {
        let response = #"""
            {"resourceType": "QuestionnaireResponse", "status": "completed", "questionnaire": {"reference": "x"},
             "item": [{"item": [{"linkId": "flag", "answer": [{"valueBoolean": true}]}]}]}
            """#
        let (_, reading) = try read(Self.repeatingGroup, response)
        #expect(reading.answers.isEmpty)
        #expect(reading.problems.map(\.message) == ["valueBoolean true is not reproduced: the response item has no linkId, which R4 requires (1..1), so the Questionnaire item it answers is unknown"])
    }

    @Test("items of a question in item.item (qrs-1) are read under a question that does not repeat, listed under one that does")
    func itemsUnderQuestionItem() throws {
        let items = [
            fhirItem("q", "string", items: [fhirItem("why", "string")]),
            fhirItem("r", "string", #""repeats": true"#, items: [fhirItem("when", "string")]),
        ]
        let response = #"""
            {"resourceType": "QuestionnaireResponse", "status": "completed", "item": [
              {"linkId": "q", "answer": [{"valueString": "a"}], "item": [{"linkId": "why", "answer": [{"valueString": "b"}]}]},
              {"linkId": "r", "answer": [{"valueString": "c"}], "item": [{"linkId": "when", "answer": [{"valueString": "d"}]}]}]}
            """#
        let (_, reading) = try read(items, response)
        #expect(reading.answers.map(\.question) == ["q", "why", "r"])
        #expect(reading.problems.count == 1 && reading.problems[0].message.contains("R4 puts items under a question in answer.item"))
    }
}
