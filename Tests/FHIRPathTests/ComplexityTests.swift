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

    @Test("a piece of an iterated argument that reads nothing of the item is kept through the evaluation, and only such a piece")
    func invariantPieces() throws {
        func kept(_ text: String) throws -> Int { try FHIRPathExpression(text).invariants }
        // The right side reads no item of the where: one kept piece (the largest), however deep.
        #expect(try kept("%q.where($this = %r.where(linkId = 'x').answer.value)") == 1)
        #expect(try kept("%q.select(%a.first() + %b.last()).where($this > %c.count())") == 2)
        #expect(try kept("%q.where(code.exists() and $this.value > 1)") == 0)
        // `$this` in a nested iteration is that iteration's item: the nested piece does not read the outer item.
        #expect(try kept("%q.where(%r.item.where(linkId = $this).exists())") == 1)
        // A literal or a variable alone is not worth keeping; a piece outside any iteration is evaluated once anyway.
        #expect(try kept("%q.where($this = 1 or $this = %a)") == 0)
        #expect(try kept("%r.where(linkId = 'x').answer.value + %a.first()") == 0)
        // Nothing is kept in an expression that defines variables or traces, nor a piece with an iif.
        #expect(try kept("%q.where($this = %r.first()).defineVariable('v')") == 0)
        #expect(try kept("%q.where($this = %r.first()).trace('t')") == 0)
        #expect(try kept("%q.where($this = %r.iif(true, 1, 2))") == 0)
        // Kept values are those the item-by-item evaluation gives; a kept piece that fails is evaluated (and
        // fails) only when an item needs it.
        let numbers: FHIRPathCollection = [.integer(1), .integer(2), .integer(3)]
        #expect(try evaluate("%q.where($this > %q.where($this > 1).count())", variables: ["q": numbers]) == ["3 (integer)"])
        #expect(try evaluate("%q.select($this + %q.sum())", variables: ["q": numbers]) == ["7 (integer)", "8 (integer)", "9 (integer)"])
        #expect(try evaluate("{}.where(%nowhere.exists())") == [])
        #expect(failure("(1 | 2).where(%nowhere.exists())")?.message.contains("%nowhere") == true)
    }

    @Test("the benchmark's score expression sums nine weights")
    func benchmarkValue() {
        let result = FHIRPathBenchmark.scoreEvaluationsPerSecond(evaluations: 3)
        #expect(result.value.map(FHIRPathResultJSON.text) == ["13 (decimal)"])
    }
}
