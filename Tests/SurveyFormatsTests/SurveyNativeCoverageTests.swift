import Foundation
import SurveyCore
import Testing

@testable import SurveyFormats

/// Runs actions on a fresh session with a recorder and reports the branches' statuses by id.
private func coverage(_ questions: [String], _ actions: [Action]) throws -> CoverageReport {
    let survey = try loadSurvey(text: surveyText(questions))
    let recorder = CoverageRecorder(plan: survey.coveragePlan())
    let session = survey.makeSession(SessionSettings(today: testToday), coverage: recorder)
    for action in actions { _ = session.perform(action) }
    return CoverageReport(recorder)
}

extension CoverageReport {
    fileprivate func status(_ id: String) -> Status? { branches.first { $0.id == id }?.status }

    fileprivate var takenIDs: [String] { branches.filter(\.status.isTaken).map(\.id) }
}

@Suite("SurveyNative coverage: branches counted by hand")
struct SurveyNativeCoverageTests {
    /// smoker (Yes/No) → per_day shown if smoker is Yes, validated > 0 → done (Yes).
    let smoking = [
        select("smoker"),
        textField("per_day", validations(validation("greater than", 0, message: "At least 1")), showIf: when("smoker", "equals", "Yes")),
        select("done", ["Yes"]),
    ]

    @Test("the plan has each branch once: 2 decision, 2 leaf, 2 validation, 3 option, 6 question and 2 end branches")
    func planOfASmallSurvey() throws {
        let report = try coverage(smoking, [])
        #expect(report.branches.map(\.id) == [
            "decision:0:true", "decision:0:false", "leaf:0:true", "leaf:0:false", "validation:0:pass", "validation:0:fail",
            "choice:0", "choice:1", "choice:2",
            "question:0:shown", "question:0:answered", "question:1:shown", "question:1:answered", "question:2:shown", "question:2:answered",
            "terminal:0", "terminal:1",
        ])
        #expect(report.totals == (17, 1, 0))  // only smoker shown, before any action
        #expect(report.status("question:0:shown") == .taken(1))
    }

    @Test("answering No and submitting takes 10 of 17 branches; the validation is never reached, the Yes branches reached but not taken")
    func noPath() throws {
        let report = try coverage(smoking, [.answer("smoker", "No"), .answer("done", "Yes"), .submit])
        #expect(report.takenIDs == [
            "decision:0:false", "leaf:0:false", "choice:1", "choice:2",
            "question:0:shown", "question:0:answered", "question:2:shown", "question:2:answered", "terminal:0", "terminal:1",
        ])
        #expect(report.status("decision:0:true") == .notTaken)
        #expect(report.status("choice:0") == .notTaken)
        #expect(report.status("validation:0:pass") == .notReached)
        #expect(report.status("validation:0:fail") == .notReached)
        #expect(report.totals == (17, 10, 0))
        #expect(abs(report.percent - 1000.0 / 17) < 1e-9)
    }

    @Test("a failed answer, Next, then a passing answer: the validation fails twice and passes once")
    func yesPath() throws {
        // Answering "0" runs the validation (fails, silently; nothing stored). Next finishes the question,
        // storing "" as its answer, then validates that text (fails again; reference §5, §6). Answering "5"
        // passes once and is the second answer stored.
        let report = try coverage(smoking, [.answer("smoker", "Yes"), .answer("per_day", "0"), .next(question: nil), .answer("per_day", "5")])
        #expect(report.status("validation:0:fail") == .taken(2))
        #expect(report.status("validation:0:pass") == .taken(1))
        #expect(report.status("decision:0:true")?.isTaken == true)
        #expect(report.status("question:1:answered") == .taken(2))
        #expect(report.status("choice:1") == .notTaken)
    }

    @Test("a literal no answer can equal makes the branch impossible, with the reason, and uncounted")
    func impossibleLiteral() throws {
        let report = try coverage([select("a"), select("b", showIf: when("a", "equals", "Maybe"))], [])
        guard case .impossible(let reason)? = report.status("decision:0:true") else {
            Issue.record("decision:0:true should be impossible")
            return
        }
        #expect(reason.contains("\"Maybe\" is not a plain option"))
        #expect(report.status("decision:0:false") == .notReached)
        // b is top-level and reads an earlier, always shown question: it can never show either.
        #expect(report.status("question:1:shown")?.isImpossible == true)
        // Options of a question that never shows cannot be picked either.
        #expect(report.status("choice:2")?.isImpossible == true)
        #expect(
            report.branches.filter(\.status.isImpossible).map(\.id) == [
                "decision:0:true", "leaf:0:true", "choice:2", "choice:3", "question:1:shown", "question:1:answered",
            ])
        #expect(report.totals.impossible == 6)
    }

    @Test("a number compared with a string answer can never be true")
    func numberNeverEqualsAString() throws {
        let report = try coverage([textField("age"), select("b", showIf: when("age", "equals", 18))], [])
        guard case .impossible(let reason)? = report.status("leaf:0:true") else {
            Issue.record("leaf:0:true should be impossible")
            return
        }
        #expect(reason.contains("not a string"))
    }

    @Test("a leaf read on an unanswered question is counted apart, as not evaluable, not as false")
    func notEvaluable() throws {
        // Answering a evaluates q's show_if (it depends on a); c, which comes later, is still unanswered.
        let questions = [select("a"), select("q", showIf: allOf(when("a", "equals", "Yes"), when("c", "equals", "Yes"))), select("c")]
        let report = try coverage(questions, [.answer("a", "Yes")])
        #expect(report.notEvaluable == [0, 1])
        #expect(report.status("leaf:0:true") == .taken(1))
        #expect(report.status("leaf:1:false") == .notTaken)
        #expect(report.status("leaf:1:true") == .notTaken)
        #expect(report.status("decision:0:false") == .taken(1))
    }
}

@Suite("MC/DC through a SurveyNative survey")
struct SurveyNativeMCDCTests {
    @Test("a session records the rows: A and (B or C) over a real survey gets all three pairs")
    func throughASurvey() throws {
        let questions = [
            select("a"), select("b"), select("c"),
            select("q", showIf: allOf(when("a", "equals", "Yes"), anyOf(when("b", "equals", "Yes"), when("c", "equals", "Yes")))),
        ]
        let paths: [[Action]] = [
            [.answer("a", "Yes"), .answer("b", "Yes"), .answer("c", "No")],
            [.answer("a", "No"), .answer("b", "No"), .answer("c", "No")],
            [.answer("a", "Yes"), .answer("b", "No"), .answer("c", "Yes")],
            [.answer("a", "Yes"), .answer("b", "No"), .answer("c", "No")],
        ]
        let survey = try loadSurvey(text: surveyText(questions))
        let recorder = CoverageRecorder(plan: survey.coveragePlan())
        for path in paths {
            let session = survey.makeSession(SessionSettings(today: testToday), coverage: recorder)
            for action in path { _ = session.perform(action) }
        }
        let report = CoverageReport(recorder)
        #expect(report.mcdc.count == 1)
        #expect(report.mcdc[0].leaves.map { $0.pair != nil } == [true, true, true])
        #expect(report.mcdcTotals == (3, 3))
    }
}
