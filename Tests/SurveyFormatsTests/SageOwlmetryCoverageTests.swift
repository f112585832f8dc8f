import SurveyCore
import Testing

@testable import SurveyFormats

/// The coverage plans: Sage rules matched and not, jumps taken or cancelled, how the task ended; Owlmetry
/// triggers, consent outcomes, questions, options and ends.
@Suite("Sage and Owlmetry coverage")
struct SageOwlmetryCoverageTests {
    @Test("a Sage rule's match, its jump and the task's end are recorded; a jump no other rule can cancel cannot be false")
    func sageBranches() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#)]), instruction("b"), instruction("c")])
        let survey = try loadSurvey(text: text)
        let plan = survey.coveragePlan()
        #expect(plan.decisions.map(\.kind) == ["rule 1 matches", "target 'c' taken"])
        #expect(plan.decisions[1].impossible[false] == "no other rule of the step can cancel it")
        #expect(plan.questions.map(\.id) == ["a"])
        let recorder = CoverageRecorder(plan: plan)
        let session = survey.makeSession(SessionSettings(today: testToday), coverage: recorder)
        session.play(.answer("a", 1), .tapNext, .tapNext)
        #expect(recorder.counts.decisions == [[0, 1], [0, 1]])
        #expect(recorder.counts.terminals == [1, 0, 0])
        #expect(recorder.counts.questions[0] == [1, 0, 1])
    }

    @Test("legacy rules that cancel record their jumps as not taken")
    func sageCancelledJumps() throws {
        let rules = #""surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "b"}, {"matchingAnswer": 1, "ruleOperator": "le", "skipToIdentifier": "c"}]"#
        let survey = try loadSurvey(text: sageTask([form("a", inputField("x", "integer", rules)), instruction("b"), instruction("c")]))
        let recorder = CoverageRecorder(plan: survey.coveragePlan())
        survey.makeSession(SessionSettings(today: testToday), coverage: recorder).play(.answer("a", 1), .tapNext)
        #expect(recorder.counts.decisions == [[0, 1], [1, 0], [0, 1], [1, 0]])
    }

    @Test("Owlmetry records the launch trigger, the consent outcome, questions, options and the submission")
    func owlmetryBranches() throws {
        let survey = try loadSurvey(text: OwlmetryTests.schema)
        let plan = survey.coveragePlan()
        #expect(plan.choices.prefix(3).map(\.description) == ["consent accept", "consent later", "consent never"])
        let recorder = CoverageRecorder(plan: plan)
        let session = survey.makeSession(SessionSettings(today: testToday), coverage: recorder)
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .answer("q_pick", "no"), .tapNext, .submit)
        #expect(recorder.counts.decisions[0] == [0, 1])
        #expect(recorder.counts.choices == [1, 0, 0, 0, 1])
        #expect(recorder.counts.questions.map { $0[0] } == [1, 1, 1])
        #expect(recorder.counts.terminals[0] == 1)
    }
}

/// `import` reads the answers back out of each format's payload.
@Suite("Sage and Owlmetry payload import")
struct SageOwlmetryImportTests {
    @Test("a task result gives back each answered step on the path, sections and forms included")
    func sageResult() throws {
        let section = #"{"identifier": "s", "type": "section", "steps": [\#(simpleQuestion("q"))]}"#
        let survey = try loadSurvey(text: sageTask([form("f", inputField("x", "integer"), inputField("y", "string", #""optional": true"#)), section]))
        let session = survey.makeSession(SessionSettings(today: testToday))
        session.play(.answer("f", ["x": 2]), .tapNext, .answer("s/q", 5), .submit)
        let payload = try #require(session.payload)
        let root = try JSONParser.parse(SourceFile(path: "result.json", text: CanonicalJSON.compact(payload)))
        let answers = try survey.answers(inPayload: JSONCursor(node: root))
        #expect(answers.map(\.question).sorted() == ["f", "s/q"])
        #expect(answers.first { $0.question == "f" }?.value == ["x": 2])
    }

    @Test("an Owlmetry payload gives back its merged answers")
    func owlmetryPayload() throws {
        let survey = try loadSurvey(text: OwlmetryTests.schema)
        let root = try JSONParser.parse(SourceFile(path: "p.json", text: #"{"answers": {"q_text": "hi", "q_nps": 3}}"#))
        let answers = try survey.answers(inPayload: JSONCursor(node: root))
        #expect(answers.map(\.question).sorted() == ["q_nps", "q_text"])
    }
}
