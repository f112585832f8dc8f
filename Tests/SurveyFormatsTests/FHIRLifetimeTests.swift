import SurveyCore
import Testing

@testable import SurveyFormats

@Suite("FHIR surveys and sessions freed")
struct FHIRLifetimeTests {
    /// Loads a survey, walks a session of it and submits, and answers whether the survey outlived them.
    private func outlives(_ text: String, engine: FHIREngine) throws -> Bool {
        weak var freed: FHIRSurvey?
        do {
            let survey = try loadQuestionnaire(text)
            freed = survey
            let settings = SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: engine.rawValue])
            let session = try #require(survey.makeSession(settings) as? FHIRSession)
            for action: Action in [.answer(question: "a", value: 2), .answer(question: "b", value: 3), .submit] { _ = session.perform(action) }
            #expect(session.payload != nil)
        }
        return freed != nil
    }

    @Test("a survey is freed once its sessions are: nothing it caches (openings, responses, an SDC form's expressions) holds it back")
    func surveyFreed() throws {
        let plain = [fhirItem("a", "integer"), fhirItem("b", "integer", enableWhen: [condition("a", "exists", #""answerBoolean": true"#)])]
        let sdc = [
            fhirItem("a", "integer"), fhirItem("b", "integer"),
            fhirItem("sum", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("a")) + \(answerOf("b"))"))),
        ]
        for items in [plain, sdc] {
            for engine in [FHIREngine.lhcForms, .androidFHIR] {
                #expect(try !outlives(questionnaireText(items, extra: #""status": "active""#), engine: engine), "\(engine)")
            }
        }
    }
}
