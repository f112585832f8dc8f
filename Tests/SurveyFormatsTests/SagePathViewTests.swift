import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// A session's path (`visible`), its fingerprint and the place of the step on screen are worked out once
/// after an action, in one pass, and read from there by every view a walk asks for.
@Suite("Sage path view")
struct SagePathViewTests {
    /// The path as the engines' records give it, worked out afresh: each open navigator's path record (or
    /// history; AssessmentModel's with repeats folded), a section standing for its result's path, a section
    /// still running after its parent's path, then the step on screen.
    static func referencePath(_ session: SageSession) -> [Int] {
        var steps: [Int] = []
        var walked = Set<Int>()
        func nodes(_ result: SageBranchResult) -> [SageSurvey.Node] {
            var nodes: [SageSurvey.Node] = []
            result.forEachPathNode { node in
                if session.engine.isAssessmentModel, let earlier = nodes.firstIndex(of: node) {
                    nodes.removeSubrange((earlier + 1)...)
                } else {
                    nodes.append(node)
                }
            }
            return nodes
        }
        func walk(_ result: SageBranchResult, depth: Int) {
            walked.insert(depth)
            for node in nodes(result) {
                switch node {
                case .step(let index): steps.append(index)
                case .section(let index):
                    if depth + 1 < session.open.count, session.open[depth + 1].section == index {
                        walk(session.open[depth + 1].result, depth: depth + 1)
                    } else if let entry = result.stepHistory.last(where: { $0.identifier == session.survey.sections[index].name }),
                        let branch = session.resolved(entry)
                    {
                        walk(branch, depth: session.open.count)
                    }
                }
            }
        }
        for depth in session.open.indices where !walked.contains(depth) { walk(session.open[depth].result, depth: depth) }
        if let current = session.current, steps.last != current { steps.append(current) }
        return steps
    }

    /// Walks of every Sage task of the scenarios and the corpus's TaskFoo, under the default profile and
    /// another, with a session of each.
    static func walks(_ body: (SageSurvey, SessionSettings, [Action]) throws -> Void) throws {
        var surveys = try SageShadowTreeTests.surveys()
        // The corpus task the fuzz figure is measured on, with sections, when the corpus is beside the package.
        let taskFoo = Corpus.path("sage/sageresearch_FactoryTest_TaskFoo.json")
        if FileManager.default.fileExists(atPath: taskFoo) {
            surveys.append(try #require(try FormatRegistry.standard.load(SourceFile(path: taskFoo, text: String(contentsOfFile: taskFoo, encoding: .utf8))) as? SageSurvey))
        }
        for survey in surveys {
            for profile in [nil] + survey.profiles.dropFirst().prefix(2).map(Optional.some) {
                let settings = SessionSettings(today: testToday, profile: profile)
                for actions in Benchmark(settings: settings).walkActions(survey, walks: 150, maxSteps: 40) {
                    try body(survey, settings, actions)
                }
            }
        }
    }

    @Test("the path, its fingerprint and the step on screen's place agree with the path worked out afresh after every step")
    func agreesWithReference() throws {
        var fingerprints: [[Int]: UInt64] = [:]
        var lists: [UInt64: [Int]] = [:]
        try Self.walks { survey, settings, actions in
            let session = try #require(survey.makeSession(settings) as? SageSession)
            for action in actions {
                _ = session.perform(action)
                let reference = Self.referencePath(session)
                #expect(session.visible == reference)
                #expect(session.visibleCount == reference.count)
                #expect(session.currentVisiblePosition == session.current.flatMap { reference.lastIndex(of: $0) })
                #expect(session.visibleQuestions == reference.map { survey.steps[$0].id })
                // A fingerprint stands for one list: the same list gives the same one, another list another.
                let fingerprint = session.visibleFingerprint
                #expect(fingerprints.updateValue(fingerprint, forKey: reference).map { $0 == fingerprint } ?? true)
                #expect(lists.updateValue(reference, forKey: fingerprint).map { $0 == reference } ?? true)
            }
        }
        #expect(lists.count > 10)
    }

    @Test("the path is worked out once after an action, whatever views are read, and not by a session that only moves")
    func workedOutOncePerAction() throws {
        try Self.walks { survey, settings, actions in
            let session = try #require(survey.makeSession(settings) as? SageSession)
            let moving = try #require(survey.makeSession(settings) as? SageSession)
            for action in actions {
                _ = session.perform(action)
                _ = moving.perform(action)
                let before = session.pathsWorkedOut
                _ = (session.visibleCount, session.currentVisiblePosition, session.visibleFingerprint, session.viewFingerprint)
                if session.visibleCount > 0 { _ = session.visibleEntry(at: session.visibleCount - 1) }
                _ = (session.visibleQuestions, session.visible)
                #expect(session.pathsWorkedOut == before + 1)
            }
            #expect(moving.pathsWorkedOut == 0)
        }
    }
}
