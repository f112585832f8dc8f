/// JUnit XML for CI servers: one testsuite per scenario folder, one testcase per scenario. A golden that
/// differs or is missing, and a failed expectation, are failures; a scenario that cannot be read or no
/// longer fits its survey is an error. No times are written, so the same run gives the same bytes.
public enum JUnitReport {
    public static func xml(_ result: SuiteResult, failOnObsolete: Bool) -> String {
        var suites: [(name: String, cases: [String], failures: Int, errors: Int)] = []
        for report in result.reports {
            let folder = report.name.split(separator: "/").dropLast().joined(separator: "/")
            let suiteName = folder.isEmpty ? "scenarios" : folder
            let caseName = String(report.name.split(separator: "/").last ?? "")
            var body = ""
            var failures = 0
            var errors = 0
            if !report.invalid.isEmpty {
                let stale = report.invalid.contains { $0.message.hasPrefix("stale at step") }
                let message = report.invalid[0].message
                body = "      <error type=\"\(stale ? "StaleScenario" : "InvalidInput")\" message=\"\(escape(message))\">\(escape(report.invalid.map(\.description).joined(separator: "\n")))</error>\n"
                errors = 1
            } else if !report.passed {
                let (type, message, detail) = failureText(report)
                body = "      <failure type=\"\(type)\" message=\"\(escape(message))\">\(escape(detail))</failure>\n"
                failures = 1
            }
            let testcase = "    <testcase classname=\"\(escape(suiteName))\" name=\"\(escape(caseName))\" file=\"\(escape(report.scenarioPath))\""
                + (body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n")
            if let index = suites.firstIndex(where: { $0.name == suiteName }) {
                suites[index].cases.append(testcase)
                suites[index].failures += failures
                suites[index].errors += errors
            } else {
                suites.append((suiteName, [testcase], failures, errors))
            }
        }
        if !result.obsolete.isEmpty {
            let cases = result.obsolete.map { path in
                "    <testcase classname=\"obsolete snapshots\" name=\"\(escape(path))\""
                    + (failOnObsolete
                        ? ">\n      <failure type=\"ObsoleteSnapshot\" message=\"no scenario for this snapshot\"/>\n    </testcase>\n" : "/>\n")
            }
            suites.append(("obsolete snapshots", cases, failOnObsolete ? cases.count : 0, 0))
        }
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"survey-replay\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
        for suite in suites {
            xml += "  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"0\">\n"
            xml += suite.cases.joined()
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func failureText(_ report: ScenarioReport) -> (type: String, message: String, detail: String) {
        switch report.golden {
        case .mismatched(let divergence, let golden, _)?:
            let diff = LineDiff.unified(old: golden, new: report.newText ?? "", oldName: report.goldenPath, newName: report.goldenPath + " (this run)")
            return ("SnapshotMismatch", divergence.description, divergence.description + "\n" + diff)
        case .missing?:
            return ("MissingSnapshot", "no golden at \(report.goldenPath); recording is disabled", report.newText ?? "")
        default:
            let messages = report.expectationFailures.map(\.description).joined(separator: "\n")
            return ("ExpectationFailed", report.expectationFailures.first?.message ?? "failed", messages)
        }
    }

    /// Escapes text for XML attributes and content; characters XML 1.0 cannot hold become U+FFFD.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\n", "\t", "\r": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xFFFE...0xFFFF).contains(value)
                output.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return output
    }
}
