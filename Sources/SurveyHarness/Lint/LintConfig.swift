import Foundation
import SurveyCore

/// Which lint findings to show: rules turned off and the least severe severity shown. Comes from the
/// command line and from a suite's `survey-replay-lint.json`, which may also set them for one survey:
///
///     {
///       "severity": "warning",
///       "disable": ["sn-hidden-answer-submitted"],
///       "surveys": {"checkin.json": {"disable": ["sn-forward-reference"]}}
///     }
///
/// A survey uses the nearest such file in its folder or a folder above it; survey paths in it are relative
/// to the file's folder.
public struct LintConfig: Sendable, Equatable {
    public static let fileName = "survey-replay-lint.json"

    /// Rules whose findings are not shown.
    public var disabled: Set<String>
    /// The least severe findings shown (`warning` shows errors and warnings); nil: every severity.
    public var minimum: Diagnostic.Severity?
    /// Per survey (its absolute path), settings added to the file's own.
    public var surveys: [String: LintConfig]

    public init(disabled: Set<String> = [], minimum: Diagnostic.Severity? = nil, surveys: [String: LintConfig] = [:]) {
        self.disabled = disabled
        self.minimum = minimum
        self.surveys = surveys
    }

    /// Reads a config file; every unknown key, unknown rule or bad value is an error at its place.
    public static func read(_ file: SourceFile, rules: Set<String>) throws(InputError) -> LintConfig {
        let root = JSONCursor(node: try JSONParser.parse(file))
        var problems: [Diagnostic] = []
        var config = section(root, rules: rules, allowSurveys: true, problems: &problems)
        if let surveys = (try? root.object(for: "the lint config"))?["surveys"] {
            if let object = surveys.object {
                for key in object.keys {
                    guard let value = object[key] else { continue }
                    config.surveys[InputFiles.absolute(InputFiles.resolve(key, relativeTo: file.path))] =
                        section(value, rules: rules, allowSurveys: false, problems: &problems)
                }
            } else {
                problems.append(surveys.diagnostic(.error, "expected an object of survey paths to settings for \"surveys\""))
            }
        }
        if !problems.isEmpty {
            throw InputError(problems.sorted { ($0.position?.line ?? 0, $0.position?.column ?? 0) < ($1.position?.line ?? 0, $1.position?.column ?? 0) })
        }
        return config
    }

    private static func section(_ cursor: JSONCursor, rules: Set<String>, allowSurveys: Bool, problems: inout [Diagnostic]) -> LintConfig {
        guard let object = cursor.object else {
            problems.append(cursor.diagnostic(.error, "expected an object with \"disable\", \"severity\"\(allowSurveys ? " and \"surveys\"" : "")"))
            return LintConfig()
        }
        var config = LintConfig()
        let known = allowSurveys ? ["disable", "severity", "surveys"] : ["disable", "severity"]
        for key in object.keys where !known.contains(key) {
            let location = object.keyLocation(key) ?? object.location
            problems.append(
                Diagnostic(
                    file: cursor.file.path, location: location,
                    message: "unknown key \(CanonicalJSON.quote(key)); expected \(known.map { "\"\($0)\"" }.joined(separator: ", "))\(Spelling.suggestion(for: key, in: known))"))
        }
        if let severity = object["severity"] {
            if let text = severity.stringValue, let value = Diagnostic.Severity(rawValue: text) {
                config.minimum = value
            } else {
                problems.append(severity.diagnostic(.error, "expected \"error\", \"warning\" or \"note\" for \"severity\""))
            }
        }
        if let disable = object["disable"] {
            for entry in disable.elements ?? [disable] {
                guard let id = entry.stringValue else {
                    problems.append(entry.diagnostic(.error, "expected a list of rule ids for \"disable\""))
                    continue
                }
                if !rules.contains(id) {
                    problems.append(entry.diagnostic(.error, "no lint rule '\(id)'\(Spelling.suggestion(for: id, in: Array(rules)))"))
                }
                config.disabled.insert(id)
            }
        }
        return config
    }

    /// The nearest config file for a survey: in its folder or a folder above it.
    public static func find(for survey: String) -> String? {
        var folder = InputFiles.absolute(InputFiles.folder(of: survey))
        while true {
            let candidate = folder == "/" ? "/" + fileName : folder + "/" + fileName
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            if folder == "/" { return nil }
            folder = InputFiles.folder(of: folder)
        }
    }

    /// These settings, with the command line's and a survey's own added: rules disabled anywhere stay
    /// disabled; the command line's severity wins over the survey's, which wins over the file's.
    public func applying(to survey: String, commandLine: LintConfig) -> LintConfig {
        let own = surveys[InputFiles.absolute(survey)] ?? LintConfig()
        return LintConfig(disabled: disabled.union(own.disabled).union(commandLine.disabled), minimum: commandLine.minimum ?? own.minimum ?? minimum)
    }

    /// Whether a finding is shown: its rule is not disabled (findings without a rule, such as a file that
    /// does not parse, always are) and it is at least as severe as the minimum.
    public func shows(_ finding: Diagnostic) -> Bool {
        if let rule = finding.rule, disabled.contains(rule) { return false }
        guard let minimum else { return true }
        return finding.severity <= minimum
    }
}
