import SurveyCore

/// The SageResearch and AssessmentModel lint rules (docs/sage.md#lint-rules), for SARIF and the report.
extension SageFormat {
    public var lintRules: [LintRule] {
        LintRule.table([
            ("sage-file-shape", .error, "a member of the wrong type; a missing identifier, type, inputItem, inputFields or choices", "Give the member the type the generation decodes, and add what is missing."),
            ("sage-duplicate-id", .error, "two steps of one task or section, or two fields of one form, with one identifier", "Rename one: navigation and results are keyed by identifier."),
            ("sage-unknown-type", .error, "an input item type or baseType the format does not have", "Use one of the generation's types."),
            ("sage-unknown-operator", .error, "a ruleOperator the generation does not decode", "Use one of the generation's operators (de, not d)."),
            ("sage-type-mismatch", .error, "a matchingAnswer or choice value of another type than the field", "Write the value with the field's type."),
            ("sage-invalid-regex", .error, "a textValidator that does not compile", "Fix the regular expression."),
            ("sage-unknown-target", .error, "a rule, nextStepIdentifier or skip action naming no step: the task ends silently there", "Name an existing step (the finding suggests the nearest)."),
            ("sage-rules-cancel", .warning, "rules on one answer whose targets cancel each other", "Keep one rule per answer, or give them one target."),
            ("sage-shadowed-rule", .warning, "a rule after one on the same answer that never decides", "Remove it, or reorder the rules."),
            ("sage-no-such-choice", .warning, "eq, ne or ot on a value no choice has", "Compare with one of the choices' values."),
            ("sage-skip-rule-never-matches", .warning, "a rule matching only a skip on a required step without a skip", "Make the step optional, or remove the rule."),
            ("sage-backward-jump", .note, "a rule jumping back (a loop the respondent must be able to leave)", "Make sure a way out of the loop exists."),
        ], document: "docs/sage.md#lint-rules")
    }
}
