import Testing
import SurveyCore
@testable import SurveyFormats
@testable import SurveyHarness

/// The per-step cost does not grow with the survey: a step evaluates the conditions that read the changed
/// answer (directly, or through the transitive map among questions up to the active one) and those of
/// the questions the active question moves onto, never the survey as a whole. Counted, not timed.
@Suite struct SurveyNativeComplexityTests {
    private static func survey(_ size: Int) throws -> SurveyNativeSurvey {
        let file = SyntheticSurveyNative().file(size: size)
        return try SurveyNativeFormat().loadSurvey(JSONCursor(node: JSONParser.parse(file))).survey
    }

    /// Runs seeded walks and checks every step's evaluations against the bound; returns evaluations per step.
    private func walk(_ survey: SurveyNativeSurvey, steps: Int) -> Double {
        let chooser = ActionChooser(survey: survey, settings: SessionSettings())
        var total = 0
        var done = 0
        var walk = 0
        while done < steps {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(3, walk: walk)))
            let session = SurveyNativeSession(survey: survey, settings: SessionSettings())
            for _ in 0..<100 {
                guard stream.beginStep() else { break }
                let action = chooser.choose(in: session, stream: &stream)
                let before = (evaluations: session.evaluationCount, frontier: session.state.answers.count, reached: session.state.evaluated.filter { $0 }.count)
                // Next taps a question of the active section: its dependents are what Next can change.
                let section = survey.topLevel[session.state.active]..<survey.sectionEnd[session.state.active]
                let nextBound = section.map { survey.directDependents[$0].count + survey.subDependents[$0].count }.max() ?? 0
                _ = session.perform(action)
                let spent = session.evaluationCount - before.evaluations
                var bound = (session.state.answers.count - before.frontier) + (session.state.evaluated.filter { $0 }.count - before.reached)
                if case .answer(let id, _) = action, let slot = survey.slotByID[id] {
                    bound += survey.directDependents[slot].count + survey.subDependents[slot].count
                }
                if case .next = action { bound += nextBound }
                #expect(spent <= bound, "step \(done): \(spent) evaluations for \(action), bound \(bound)")
                total += spent
                done += 1
                if action == .submit || done >= steps { break }
            }
            walk += 1
        }
        return Double(total) / Double(done)
    }

    @Test func aStepEvaluatesOnlyWhatDependsOnItsChange() throws {
        let small = walk(try Self.survey(100), steps: 2_000)
        let large = walk(try Self.survey(10_000), steps: 2_000)
        // The same kind of walk on a survey 100 times larger evaluates about as many conditions a step.
        #expect(large <= small * 2 + 1, "\(large) evaluations a step at 10,000 questions, \(small) at 100")
    }

    @Test func startingASessionCostsNothingWhateverTheSurveysSize() throws {
        let session = SurveyNativeSession(survey: try Self.survey(10_000), settings: SessionSettings())
        #expect(session.state.answers.count <= 2)
        #expect(session.evaluationCount <= 1)
    }
}
