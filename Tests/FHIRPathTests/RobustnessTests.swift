import FHIRPathConformance
import Foundation
import SurveyReplayTestSupport
import Testing
@testable import FHIRPath

/// Hostile and mangled expressions end in a located error or a result: never a crash, a hang or an error
/// pointing outside the text.
@Suite struct RobustnessTests {
    /// A fixed sequence of pseudo-random numbers (a linear congruential generator), the same on every machine.
    struct Numbers {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let fragments = [
        "(", ")", "[", "]", "{", "}", ".", ",", "'", "`", "%", "$this", "$index", "$total", "@", "@T", "-", "+", "*", "/", "|", "=", "~", "<", ">=",
        "!=", " and ", " or ", " implies ", " div ", " is ", " as ", "where(", "select(", "iif(", "repeat(", "aggregate(", "substring(", "0", "9",
        "2147483647", "1.5", "\\", "\\u", "'x'", "`y`", " days", " 'mg'", "-2147483647", "resolve()", "descendants()", "power(", "sort(",
    ]

    @Test("every suite expression, mangled 20 ways, compiles and evaluates to a result or an error located within its text", .requires(.corpus))
    func mangledSuiteExpressions() throws {
        let folder = Corpus.path("fhirpath")
        let suite = try ConformanceSuite.load(contentsOf: folder + "/tests-fhir-r4.xml")
        let runner = try ConformanceRunner(folder: folder)
        var numbers = Numbers(state: 20)
        var errors = 0
        for test in suite.tests {
            for _ in 0..<20 {
                var text = Array(test.expression)
                for _ in 0..<(1 + numbers.next(3)) {
                    let position = text.isEmpty ? 0 : numbers.next(text.count + 1)
                    switch numbers.next(3) {
                    case 0 where !text.isEmpty: text.remove(at: min(position, text.count - 1))
                    case 1: text.insert(contentsOf: Self.fragments[numbers.next(Self.fragments.count)], at: position)
                    default: if !text.isEmpty { text[min(position, text.count - 1)] = Self.fragments[numbers.next(Self.fragments.count)].first! }
                    }
                }
                let expression = String(text)
                do throws(FHIRPathError) {
                    let compiled = try FHIRPathExpression(expression, options: runner.options(for: test))
                    _ = try compiled.evaluate(runner.environment(for: test))
                } catch {
                    errors += 1
                    if let range = error.range {
                        #expect(range.lowerBound >= 0 && range.upperBound <= expression.utf8.count + 1, "\(expression): \(error)")
                    }
                }
            }
        }
        #expect(errors > 1000)
    }

    @Test("arithmetic at the edges of the number types gives empty or an error, never a trap")
    func numericEdges() throws {
        let edges = [
            "(-2147483647 - 1) * 2147483647 * 2147483647 * 2147483647", "(-2147483647 - 1 - 2147483647 * 2147483647 * 2) div -1",
            "1.power(2147483647)", "(-1).power(2147483647)", "2.power(2147483647)", "'abc'.substring(1, 2147483647 * 2147483647)",
            "99999999999999999999999999999999999999.0 * 10", "99999999999999999999999999999999999999.0 + 99999999999999999999999999999999999999.0",
            "@2020-01-01 + 2147483647 years", "@2020-01-01 + 2147483647 'd' * 2147483647", "@T00:00 + 2147483647 hours",
            "1.0 / 0.00000001 / 0.00000001 / 0.00000001 / 0.00000001", "1 'mg'.toQuantity('kg').toQuantity('[lb_av]')",
            "0.0000000000000000000000000001 * 0.0000000000000000000000000001", "(1).repeat($this + 1).count()",
        ]
        for text in edges {
            do throws(FHIRPathError) {
                _ = try evaluate(text)
            } catch {
                #expect(error.kind != .syntax, "\(text): \(error)")
            }
        }
    }
}
