import SurveyCore

/// The SageResearch and AssessmentModel lint rules (docs/sage.md#lint-rules), for SARIF and the report.
extension SageFormat {
    public var lintRules: [LintRule] {
        LintRule.table([
            ("sage-file-shape", .error, "a member of the wrong type; a missing identifier, type, inputItem, inputFields or choices", "Give the member the type the generation decodes, and add what is missing."),
            ("sage-duplicate-id", .error, "two steps of one task or section, or two fields of one form, with one identifier", "Rename one: navigation and results are keyed by identifier."),
            ("sage-unknown-type", .error, "an input item type or baseType the format does not have", "Use one of the generation's types."),
            ("sage-unknown-operator", .error, "a ruleOperator the generation does not decode", "Use one of the generation's operators (de, not d)."),
            ("sage-rule-not-decodable", .error, "a legacy rule without matchingAnswer (and not de), with no key, or on a codable field: the task does not load", "Give the rule a matchingAnswer of the field's type, or use ruleOperator de."),
            ("sage-type-mismatch", .error, "a matchingAnswer or choice value of another type than the field", "Write the value with the field's type."),
            ("sage-invalid-regex", .error, "a textValidator that does not compile", "Fix the regular expression."),
            ("sage-unknown-target", .error, "a rule, nextStepIdentifier or skip action naming no step: the task ends silently there", "Name an existing step (the finding suggests the nearest)."),
            ("sage-reserved-target", .error, "a reserved navigation id from a rule (nextStep, nextSection, beginning, or one in another case): an unknown id, or an end of the section", "Name a step, or use exit (lower case) to end the task."),
            ("sage-exit-in-section", .warning, "exit inside a section: SageResearch drops the section's result; AssessmentModel leaves only the section on iOS and ends the run on Android", "Move the rule to the task's top level, or expect the section's answers to be lost."),
            ("sage-rules-cancel", .warning, "rules on one answer whose targets cancel each other", "Keep one rule per answer, or give them one target."),
            ("sage-shadowed-rule", .warning, "a rule after one on the same answer that never decides", "Remove it, or reorder the rules."),
            ("sage-no-such-choice", .warning, "eq, ne or ot on a value no choice has", "Compare with one of the choices' values."),
            ("sage-skip-rule-never-matches", .warning, "a rule matching only a skip on a required step without a skip", "Make the step optional, or remove the rule."),
            ("sage-array-equals-scalar", .warning, "AssessmentModel eq of a multiple choice with one value: never true", "Compare with an array of values."),
            ("sage-shared-field-id", .warning, "a legacy field with another step's field identifier: its rules read the other step's answer", "Give each field an identifier of its own."),
            ("sage-rule-without-target", .warning, "an AssessmentModel rule without skipToIdentifier: v1.1.4 does not load it", "Give the rule a skipToIdentifier."),
            ("sage-kotlin-unknown-key", .warning, "an AssessmentModel rule key Kotlin's strict decoder refuses: Android does not load the assessment", "Remove the key."),
            ("sage-order-on-skip", .note, "AssessmentModel ge/le that a skipped answer matches on iOS but not on Android", "Guard the rule against a skipped answer, or expect the platforms to differ."),
            ("sage-kotlin-text-order", .note, "AssessmentModel order rules on numbers, compared as text on Android", "Expect 10 gt 9 to be false on Android; compare numbers of one digit count."),
            ("sage-backward-jump", .note, "a rule jumping back (a loop the respondent must be able to leave)", "Make sure a way out of the loop exists."),
        ], document: "docs/sage.md#lint-rules")
    }
}
