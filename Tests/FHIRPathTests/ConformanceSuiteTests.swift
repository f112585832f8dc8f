import FHIRPath
import FHIRPathConformance
import Foundation
import SurveyReplayTestSupport
import Testing

/// The official FHIRPath R4 suite (`../shared/corpus/fhirpath/tests-fhir-r4.xml`, 935 tests in 99 groups),
/// run in full. The names of the tests that pass are committed in `passing-tests.txt` beside this file: a
/// test on that list that fails is a regression. Newly passing tests are printed, to be added.
@Suite(.requires(.corpus)) struct ConformanceSuiteTests {
    static let folder = Corpus.path("fhirpath")
    static let passingList = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("passing-tests.txt").path

    @Test("every test of the official suite on the committed passing list still passes, and at least 900 of 935 pass")
    func officialSuiteHasNoRegressions() throws {
        let suitePath = Self.folder + "/tests-fhir-r4.xml"
        let suite = try ConformanceSuite.load(contentsOf: suitePath)
        #expect(suite.tests.count == 935)
        #expect(suite.groups.count == 99)
        let runner = try ConformanceRunner(folder: Self.folder)
        var passing: Set<String> = []
        var report: [String] = []
        var failures: [String] = []
        var otherKinds: [String] = []
        for group in suite.groups {
            let tests = suite.tests.filter { $0.group == group }
            var passed = 0
            for test in tests {
                let outcome = runner.run(test)
                if outcome.passed {
                    passed += 1
                    passing.insert(test.name)
                } else if case .failed(let reason) = outcome {
                    failures.append("  \(test.name) [\(group)]: \(reason)")
                }
                if case .passedWithOtherErrorKind(let expected, let actual) = outcome {
                    otherKinds.append("  \(test.name): \(actual) (the suite says \(expected))")
                }
            }
            report.append("  \(group): \(passed)/\(tests.count)")
        }
        print("FHIRPath R4 suite: \(passing.count)/\(suite.tests.count) pass\n" + report.joined(separator: "\n"))
        if !failures.isEmpty { print("failing:\n" + failures.joined(separator: "\n")) }
        if !otherKinds.isEmpty { print("errors of another kind than the suite names:\n" + otherKinds.joined(separator: "\n")) }
        let committed = Set(((try? String(contentsOfFile: Self.passingList, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
        let regressions = committed.subtracting(passing).sorted()
        #expect(regressions.isEmpty, "tests on passing-tests.txt that now fail: \(regressions.joined(separator: ", "))")
        let newlyPassing = passing.subtracting(committed).sorted()
        if !newlyPassing.isEmpty { print("passing but not on passing-tests.txt (add them): \(newlyPassing.joined(separator: " "))") }
        #expect(passing.count >= 900)
    }
}
