import Foundation
import SurveyCore

/// Lint findings as GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`), which
/// a workflow turns into annotations on the pull request's files.
public enum GitHubAnnotations {
    public static func text(_ findings: [Diagnostic]) -> String {
        findings.map { finding in
            var properties: [String] = []
            if let file = finding.file { properties.append("file=\(escapeProperty(file))") }
            if let position = finding.position {
                properties.append("line=\(position.line)")
                properties.append("col=\(position.column)")
            }
            if let rule = finding.rule { properties.append("title=\(escapeProperty(rule))") }
            let message = finding.message + (finding.hint.map { "\nhint: \($0)" } ?? "")
            return "::\(command(finding.severity)) \(properties.joined(separator: ","))::\(escapeData(message))\n"
        }.joined()
    }

    static func command(_ severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    /// The message: `%`, carriage return and line feed encoded, as the runner decodes them.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: also `:` and `,`, which separate properties.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
