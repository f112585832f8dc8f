/// The JUnit report of a `test` run: one suite per scenario folder, one case per scenario. A golden that
/// differs or is missing, and a failed expectation, are failures; a scenario that cannot be read or no
/// longer fits its survey is an error.
public enum JUnitReport {
    public static func xml(_ result: SuiteResult, failOnObsolete: Bool) -> String {
        var suites: [JUnitDocument.Suite] = []
        for report in result.reports {
            let parts = report.name.split(separator: "/")
            let folder = parts.dropLast().joined(separator: "/")
            let suiteName = folder.isEmpty ? "scenarios" : folder
            var testcase = JUnitDocument.Case(classname: suiteName, name: String(parts.last ?? ""), file: report.scenarioPath)
            if !report.invalid.isEmpty {
                let stale = report.invalid.contains { $0.message.hasPrefix("stale at step") }
                testcase.problem = .error(
                    type: stale ? "StaleScenario" : "InvalidInput", message: report.invalid[0].message,
                    detail: report.invalid.map(\.description).joined(separator: "\n"))
            } else if !report.passed {
                testcase.problem = failure(report)
            }
            if let index = suites.firstIndex(where: { $0.name == suiteName }) {
                suites[index].cases.append(testcase)
            } else {
                suites.append(JUnitDocument.Suite(name: suiteName, cases: [testcase]))
            }
        }
        if !result.obsolete.isEmpty {
            suites.append(
                JUnitDocument.Suite(
                    name: "obsolete snapshots",
                    cases: result.obsolete.map { path in
                        JUnitDocument.Case(
                            classname: "obsolete snapshots", name: path,
                            problem: failOnObsolete ? .failure(type: "ObsoleteSnapshot", message: "no scenario for this snapshot", detail: "") : nil,
                            output: failOnObsolete ? nil : "no scenario for this snapshot")
                    }))
        }
        return JUnitDocument(suites: suites).xml
    }

    private static func failure(_ report: ScenarioReport) -> JUnitDocument.Case.Problem {
        switch report.golden {
        case .mismatched(let divergence, let golden, _)?:
            let diff = LineDiff.unified(old: golden, new: report.newText ?? "", oldName: report.goldenPath, newName: report.goldenPath + " (this run)")
            return .failure(type: "SnapshotMismatch", message: divergence.description, detail: divergence.description + "\n" + diff)
        case .missing?:
            return .failure(type: "MissingSnapshot", message: "no golden at \(report.goldenPath); recording is disabled", detail: report.newText ?? "")
        default:
            return .failure(
                type: "ExpectationFailed", message: report.expectationFailures.first?.message ?? "failed",
                detail: report.expectationFailures.map(\.description).joined(separator: "\n"))
        }
    }
}
