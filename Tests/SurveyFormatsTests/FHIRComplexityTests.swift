import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

/// The work an R4 session does, counted in enablement decisions: a step decides the instances that read what
/// changed and those they change in turn, whatever the size of the form; a session starts from the form's
/// opening, worked out once per engine reading.
@Suite("FHIR sessions: the work of a step does not grow with the form")
struct FHIRComplexityTests {
    /// `copies` copies of a block of five items: a gate, two items it enables, one enabled by those, and a
    /// question none reads.
    private func blocks(_ copies: Int) throws -> FHIRSurvey {
        let items = (0..<copies).flatMap { copy in
            [
                fhirItem("gate\(copy)", "boolean"),
                fhirItem("a\(copy)", "string", enableWhen: [condition("gate\(copy)", "=", #""answerBoolean": true"#)]),
                fhirItem("b\(copy)", "integer", enableWhen: [condition("gate\(copy)", "=", #""answerBoolean": true"#)]),
                fhirItem("c\(copy)", "string", enableWhen: [condition("a\(copy)", "exists", #""answerBoolean": true"#), condition("b\(copy)", ">", #""answerInteger": 2"#)], behavior: "any"),
                fhirItem("free\(copy)", "string"),
            ]
        }
        return try loadQuestionnaire(questionnaireText(items))
    }

    @Test("answering a gate decides its readers and what they change, in a form of 50 items or of 50,000", arguments: [10, 10_000])
    func stepCostIsLocal(copies: Int) throws {
        let session = try #require(try blocks(copies).makeSession(SessionSettings()) as? FHIRSession)
        let gate = "gate\(copies / 2)"
        var before = session.decisions
        session.play(.answer(gate, true))
        // The gate itself, a and b (enabled now), then c (a reader of a and b, answered or not).
        #expect(session.decisions - before <= 4)
        before = session.decisions
        session.play(.answer("a\(copies / 2)", "x"))
        #expect(session.decisions - before <= 2)
        before = session.decisions
        session.play(.answer("free\(copies / 2)", "y"), .next(question: nil), .back)
        #expect(session.decisions - before <= 1)
        before = session.decisions
        session.play(.answer(gate, false))
        #expect(session.decisions - before <= 4)
        #expect(session.visibleCount == copies * 2)
    }

    @Test("what answering writes of an instance takes 12 bytes, so a session copying it from the opening copies 1.5 KB chunks")
    func slotStateStaysSmall() {
        #expect(MemoryLayout<FHIRSlotState>.stride == 12)
    }

    @Test("sessions after the first start from the shared opening: no decision at all")
    func openingIsShared() throws {
        let survey = try blocks(1_000)
        let first = try #require(survey.makeSession(SessionSettings()) as? FHIRSession)
        let second = try #require(survey.makeSession(SessionSettings()) as? FHIRSession)
        #expect(first.decisions == 0 && second.decisions == 0)
        let android = try #require(survey.makeSession(SessionSettings(options: ["engine": "android-fhir"])) as? FHIRSession)
        #expect(android.decisions == 0 && android.visibleCount == first.visibleCount)
    }

    @Test("a form with SDC expressions opens once per settings for sessions that record no coverage; with coverage it opens anew")
    func expressionOpeningIsShared() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("a", "integer", #""initial": [{"valueInteger": 2}]"#),
                fhirItem("b", "integer", #""extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression", "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.where(linkId = 'a').answer.value + 1"}}]"#),
                fhirItem("c", "string", enableWhen: [condition("b", ">", #""answerInteger": 2"#)]),
                fhirItem("d", "date", #""extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression", "valueExpression": {"language": "text/fhirpath", "expression": "today()"}}]"#),
            ]))
        let settings = SessionSettings(today: testToday)
        let first = try #require(survey.makeSession(settings) as? FHIRSession)
        let second = try #require(survey.makeSession(settings) as? FHIRSession)
        #expect(first.decisions == 0 && second.decisions == 0)
        #expect(second.visibleQuestions == ["a", "b", "c", "d"] && second.answer(for: "b") == 3)
        #expect(second.answer(for: "d") == .string("\(testToday)"))
        #expect(second.startEvents == first.startEvents && !second.startEvents.isEmpty)
        let recorded = try #require(survey.makeSession(settings, coverage: CoverageRecorder(plan: survey.coveragePlan())) as? FHIRSession)
        #expect(recorded.decisions > 0 && recorded.visibleQuestions == second.visibleQuestions && recorded.startEvents == second.startEvents)
        // Other settings (another day here) have an opening of their own.
        let later = try #require(survey.makeSession(SessionSettings(today: CalendarDate(year: 2027, month: 3, day: 1))) as? FHIRSession)
        #expect(later.answer(for: "d") == "2027-03-01" && second.answer(for: "d") == .string("\(testToday)"))
    }

    @Test("a cycle without a fixpoint goes round a cycle of passes, skipped up to the bound: a step decides a handful, not a pass per conditional item")
    func oscillationIsSkipped() throws {
        let padding = (0..<2_000).map { fhirItem("pad\($0)", "display", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)]) }
        let survey = try loadQuestionnaire(
            questionnaireText(
                [
                    fhirItem("gate", "boolean"),
                    fhirItem("p", "string", enableWhen: [condition("q", "exists", #""answerBoolean": false"#)]),
                    fhirItem("q", "string", enableWhen: [condition("p", "exists", #""answerBoolean": true"#)]),
                ] + padding))
        let session = try #require(survey.makeSession(SessionSettings()) as? FHIRSession)
        session.play(.answer("p", "x"))
        let before = session.decisions
        let result = session.perform(.answer("q", "y"))
        #expect(result.has(event: "enablement_unsettled"))
        #expect(session.decisions - before < 40)
        // The bound (2,002 conditional items + 2 passes) is even: p and q end as they started the first pass.
        let reference = FHIRReferenceSession(survey: survey, settings: SessionSettings(), coverage: nil)
        _ = reference.perform(.answer("p", "x"))
        _ = reference.perform(.answer("q", "y"))
        #expect(session.visibleQuestions == reference.visibleQuestions)
    }
}
