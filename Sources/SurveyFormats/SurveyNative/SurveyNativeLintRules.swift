import SurveyCore

/// The SurveyNative lint rules (docs/surveynative.md#lint-rules), for SARIF and the report.
extension SurveyNativeFormat {
    public var lintRules: [LintRule] {
        LintRule.table([
            ("sn-file-shape", .error, "questions or submit of the wrong shape; a question without id or question_type", "Give the file a questions array of objects, each with id and question_type, and a submit object."),
            ("sn-duplicate-id", .error, "a question id used twice", "Rename one of the questions: the engine keeps one answer per id, so both share it."),
            ("sn-dangling-id", .error, "a show_if id, custom ids entry or answer_to_question_id naming no question", "Use the id of an existing question (the finding suggests the nearest)."),
            ("sn-dependency-cycle", .error, "show_if conditions among top-level questions that depend on each other in a cycle", "Break the cycle: the engine's load recursion never ends on it."),
            ("sn-crash-on-show", .error, "a value the engine force-unwraps and crashes on when the question is shown", "Add the missing options, fields, values, table_questions or label_options, or fix the year or date."),
            ("sn-condition-without-value", .error, "a condition the engine evaluates that has no value or no operation string (it crashes)", "Add the operation and the value the condition compares with."),
            ("sn-validation-crash", .error, "a validation that crashes the engine (no on_fail_message, no for_label, an answer_to_question_id that can be unanswered)", "Give every validation an on_fail_message, a for_label on dynamic labels, and compare only with questions answered before it."),
            ("sn-submit-crash", .error, "a submit without button_title or with a missing or invalid url", "Give submit a button_title and a valid url."),
            ("sn-unknown-type", .error, "a question type the engine does not know (it blocks the survey)", "Use one of SurveyNative's question types."),
            ("sn-max-chars", .error, "a max_chars that is not an integer string (the field refuses all typing)", "Write max_chars as a string of digits, e.g. \"3\"."),
            ("sn-validation-always-fails", .error, "a validation that can never pass", "Use a numeric operation with a number value, or remove the validation."),
            ("sn-unknown-operation", .error, "an operation the engine does not know (a simple one is always false, a tree always true)", "Use one of the eight operations, or and/or for trees."),
            ("sn-number-value", .error, "a number or boolean compared with SurveyNative's string answers (never equal)", "Write the value as a string, e.g. \"3\"."),
            ("sn-value-shape", .error, "a value of a shape no answer of the question has (null, a string against a list)", "Compare with a value of the answer's shape."),
            ("sn-contains-non-array", .error, "contains on an answer that is not a list", "Use equals, or contains on a multi_select or add_text_field answer."),
            ("sn-unknown-value", .error, "a value that is not among the question's options or values", "Use an option's exact text (the finding suggests the nearest)."),
            ("sn-unknown-subid", .error, "a subid naming no row or label", "Name a table row id, a field label, or an Other option's title."),
            ("sn-not-a-number", .error, "a numeric comparison that can never be true", "Compare a number-valued answer with a number string."),
            ("sn-constant-condition", .error, "an and that contradicts itself, an or that always holds, an empty tree", "Rewrite the condition so that it can be both true and false."),
            ("sn-malformed-condition", .error, "a condition the engine reads as always true", "Give the condition an id, an operation and a value, or subconditions."),
            ("sn-forward-reference", .warning, "a show_if naming a later question: shown unconditionally until that one is answered", "Move the question after the one it depends on."),
            ("sn-show-if-on-first", .warning, "a show_if on the first question (always shown at the start)", "Remove the show_if, or move the question."),
            ("sn-stale-answer", .warning, "a condition reading a question that can be hidden, whose kept answer still drives it", "Also test what hides the question, or clear its answer in the app."),
            ("sn-stale-sub-question", .warning, "a sub-question depending on another section (its visibility is cached)", "Make the sub-question depend only on its parent question."),
            ("sn-dead-end", .warning, "a last question that can be hidden while the respondent is on it (no Submit)", "End the survey with a question that is always shown."),
            ("sn-multi-select-stall", .warning, "a later question a multi_select tap can hide while it is active (the survey stalls until a Next)", "Put the question where the multi_select cannot hide it while it is active, or make it depend on a single_select."),
            ("sn-custom-without-key", .warning, "a custom condition without extra.id (never evaluated)", "Add extra.id naming the host's check."),
            ("sn-custom-without-ids", .warning, "a custom condition without ids (never evaluated)", "List the questions the host's check reads in ids."),
            ("sn-date-diff-order", .warning, "date_diff with more than one component (added in dictionary order)", "Use one component."),
            ("sn-numeric-string", .warning, "year keys, initial_year or max_chars written as JSON numbers (ignored)", "Write them as strings."),
            ("sn-ignored-key", .warning, "a key the engine skips", "Remove it, or move it where the engine reads it."),
            ("sn-ignored-validation", .warning, "a validation the engine never runs", "Remove it, or put it on a question type that validates."),
            ("sn-table-select-options", .warning, "a table_select with more than three options (only three show)", "Keep three options, or use another question type."),
            ("sn-unknown-label", .warning, "a for_label no label set has (the validation never runs)", "Name one of the question's labels."),
            ("sn-validation-message", .warning, "an on_fail_message stating another bound than the one checked", "Make the message state the bound the validation checks."),
            ("sn-hidden-answer-submitted", .note, "a question that can be hidden after it is answered: its answer is submitted anyway", "Expect the answer in the payload, or have the server ignore answers of hidden questions."),
        ], document: "docs/surveynative.md#lint-rules")
    }
}
