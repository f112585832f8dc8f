import SurveyCore

/// The Owlmetry lint rules (docs/owlmetry.md#lint-rules), for SARIF and the report.
extension OwlmetryFormat {
    public var lintRules: [LintRule] {
        LintRule.table([
            ("owl-schema", .error, "a schema violation the server's validator rejects", "Fix the schema as the finding says: the questionnaire cannot be stored as written."),
            ("owl-unknown-key", .warning, "a key the validator drops", "Remove it, or spell it as the schema does."),
            ("owl-optional-only", .warning, "no required question: an empty submission is accepted", "Make at least one question required."),
            ("owl-placeholder-hidden", .note, "a placeholder on a multi-line text question: the SDK's editor shows none", "Put the hint in the subtitle, or make the question single-line."),
            ("owl-resume-on-skipped", .note, "an optional question before a required one: a resume lands on it", "Expect respondents who resume to see the skipped question again."),
        ], document: "docs/owlmetry.md#lint-rules")
    }
}
