import Foundation
import SurveyCore
import SurveyFormats
import Testing

@testable import SurveyHarness

/// Walks read a session through its cheap views (how many questions show, the one at a position, where the
/// current one is, a fingerprint of the list) rather than the visible list, which a format may keep
/// incrementally; whatever a format keeps, they must tell what `visibleQuestions` tells, at every step.
@Suite struct CheapViewsTests {
    @Test("on every survey the project's scenarios run, the cheap views agree with the visible list after every step of a walk")
    func cheapViewsAgreeWithTheVisibleList() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let surveys = BenchWorkload.projectSurveys(under: root + "/Scenarios")
        #expect(surveys.count >= 10)
        for entry in surveys {
            let survey = try FormatRegistry.standard.load(InputFiles.read(entry.path))
            let settings = SessionSettings(profile: entry.profile)
            guard survey.problem(with: settings) == nil else { continue }
            let chooser = ActionChooser(survey: survey, settings: settings)
            var steps = 0
            for walk in 0..<30 {
                var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(5, walk: walk)))
                let session = survey.makeSession(settings)
                var before = (list: session.visibleQuestions, fingerprint: session.visibleFingerprint)
                for _ in 0..<40 {
                    guard stream.beginStep() else { break }
                    let (action, hash) = chooser.choice(in: session, stream: &stream)
                    #expect(hash == StableHash.of(action), "\(entry.path): the hash chosen with \(action)")
                    _ = session.perform(action)
                    steps += 1
                    let list = session.visibleQuestions
                    let place = "\(entry.path) (\(entry.profile ?? "default")) walk \(walk) after \(ScenarioSyntax.text(of: action))"
                    #expect(session.visibleCount == list.count, "\(place): visibleCount")
                    for position in list.indices {
                        let (question, index) = session.visibleEntry(at: position)
                        #expect(session.visibleQuestion(at: position) == list[position] && question == list[position], "\(place): the question at \(position)")
                        #expect(session.visibleQuestionIndex(at: position) == index, "\(place): the index at \(position)")
                    }
                    if let position = session.currentVisiblePosition {
                        #expect(list.indices.contains(position) && list[position] == session.currentQuestion, "\(place): currentVisiblePosition")
                    } else {
                        #expect(session.currentQuestion.map { !list.contains($0) } ?? true, "\(place): the current question has no position")
                    }
                    #expect((list == before.list) == (session.visibleFingerprint == before.fingerprint), "\(place): the fingerprint")
                    before = (list, session.visibleFingerprint)
                    if session.hasEnded { break }
                }
            }
            #expect(steps > 0, "\(entry.path)")
        }
    }
}
