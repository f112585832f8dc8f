import FHIRPath
import Foundation
import SurveyCore

/// The FHIRPath workloads of `survey-replay bench`: a typical score expression evaluated many times once
/// compiled, and the whole official suite parsed, checked and evaluated. Each rate is given per second of
/// the measuring thread's CPU time (what the engine costs, whatever else shares the machine) and per
/// second of wall-clock time.
public enum FHIRPathBenchmark {
    /// A rate measured both ways.
    public struct Rate: Sendable {
        public let perCPUSecond: Double
        public let perWallSecond: Double
    }

    /// Runs `body`, which does `count` units of work, and measures it.
    private static func measure(_ count: () -> Int) -> Rate {
        let wallStart = ProcessMeter.now()
        let cpuStart = ProcessMeter.threadCPUNow()
        let done = count()
        let cpu = ProcessMeter.threadCPUSeconds(since: cpuStart)
        let wall = ProcessMeter.seconds(since: wallStart)
        return Rate(perCPUSecond: Double(done) / max(cpu, 1e-9), perWallSecond: Double(done) / max(wall, 1e-9))
    }

    /// The score expression: the sum of the weights of nine answers.
    public static let scoreExpression = "%resource.item.answer.value.weight().sum()"

    /// A Questionnaire of nine choice questions whose four options carry `ordinalValue` weights 0 to 3, and
    /// a response answering question k with option k mod 4.
    public static func scoreFixture() -> (questionnaire: FHIRTree, response: FHIRTree) {
        let system = "http://example.org/answers"
        func option(_ code: Int) -> String {
            """
            {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": \(code)}],
             "valueCoding": {"system": "\(system)", "code": "a\(code)", "display": "Answer \(code)"}}
            """
        }
        let items = (1...9).map { number in
            """
            {"linkId": "q\(number)", "text": "Question \(number)", "type": "choice",
             "answerOption": [\((0...3).map(option).joined(separator: ", "))]}
            """
        }
        let questionnaire = """
            {"resourceType": "Questionnaire", "id": "score", "status": "active", "item": [\(items.joined(separator: ", "))]}
            """
        let answers = (1...9).map { number in
            """
            {"linkId": "q\(number)", "answer": [{"valueCoding": {"system": "\(system)", "code": "a\(number % 4)"}}]}
            """
        }
        let response = """
            {"resourceType": "QuestionnaireResponse", "status": "in-progress", "item": [\(answers.joined(separator: ", "))]}
            """
        func tree(_ text: String, _ name: String) -> FHIRTree {
            // The texts above are valid JSON by construction.
            FHIRTree(json: try! JSONParser.parse(SourceFile(path: name, text: text)))
        }
        return (tree(questionnaire, "score-questionnaire.json"), tree(response, "score-response.json"))
    }

    /// Evaluations a second of the compiled score expression (and the value it computes, 1+2+3+0+… = 13).
    public static func scoreEvaluationsPerSecond(evaluations: Int) -> (rate: Rate, value: FHIRPathCollection) {
        let (questionnaire, response) = scoreFixture()
        let environment = FHIRPathEnvironment(resource: response, variables: ["questionnaire": [.node(questionnaire.root)]])
        // A constant expression: it compiles.
        let expression = try! FHIRPathExpression(scoreExpression, options: FHIRPathOptions(contextType: "QuestionnaireResponse"))
        var value: FHIRPathCollection = []
        let rate = measure {
            for _ in 0..<evaluations {
                value = (try? expression.evaluate(environment)) ?? []
            }
            return evaluations
        }
        return (rate, value)
    }

    /// Expressions a second when every test of the suite is lexed, parsed, checked and evaluated (errors
    /// included), `rounds` times over; input trees are built beforehand.
    public static func suiteExpressionsPerSecond(_ suite: ConformanceSuite, runner: ConformanceRunner, rounds: Int) -> Rate {
        let prepared = suite.tests.map { (test: $0, options: runner.options(for: $0), environment: runner.environment(for: $0)) }
        return measure {
            var count = 0
            for _ in 0..<rounds {
                for (test, options, environment) in prepared {
                    _ = try? FHIRPathExpression(test.expression, options: options).evaluate(environment)
                    count += 1
                }
            }
            return count
        }
    }
}
