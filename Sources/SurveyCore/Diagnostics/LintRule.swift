/// What a lint rule finds and how to fix it, for tools that show rules apart from findings (SARIF's rule
/// metadata, a code-scanning dashboard's help pane). Each format lists its rules beside its lint.
public struct LintRule: Sendable, Hashable {
    public let id: String
    /// The severity its findings usually have (a rule may report some findings at another).
    public let severity: Diagnostic.Severity
    /// What it finds, in one sentence.
    public let summary: String
    /// Why it matters and what to do about it.
    public let help: String
    /// The document listing the rule, relative to the project (`docs/surveynative.md#lint-rules`).
    public let document: String

    public init(_ id: String, _ severity: Diagnostic.Severity, _ summary: String, help: String, document: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.help = help
        self.document = document
    }

    /// A format's rules from rows of id, severity, summary and help, all listed in one document.
    public static func table(_ rows: [(String, Diagnostic.Severity, String, String)], document: String) -> [LintRule] {
        rows.map { LintRule($0.0, $0.1, $0.2, help: $0.3, document: document) }
    }
}
