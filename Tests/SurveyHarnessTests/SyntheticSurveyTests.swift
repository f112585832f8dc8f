import SurveyCore
import SurveyFormats
import Testing

@testable import SurveyHarness

/// The synthetic surveys of the bench and the complexity tests: each loads without errors under the settings
/// it is made for, is the same for a seed, and its walks take steps.
@Suite struct SyntheticSurveyTests {
    static let makers: [any SyntheticSurvey] = [SyntheticSurveyNative(), SyntheticFHIR(), SyntheticC3PRO(), SyntheticSage()]

    @Test("a survey of 100 is of its format, loads, and has no lint error and no engine problem", arguments: makers.indices)
    func loads(_ index: Int) throws {
        let maker = Self.makers[index]
        let file = maker.file(size: 100)
        let (format, findings) = FormatRegistry.standard.lint(file)
        #expect(format == maker.format)
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings.filter { $0.severity == .error })")
        let survey = try FormatRegistry.standard.load(file)
        #expect(survey.problem(with: maker.settings) == nil)
    }

    @Test("the same size and seed give the same bytes; another seed another survey", arguments: makers.indices)
    func deterministic(_ index: Int) {
        let maker = Self.makers[index]
        #expect(maker.text(size: 100, seed: 3) == maker.text(size: 100, seed: 3))
        #expect(maker.text(size: 100, seed: 3) != maker.text(size: 100, seed: 4))
    }

    @Test("walks of a survey of 100 take steps, with the built-in properties and no engine error", arguments: makers.indices)
    func walks(_ index: Int) throws {
        let maker = Self.makers[index]
        let survey = try FormatRegistry.standard.load(maker.file(size: 100))
        var walker = Walker(survey: survey, settings: maker.settings, maxSteps: 100, builtInProperties: true, properties: nil)
        var steps = 0
        for walk in 0..<50 {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(1, walk: walk)))
            let outcome = walker.walk(&stream)
            steps += outcome.actions.count
            let errors = outcome.findings.filter { $0.finding.kind == .engineError }
            #expect(errors.isEmpty, "walk \(walk): \(errors.map(\.finding.message))")
        }
        #expect(steps >= 50 * 5, "\(steps) steps in 50 walks")
    }
}
