import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// The step checkers of one walker's walks share what the other releases show after each action path
/// (`SageShadowTree`): they find exactly what checkers of their own find, with fewer actions performed.
@Suite("Sage shadow tree")
struct SageShadowTreeTests {
    /// The team's tasks of each generation, and the checker tests' task (a Back makes releases differ).
    static let files = ["Scenarios/sage-v3/habits.json", "Scenarios/sage-legacy/wellbeing.json", "Scenarios/assessment/dinner.json"]

    static func survey(_ file: String) throws -> SageSurvey {
        let path = Corpus.packageRoot + "/" + file
        return try #require(try FormatRegistry.standard.load(SourceFile(path: path, text: String(contentsOfFile: path, encoding: .utf8))) as? SageSurvey)
    }

    static func surveys() throws -> [SageSurvey] {
        try files.map(survey) + [#require(try loadSurvey(text: SageStepCheckerTests.task) as? SageSurvey)]
    }

    /// Each walk's findings after each step, its checker made by `source`.
    static func findings(_ survey: SageSurvey, settings: SessionSettings, walks: [[Action]], source: any StepCheckerSource) -> [[[Finding]]] {
        walks.map { actions in
            let session = survey.makeSession(settings)
            let checker = source.makeStepChecker()
            return actions.map { action in checker.check(session, after: action, result: session.perform(action)) }
        }
    }

    @Test("checkers sharing a tree find, step by step, what checkers of their own find, performing fewer actions")
    func sameFindings() throws {
        for survey in try Self.surveys() {
            for profile in [nil] + survey.profiles.dropFirst().prefix(1).map(Optional.some) {
                let settings = SessionSettings(today: testToday, profile: profile)
                let walks = Benchmark(settings: settings).walkActions(survey, walks: 400, maxSteps: 40)
                let shared = SageShadowTree(survey: survey)
                let alone = SageShadowTree(survey: survey, nodeLimit: 0)
                let found = Self.findings(survey, settings: settings, walks: walks, source: shared)
                #expect(found == Self.findings(survey, settings: settings, walks: walks, source: alone))
                // Each walk's own checker (what `makeStepChecker()` makes) finds the same too.
                let own = walks.map { actions in
                    let session = survey.makeSession(settings)
                    let checker = survey.makeStepChecker()
                    return actions.map { action in checker.check(session, after: action, result: session.perform(action)) }
                }
                #expect(found == own)
                #expect(shared.shadowSteps < alone.shadowSteps, "\(survey.identifier): \(shared.shadowSteps) of \(alone.shadowSteps)")
                #expect(shared.nodes <= SageShadowTree.defaultNodeLimit)
            }
        }
    }

    @Test("the version differences fuzz reports on a task are found whether or not the walks share the tree")
    func versionDifferencesFound() throws {
        let survey = try #require(try loadSurvey(text: SageStepCheckerTests.task) as? SageSurvey)
        let settings = SessionSettings(today: testToday)
        let walks = Benchmark(settings: settings).walkActions(survey, walks: 300, maxSteps: 30)
        let found = Self.findings(survey, settings: settings, walks: walks, source: SageShadowTree(survey: survey))
        #expect(found.joined().joined().contains { $0.property == "version-difference" })
    }

    @Test("a tree made for one profile's walks starts again for another's")
    func settingsChange() throws {
        let survey = try #require(try loadSurvey(text: SageStepCheckerTests.task) as? SageSurvey)
        let tree = SageShadowTree(survey: survey)
        for profile in ["sage-4", "sage-3.3", "sage-4"] {
            let settings = SessionSettings(today: testToday, profile: profile)
            let walks = Benchmark(settings: settings).walkActions(survey, walks: 100, maxSteps: 20)
            #expect(
                Self.findings(survey, settings: settings, walks: walks, source: tree)
                    == Self.findings(survey, settings: settings, walks: walks, source: SageShadowTree(survey: survey, nodeLimit: 0)))
            #expect(tree.settings == settings)
        }
    }

    @Test("a copied session goes on as the original does")
    func copy() throws {
        for survey in try Self.surveys() {
            let settings = SessionSettings(today: testToday)
            for actions in Benchmark(settings: settings).walkActions(survey, walks: 100, maxSteps: 30) {
                let original = try #require(survey.makeSession(settings) as? SageSession)
                let half = actions.count / 2
                for action in actions[..<half] { _ = original.perform(action) }
                let copy = original.copy()
                for action in actions[half...] {
                    let (expected, got) = (original.perform(action), copy.perform(action))
                    #expect(got.outcome == expected.outcome && got.events == expected.events)
                    #expect(copy.viewFingerprint == original.viewFingerprint && copy.isSubmittable == original.isSubmittable)
                }
                #expect(copy.payload == original.payload)
            }
        }
    }
}
