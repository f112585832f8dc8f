import FHIRPathConformance
import Testing
@testable import FHIRPath

/// Work that must happen once, counted (never timed).
@Suite struct ComplexityTests {
    @Test("weight() works out a questionnaire's scores and a response's answer scores once, however often it is evaluated")
    func scoreTablesOncePerTree() throws {
        let (questionnaire, response) = FHIRPathBenchmark.scoreFixture()
        let environment = FHIRPathEnvironment(resource: response, variables: ["questionnaire": [.node(questionnaire.root)]])
        let expression = try FHIRPathExpression(FHIRPathBenchmark.scoreExpression, options: FHIRPathOptions(contextType: "QuestionnaireResponse"))
        for _ in 0..<100 {
            #expect(try expression.evaluate(environment).map(FHIRPathResultJSON.text) == ["13 (decimal)"])
        }
        #expect(questionnaire.cache.scoreTablesBuilt == 1)
        #expect(response.cache.answerTablesBuilt == 1)
        // A new response (an answer changed) gets its own table; the questionnaire's is reused.
        let (_, changed) = FHIRPathBenchmark.scoreFixture()
        let next = FHIRPathEnvironment(resource: changed, variables: ["questionnaire": [.node(questionnaire.root)]])
        _ = try expression.evaluate(next)
        #expect(changed.cache.answerTablesBuilt == 1)
        #expect(questionnaire.cache.scoreTablesBuilt == 1)
    }

    @Test("the benchmark's score expression sums nine weights")
    func benchmarkValue() {
        let result = FHIRPathBenchmark.scoreEvaluationsPerSecond(evaluations: 3)
        #expect(result.value.map(FHIRPathResultJSON.text) == ["13 (decimal)"])
    }
}
