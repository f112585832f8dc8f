import SurveyCore
import Testing

@testable import SurveyFormats

/// Back as ResearchKit runs it under C3-PRO's conditional task, and what each path entry reports with the
/// ResearchKit C3-PRO pins by default (1.5.x–2.0.0: one result a visit) and with 1.4.x (its podspec) and 2.1 on
/// (one result a step).
@Suite("FHIR c3pro Back: ResearchKit's path, its duplicates, and which visit's answer counts")
struct FHIRC3PROBackTests {
    /// pain → pill (enabled by took, which comes after it: C3-PRO shows it while took has no result) → took
    /// (enabled by pain) → end.
    static let painItems = [
        fhirItem("pain", "boolean", #""required": true"#),
        fhirItem("pill", "string", #""required": true"#, enableWhen: [stu3Condition("took", #""answerBoolean": true"#)]),
        fhirItem("took", "boolean", #""required": true"#, enableWhen: [stu3Condition("pain", #""answerBoolean": true"#)]),
        fhirItem("end", "display", #""text": "Bye""#),
    ]

    // C3-PRO@e5790c52 ConditionalOrderedTask.swift:52-67 (the step before, in the task's order, whose requirements hold);
    // ResearchKit@44c88877 ResearchKit/Common/ORKTaskViewController.m:1271-1296 (Back removes the last entry), :929-931 (appends what it shows
    // unless it is the last entry)
    @Test("a Back that passes over a step removes only the last path entry and appends the step it lands on: q1, q2, q3 becomes q1, q2, q1")
    func backOverStep() throws {
        let session = try c3proSession(
            fhirItem("q1", "boolean", #""required": true"#), fhirItem("q2", "string", enableWhen: [stu3Condition("q3", #""answerBoolean": true"#)]),
            fhirItem("q3", "boolean", #""required": true"#), fhirItem("end", "display", #""text": "Bye""#))
        session.play(.answer("q1", true), .tapNext, .answer("q2", "x"), .tapNext, .answer("q3", false))
        #expect(session.visibleQuestions == ["q1", "q2", "q3"])
        let back = session.perform(.back)
        #expect(back.outcome == .ok)
        #expect(back.events == [
            TraceEvent("skipped_by_enableWhen", detail: ["q2"]), TraceEvent("back_appended", detail: ["step": "q1", "kept": ["q2"]]),
        ])
        #expect(session.visibleQuestions == ["q1", "q2", "q1"] && session.currentQuestion == "q1")
        // q2's entry stays in the task result with its answer.
        #expect(session.taskResult.map { session.task.steps[$0.step].id } == ["q1", "q2", "q1"])
        #expect(session.taskResult[1].answers == [FHIR.Value(.string, "x")])
        let findings = session.survey.makeStepChecker().check(session, after: .back, result: back)
        #expect(findings.map(\.property) == ["c3pro-back-keeps-path"])
        #expect(session.invariantViolation() == nil)
        // q3 left the path, so q2's requirement has no result again: Next shows q2 with its answer.
        session.play(.tapNext)
        #expect(session.visibleQuestions == ["q1", "q2", "q1", "q2"] && session.answer(for: "q2") == "x")
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKTaskViewController.m:1271-1296, :929-931
    @Test("a Back to the previous entry leaves no duplicate: the path is cut by one")
    func plainBack() throws {
        let session = try c3proSession(fhirItem("a", "boolean", #""required": true"#), fhirItem("b", "boolean", #""required": true"#))
        session.play(.answer("a", true), .tapNext)
        let back = session.perform(.back)
        #expect(back.outcome == .ok && back.events.isEmpty)
        #expect(session.visibleQuestions == ["a"] && session.answer(for: "a") == true)
    }

    /// pain true, pill "paracetamol", took false, Back (passes over pill to pain), Next, pill "ibuprofen", Next, took true, Next, Done.
    static func revisitedPill(_ options: [String: String]) throws -> FHIRC3PROSession {
        let session = try c3proSession(text: c3proText(painItems), options: options)
        session.play(.answer("pain", true), .tapNext, .answer("pill", "paracetamol"), .tapNext, .answer("took", false), .back)
        #expect(session.visibleQuestions == ["pain", "pill", "pain"])
        session.play(.tapNext)
        #expect(session.answer(for: "pill") == "paracetamol")
        session.play(.answer("pill", "ibuprofen"), .tapNext, .answer("took", true), .tapNext, .submit)
        #expect(session.visibleQuestions == ["pain", "pill", "pain", "pill", "took", "end"])
        return session
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKTaskViewController.m:694-740 (a result under "identifier:index" for each entry);
    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:132-157 (the first item per linkId is kept)
    @Test("with ResearchKit 1.5 (the default, as C3-PRO pins it) each entry keeps its own visit's answer and the first visit's answer is submitted")
    func firstVisitWins() throws {
        let session = try Self.revisitedPill([:])
        #expect(session.researchKit == .v1_5 && session.researchKit.keepsResultPerVisit)
        #expect(session.taskResult.map(\.answers.first?.json) == [true, "paracetamol", true, "ibuprofen", true, nil])
        #expect(session.responseItems == [
            ["linkId": "pain", "answer": [["valueBoolean": true]]], ["linkId": "pill", "answer": [["valueString": "paracetamol"]]],
            ["linkId": "took", "answer": [["valueBoolean": true]]],
        ])
        let findings = session.survey.makeStepChecker().check(session, after: .submit, result: StepResult(.ok))
        #expect(findings.map(\.property) == ["c3pro-first-visit-wins"])
    }

    // ResearchKit@29950b62 (2.1.0) ResearchKit/Common/ORKTaskViewController.m:693-737 (one result a step identifier); ResearchKit@c1493b9c (1.4.1,
    // C3-PRO's podspec pin) ResearchKit/Common/ORKTaskViewController.m:695-723 (the same, before 1.5 added "identifier:index")
    @Test("option researchkit 1.4 (C3-PRO's podspec) and 2.1+: every entry reports the step's last answer, so the last visit's answer is submitted")
    func lastVisitWins() throws {
        for value in ["1.4", "2.1+"] {
            let session = try Self.revisitedPill(["researchkit": value])
            #expect(!session.researchKit.keepsResultPerVisit, "\(value)")
            #expect(session.taskResult.map(\.answers.first?.json) == [true, "ibuprofen", true, "ibuprofen", true, nil], "\(value)")
            #expect(session.responseItems?.arrayValue?[1] == ["linkId": "pill", "answer": [["valueString": "ibuprofen"]]], "\(value)")
            let findings = session.survey.makeStepChecker().check(session, after: .submit, result: StepResult(.ok))
            #expect(findings.isEmpty, "\(value)")
        }
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKResult.m:1990-2015 (resultForIdentifier: searches from the end); C3-PRO ConditionalStep.swift:91
    @Test("a requirement reads its step's last entry: pain changed to false on its second entry hides took; with ResearchKit 1.5 the response still submits pain = true")
    func requirementReadsLastEntry() throws {
        for (options, submitted) in [([String: String](), true), (["researchkit": "2.1+"], false)] {
            let session = try c3proSession(text: c3proText(Self.painItems), options: options)
            session.play(.answer("pain", true), .tapNext, .answer("pill", "paracetamol"), .tapNext, .answer("took", false), .back)
            session.play(.answer("pain", false), .tapNext, .tapNext)
            #expect(session.visibleQuestions == ["pain", "pill", "pain", "pill", "end"], "\(options)")
            session.play(.submit)
            #expect(session.responseItems?.arrayValue?.first == ["linkId": "pain", "answer": [["valueBoolean": .bool(submitted)]]], "\(options)")
        }
    }
}
