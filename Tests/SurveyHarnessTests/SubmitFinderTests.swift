import SurveyCore
import SurveyFormats
import Testing

@testable import SurveyHarness

/// The check that Submit stays reachable at the end of a walk finishes a session through its cheap views:
/// on a large survey it must never build the visible list, and its work grows with the survey's length,
/// not with its square (a 100,000-question survey once took minutes here).
@Suite struct SubmitFinderTests {
    /// A session that forwards to a real one and counts what the finder asks of it.
    final class CountingSession: SurveySession {
        let inner: any SurveySession
        var performs = 0
        var visibleListBuilds = 0

        init(_ inner: any SurveySession) { self.inner = inner }

        func perform(_ action: Action) -> StepResult {
            performs += 1
            return inner.perform(action)
        }
        var currentQuestion: String? { inner.currentQuestion }
        var visibleQuestions: [String] {
            visibleListBuilds += 1
            return inner.visibleQuestions
        }
        var isSubmittable: Bool { inner.isSubmittable }
        func answer(for question: String) -> JSONValue? { inner.answer(for: question) }
        var payload: JSONValue? { inner.payload }
        var visibleCount: Int { inner.visibleCount }
        func visibleQuestion(at position: Int) -> String { inner.visibleQuestion(at: position) }
        func visibleQuestionIndex(at position: Int) -> Int { inner.visibleQuestionIndex(at: position) }
        func visibleEntry(at position: Int) -> (question: String, index: Int) { inner.visibleEntry(at: position) }
        var currentVisiblePosition: Int? { inner.currentVisiblePosition }
        var visibleFingerprint: UInt64 { inner.visibleFingerprint }
        var otherActions: [Action] { inner.otherActions }
        var hasEnded: Bool { inner.hasEnded }
    }

    private func finish(questions: Int) throws -> CountingSession {
        let file = SyntheticSurveyNative().file(size: questions)
        let survey = try FormatRegistry.standard.load(file)
        let session = CountingSession(survey.makeSession(SessionSettings(), coverage: nil))
        #expect(SubmitFinder(survey: survey, settings: SessionSettings()).stuckQuestion(continuing: session) == nil)
        #expect(session.isSubmittable)
        return session
    }

    @Test("finishing a 2,000-question survey never builds the visible list")
    func neverBuildsTheVisibleList() throws {
        let session = try finish(questions: 2_000)
        #expect(session.visibleListBuilds == 0)
    }

    @Test("the actions taken to finish grow linearly with the survey (at most ten a question)")
    func actionsGrowLinearly() throws {
        for size in [200, 2_000] {
            let session = try finish(questions: size)
            #expect(session.performs <= 10 * size, "\(session.performs) actions for \(size) questions")
            #expect(session.performs >= size / 2, "\(session.performs) actions for \(size) questions: the finder must answer its way through")
        }
    }
}
