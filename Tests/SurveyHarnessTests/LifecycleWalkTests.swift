import Foundation
import SurveyCore
import SurveyFormats
import Testing

@testable import SurveyHarness

/// Walks over formats whose sessions end by themselves (a Sage task its rules finish) or wait on the app
/// (Owlmetry's launch and consent sheet): a walk stops at a session that has ended, and the Submit check
/// takes the app's own steps before it calls a survey stuck.
@Suite struct LifecycleWalkTests {
    static let exitingTask = #"""
        {"identifier": "t", "steps": [
          {"identifier": "a", "type": "simpleQuestion", "inputItem": {"type": "integer"}, "surveyRules": [{"matchingAnswer": 1}]},
          {"identifier": "b", "type": "instruction"}
        ]}
        """#

    static let questionnaire = #"""
        {"version": 1, "questions": [
          {"id": "q_rate", "type": "rating", "title": "Rate us", "required": true, "scale": 5},
          {"id": "q_why", "type": "text", "title": "Why?", "required": false}
        ]}
        """#

    static func fuzz(_ text: String, walks: Int) throws -> Fuzzer.Result {
        let survey = try FormatRegistry.standard.load(SourceFile(path: "walk.json", text: text))
        let configuration = Fuzzer.Configuration(walks: walks, seed: 1, maxSteps: 60, settings: SessionSettings())
        return Fuzzer(survey: survey, configuration: configuration).run()
    }

    @Test func aWalkStopsWhereTheTaskEndsAndNoSubmitHazardIsReported() throws {
        let survey = try FormatRegistry.standard.load(SourceFile(path: "walk.json", text: Self.exitingTask))
        let walker = Walker(survey: survey, settings: SessionSettings(), maxSteps: 60, builtInProperties: true, properties: nil)
        let outcome = walker.check([.answer(question: "a", value: 1), .next(question: nil), .next(question: nil)])
        #expect(outcome.actions.count == 2)
        #expect(outcome.submitted)
        #expect(outcome.findings.isEmpty)
        let result = try Self.fuzz(Self.exitingTask, walks: 60)
        #expect(!result.findings.contains { $0.finding.property == "submit-unreachable" || $0.finding.kind == .engineError })
    }

    @Test func theSubmitCheckLaunchesTheAppAndAcceptsConsentBeforeCallingASurveyStuck() throws {
        let survey = try FormatRegistry.standard.load(SourceFile(path: "walk.json", text: Self.questionnaire))
        let session = survey.makeSession(SessionSettings())
        #expect(SubmitFinder(survey: survey, settings: SessionSettings()).stuckQuestion(continuing: session) == nil)
        #expect(session.isSubmittable)
        let result = try Self.fuzz(Self.questionnaire, walks: 60)
        #expect(result.submitted > 0)
        #expect(!result.findings.contains { $0.finding.property == "submit-unreachable" || $0.finding.kind == .engineError })
    }
}
