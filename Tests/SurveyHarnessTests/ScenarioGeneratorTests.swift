import Foundation
import SurveyCore
import SurveyFormats
import SurveyReplayTestSupport
import Testing

@testable import SurveyHarness

@Suite("generating covering scenarios")
struct ScenarioGeneratorTests {
    private let settings = SessionSettings(today: CalendarDate(year: 2026, month: 1, day: 1))

    private func generate(_ survey: any Survey, seed: UInt64 = 1) -> ScenarioGenerator.Result {
        ScenarioGenerator(survey: survey, configuration: .init(seed: seed, settings: settings)).run()
    }

    /// The coverage of replaying the scenarios as scenario files.
    private func replayed(_ scenarios: [ScenarioGenerator.Generated], on survey: any Survey) throws -> CoverageReport {
        let recorder = CoverageRecorder(plan: survey.coveragePlan())
        for generated in scenarios {
            let text = Scenario.make(path: "g.scenario", surveyPath: "survey.json", settings: settings, actions: generated.actions).text
            let result = ScenarioRunner().run(try ScenarioParser.parse(SourceFile(path: "g.scenario", text: text)), survey: survey, coverage: recorder)
            #expect(result.passed)
        }
        return CoverageReport(recorder)
    }

    @Test("every branch of the fixture is taken, and the scenarios, replayed from their text, take the same branches")
    func fixtureFullyCovered() throws {
        let survey = try Fixtures.survey()
        let result = generate(survey)
        #expect(result.report.totals == (17, 17, 0))
        #expect(result.notFound.isEmpty)
        let replay = try replayed(result.scenarios, on: survey)
        #expect(replay.branches.map(\.status.isTaken) == result.report.branches.map(\.status.isTaken))
        // Each scenario is there for branches no earlier one took.
        #expect(result.scenarios.allSatisfy { !$0.covers.isEmpty })
        #expect(result.scenarios.flatMap(\.covers).count == 17)
    }

    @Test("the same seed gives the same scenarios")
    func deterministic() throws {
        let survey = try Fixtures.survey()
        #expect(generate(survey).scenarios.map(\.actions) == generate(survey).scenarios.map(\.actions))
    }

    @Test("no scenario keeps an action it can do without")
    func scenariosAreShrunk() throws {
        let survey = try Fixtures.survey()
        let scenarios = generate(survey).scenarios
        let all = try replayed(scenarios, on: survey).totals.taken
        for (index, scenario) in scenarios.enumerated() {
            for removed in scenario.actions.indices {
                var fewer = scenarios
                fewer[index].actions.remove(at: removed)
                #expect(try replayed(fewer, on: survey).totals.taken < all, "scenario \(index + 1) still covers everything without action \(removed + 1)")
            }
        }
    }

    @Test("an impossible branch is listed with its reason, not searched for")
    func impossibleBranchesAreExplained() throws {
        let text = """
            {"questions": [
              {"id": "a", "question": "A?", "question_type": "single_select", "options": ["Yes", "No"]},
              {"id": "b", "question": "B?", "question_type": "single_select", "options": ["Yes", "No"],
               "show_if": {"id": "a", "operation": "equals", "value": "Maybe"}}
            ], "submit": {"button_title": "Send", "url": "https://example.org"}}
            """
        let survey = try FormatRegistry.standard.load(SourceFile(path: "maybe.json", text: text))
        let result = generate(survey)
        #expect(result.notFound.isEmpty)
        let impossible = result.report.branches.filter(\.status.isImpossible)
        #expect(impossible.map(\.id) == ["decision:0:true", "leaf:0:true", "choice:2", "choice:3", "question:1:shown", "question:1:answered"])
        #expect(result.report.percent == 100)
    }

    @Test("on the team's surveys every branch not proved impossible is taken")
    func teamSurveys() throws {
        for path in ["Scenarios/checkin/checkin.json", "Scenarios/quirks/quirks.json"] {
            let survey = try FormatRegistry.standard.load(InputFiles.read(path))
            let result = generate(survey)
            #expect(result.notFound.map(\.description) == [], "\(path)")
            #expect(result.report.percent == 100, "\(path)")
            let replay = try replayed(result.scenarios, on: survey)
            #expect(replay.totals == result.report.totals, "\(path)")
        }
    }

    @Test("on the corpus's ExampleQuestions every branch not proved impossible is taken", .requires(.corpus))
    func exampleQuestions() throws {
        let survey = try FormatRegistry.standard.load(InputFiles.read(Corpus.path("surveynative/ExampleQuestions.json")))
        let result = generate(survey)
        #expect(result.notFound.map(\.description) == [])
        #expect(result.report.percent == 100)
        #expect(result.scenarios.count <= 5)
    }
}
