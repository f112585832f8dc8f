/// A JUnit XML report, built from suites of cases; CI servers (Jenkins, GitLab, GitHub actions) read it.
/// No times are written, so that the same run gives the same bytes.
public struct JUnitDocument: Sendable {
    public struct Case: Sendable {
        public enum Problem: Sendable {
            /// A check that did not hold.
            case failure(type: String, message: String, detail: String)
            /// Something that could not be checked.
            case error(type: String, message: String, detail: String)
        }

        public var classname: String
        public var name: String
        public var file: String?
        public var problem: Problem?
        /// Text a CI server shows beside the case (warnings).
        public var output: String?

        public init(classname: String, name: String, file: String? = nil, problem: Problem? = nil, output: String? = nil) {
            self.classname = classname
            self.name = name
            self.file = file
            self.problem = problem
            self.output = output
        }
    }

    public struct Suite: Sendable {
        public var name: String
        public var cases: [Case]

        public init(name: String, cases: [Case]) {
            self.name = name
            self.cases = cases
        }

        var failures: Int { cases.filter { if case .failure? = $0.problem { true } else { false } }.count }
        var errors: Int { cases.filter { if case .error? = $0.problem { true } else { false } }.count }
    }

    public var suites: [Suite]

    public init(suites: [Suite]) {
        self.suites = suites
    }

    public var xml: String {
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"survey-replay\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
        for suite in suites {
            xml += "  <testsuite name=\"\(Self.escape(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"0\">\n"
            for testcase in suite.cases {
                xml += "    <testcase classname=\"\(Self.escape(testcase.classname))\" name=\"\(Self.escape(testcase.name))\""
                if let file = testcase.file { xml += " file=\"\(Self.escape(file))\"" }
                var body = ""
                switch testcase.problem {
                case .failure(let type, let message, let detail)?:
                    body += "      <failure type=\"\(Self.escape(type))\" message=\"\(Self.escape(message))\">\(Self.escape(detail))</failure>\n"
                case .error(let type, let message, let detail)?:
                    body += "      <error type=\"\(Self.escape(type))\" message=\"\(Self.escape(message))\">\(Self.escape(detail))</error>\n"
                case nil: break
                }
                if let output = testcase.output { body += "      <system-out>\(Self.escape(output))</system-out>\n" }
                xml += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
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
