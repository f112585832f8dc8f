import SurveyCore
import Testing

@testable import SurveyFormats

/// The Owlmetry coverage plan's ends: a failed dismissal and a failed fetch are branches of their own, and a
/// gate that returns before the conditions records no trigger decision.
@Suite("Owlmetry coverage")
struct OwlmetryCoverageTests {
    static func terminal(_ end: OwlmetryCoverageLayout.Terminal, in recorder: CoverageRecorder) -> Int {
        recorder.counts.terminals[end.rawValue]
    }

    @Test("a failed dismissal and a failed fetch are recorded as their own ends")
    func failureEnds() throws {
        let survey = try loadSurvey(text: OwlmetryTests.schema)
        let plan = survey.coveragePlan()
        #expect(plan.terminals.map(\.description).contains("consent answered never, the dismissal failed"))
        let recorder = CoverageRecorder(plan: plan)
        let settings = SessionSettings(today: testToday, options: ["network": "offlineAfterFetch"])
        let session = survey.makeSession(settings, coverage: recorder)
        session.play(.app(.launch))
        #expect(session.perform(.app(.consent(.never))).outcome.kind == .rejected)
        session.play(.app(.consent(.later)), .app(.launch))
        #expect(Self.terminal(.dismissFailed, in: recorder) == 1)
        #expect(Self.terminal(.later, in: recorder) == 1)
        #expect(Self.terminal(.fetchFailed, in: recorder) == 1)
        #expect(Self.terminal(.dismissed, in: recorder) == 0)
    }

    /// Gate@17d5bac0:96-99: the per-process mark returns before the trigger is evaluated.
    @Test("a foreground after the questionnaire was shown in the process evaluates no trigger")
    func markBeforeConditions() throws {
        let survey = try loadSurvey(text: OwlmetryTests.schema)
        let recorder = CoverageRecorder(plan: survey.coveragePlan())
        survey.makeSession(SessionSettings(today: testToday), coverage: recorder).play(.app(.launch), .app(.consent(.later)), .app(.foreground), .app(.foreground))
        #expect(recorder.counts.decisions[OwlmetryCoverageLayout.launchTrigger] == [0, 1])
    }
}
