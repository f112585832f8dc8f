import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

@Suite("FHIR QuestionnaireResponse")
struct FHIRResponseTests {
    @Test("the header: questionnaire as url|version, status, authored from the scenario's day at midnight UTC")
    func header() throws {
        let survey = try loadQuestionnaire(questionnaireText([fhirItem("a", "string")], extra: #""status": "active", "url": "http://x/Q", "version": "2""#))
        let session = survey.makeSession(SessionSettings(today: testToday))
        session.play(.answer("a", "x"), .submit)
        let response = try #require(session.payload?.objectValue)
        #expect(response["resourceType"] == "QuestionnaireResponse")
        #expect(response["questionnaire"] == "http://x/Q|2")
        #expect(response["status"] == "completed")
        #expect(response["authored"] == "2026-11-22T00:00:00Z")
        #expect(response["item"] == [["linkId": "a", "answer": [["valueString": "x"]]]])
    }

    @Test("no payload before submit")
    func noPayloadBeforeSubmit() throws {
        let session = try fhirSession(fhirItem("a", "string"))
        session.play(.answer("a", "x"))
        #expect(session.payload == nil)
    }

    @Test("children of groups go under item.item, children of questions under answer.item of their answer")
    func nesting() throws {
        let session = try fhirSession(
            fhirItem("g", "group", items: [fhirItem("q", "boolean", items: [fhirItem("sub", "string")])]))
        session.play(.answer("q", true), .answer("sub", "s"), .submit)
        #expect(
            session.responseItems == [
                ["linkId": "g", "item": [["linkId": "q", "answer": [["valueBoolean": true, "item": [["linkId": "sub", "answer": [["valueString": "s"]]]]]]]]]
            ])
    }

    @Test("a repeating question is one item with several answers; a repeating group one sibling per instance")
    func repeats() throws {
        let session = try fhirSession(fhirItem("r", "integer", #""repeats": true"#), fhirItem("g", "group", #""repeats": true"#, items: [fhirItem("x", "string")]))
        session.play(.answer("r", [1, 2]), .answer("g#1/x", "a"), .add(group: "g"), .answer("g#2/x", "b"), .submit)
        #expect(
            session.responseItems == [
                ["linkId": "r", "answer": [["valueInteger": 1], ["valueInteger": 2]]],
                ["linkId": "g", "item": [["linkId": "x", "answer": [["valueString": "a"]]]]],
                ["linkId": "g", "item": [["linkId": "x", "answer": [["valueString": "b"]]]]],
            ])
    }

    @Test("disabled items, unanswered questions, display items and empty groups are left out; answers of disabled items are withheld")
    func omissions() throws {
        let session = try fhirSession(
            fhirItem("a", "boolean"), fhirItem("b", "string", enableWhen: [condition("a", "=", #""answerBoolean": true"#)]), fhirItem("note", "display"),
            fhirItem("empty", "group", items: [fhirItem("e", "string")]), fhirItem("unanswered", "string"))
        session.play(.answer("a", true), .answer("b", "kept?"), .answer("a", false), .submit)
        #expect(session.responseItems == [["linkId": "a", "answer": [["valueBoolean": false]]]])
    }

    @Test("status is completed only when every enabled required item is answered; a required group needs an answered descendant")
    func status() throws {
        func status(_ actions: [Action]) throws -> JSONValue? {
            let session = try fhirSession(
                fhirItem("a", "boolean", #""required": true"#), fhirItem("b", "string", #""required": true"#, enableWhen: [condition("a", "=", #""answerBoolean": true"#)]),
                fhirItem("g", "group", #""required": true"#, items: [fhirItem("x", "string"), fhirItem("y", "string")]))
            session.play(actions + [.submit])
            return session.payload?.objectValue?["status"]
        }
        #expect(try status([]) == "in-progress")
        #expect(try status([.answer("a", false)]) == "in-progress")
        #expect(try status([.answer("a", false), .answer("y", "1")]) == "completed")
        #expect(try status([.answer("a", true), .answer("y", "1")]) == "in-progress")
        #expect(try status([.answer("a", true), .answer("b", "z"), .answer("x", "1")]) == "completed")
    }

    @Test("submit emits an event with the status")
    func submitEvent() throws {
        let session = try fhirSession(fhirItem("a", "string", #""required": true"#))
        let result = session.perform(.submit)
        #expect(result.events == [TraceEvent("submitted", detail: ["status": "in-progress"])])
    }

    @Test("import reads a response into instance ids, and replaying them gives the same answers")
    func importRoundTrip() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("g", "group", #""repeats": true"#, items: [fhirItem("x", "string")]),
                fhirItem("sym", "choice", #""repeats": true, "answerOption": [{"valueString": "fever"}, {"valueString": "rash"}]"#, items: [fhirItem("days", "integer")]),
            ]))
        let session = survey.makeSession(SessionSettings(today: testToday))
        session.play(.answer("g#1/x", "a"), .add(group: "g"), .answer("g#2/x", "b"), .answer("sym", ["fever", "rash"]), .answer("sym#2/days", 4), .submit)
        let payload = try #require(session.payload)
        let parsed = try JSONParser.parse(SourceFile(path: "r.json", text: CanonicalJSON.compact(payload)))
        let answers = try survey.answers(inPayload: JSONCursor(node: parsed))
        #expect(answers.map(\.question) == ["g#1/x", "g#2/x", "sym", "sym#2/days"])
        #expect(answers.map(\.value) == ["a", "b", ["fever", "rash"], 4])
    }

    @Test("the importer adds the repeating-group instances a response has, and the replay gives the same response")
    func importAddsInstances() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([fhirItem("a", "boolean"), fhirItem("g", "group", #""repeats": true"#, items: [fhirItem("x", "string")])]))
        let original = survey.makeSession(SessionSettings(today: testToday))
        original.play(.answer("a", true), .answer("g#1/x", "one"), .add(group: "g"), .answer("g#2/x", "two"), .add(group: "g"), .answer("g#3/x", "three"), .submit)
        let payload = try #require(original.payload)
        let parsed = try JSONParser.parse(SourceFile(path: "r.json", text: CanonicalJSON.compact(payload)))
        let imported = PayloadImporter(survey: survey, settings: SessionSettings(today: testToday)).importAnswers(try survey.answers(inPayload: JSONCursor(node: parsed)))
        #expect(imported.problems.isEmpty)
        #expect(imported.actions.filter { $0 == .add(group: "g") }.count == 2)
        let replay = survey.makeSession(SessionSettings(today: testToday))
        replay.play(imported.actions)
        #expect(replay.payload == payload)
    }

    @Test("the recorder's prompt and typed input: option numbers and codes, yes/no, numbers with units, lists for repeating items")
    func typedInput() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("c", "choice", #"\#(codingOptions(["a", "b"])), "repeats": true"#), fhirItem("flag", "boolean"), fhirItem("w", "quantity"),
                fhirItem("d", "date", #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/entryFormat", "valueString": "YYYY-MM-DD"}]"#),
            ]))
        let prompt = try #require(survey.prompt(for: "c", settings: SessionSettings()))
        #expect(prompt.choices == ["a (A)", "b (B)"])
        #expect(prompt.kind == "choice (repeats)")
        #expect(survey.prompt(for: "d", settings: SessionSettings())?.hint.contains("entry format YYYY-MM-DD") == true)
        #expect(try survey.interpretInput("2, a", for: "c").get() == [["system": "http://example.org/s", "code": "b", "display": "B"], ["system": "http://example.org/s", "code": "a", "display": "A"]])
        #expect(try survey.interpretInput("yes", for: "flag").get() == true)
        #expect(try survey.interpretInput("70 kg", for: "w").get() == ["value": 70, "unit": "kg"])
        #expect(throws: InputProblem.self) { try survey.interpretInput("maybe", for: "flag").get() }
    }
}
