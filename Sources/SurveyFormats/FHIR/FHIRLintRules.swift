import SurveyCore

/// The FHIR lint rules, R4 and C3-PRO (docs/fhir.md#lint-rules), for SARIF and the report.
extension FHIRFormat {
    public var lintRules: [LintRule] {
        let constraints: [(Int, String)] = [
            (1, "a group without items, or a display item with items"), (2, "linkIds that are not unique"), (3, "a display item with a code"),
            (4, "answerOption and answerValueSet on one item"), (5, "answer choices on an item type that takes none (by the invariant's expression)"),
            (6, "required or repeats on a display item"), (7, "enableWhen exists without answerBoolean"), (8, "an initial value on a group or display item"),
            (9, "readOnly on a display item"), (10, "maxLength on an item type that has no length"), (11, "answerOption and initial on one item"),
            (12, "several enableWhen without enableBehavior"), (13, "several initial values on an item that does not repeat"),
        ]
        let rules: [LintRule] = constraints.map { number, summary in
            LintRule(
                "fhir-que-\(number)", .error, "R4 constraint que-\(number): \(summary)", help: "The Questionnaire breaks the FHIR R4 invariant que-\(number); engines differ on such files. Fix the item as the finding's hint says.",
                document: "docs/fhir.md#lint-rules")
        }
        return rules + LintRule.table([
            ("fhir-file-shape", .error, "what stops a load: a member of the wrong type, a missing linkId", "Fix the Questionnaire's shape as the finding says."),
            ("fhir-engine-refuses", .error, "what one engine refuses to render (the other may render it: option engine)", "Fix the construct the finding names, or run the file under the engine that renders it."),
            ("fhir-json-type", .error, "a flag, enableWhen answer[x] or enableBehavior whose JSON or code is not R4's (each engine reads it its own way)", "Write the value as R4 JSON, as the finding's hint says."),
            ("fhir-item-type", .error, "an item without an R4 type (error); a reference, url or open-choice item without options one engine does not render as its type says (warning)", "Give the item one of R4's types, or the type both engines render."),
            ("fhir-choice-trigger", .warning, "a condition on a choice item that LHC-Forms throws on once the item is answered", "Compare a choice item with = or != and answerCoding."),
            ("fhir-dangling-question", .error, "enableWhen.question naming no item (LHC-Forms refuses the file, android-fhir renders it)", "Name an existing linkId (the finding suggests the nearest)."),
            ("fhir-missing-status", .warning, "no status", "Add \"status\": \"active\" (or draft)."),
            ("fhir-ignored-extension", .warning, "minValue or maxValue on a group or display item", "Move the extension to the question it limits."),
            ("fhir-source-no-answers", .warning, "a condition reading a group or display item, which has no answers", "Read a question item instead."),
            ("fhir-operator-type", .warning, "> < >= <= on a boolean, Coding or Reference", "Use = or != for these types."),
            ("fhir-answer-type", .warning, "an answer[x] of a type the source's answers never have", "Use the answer type of the source item."),
            ("fhir-number-type", .warning, "answerDecimal on an integer item or the reverse (android-fhir: = false, != true, orderings throw)", "Use answerInteger for integer items, answerDecimal for decimal ones."),
            ("fhir-never-matches", .warning, "a value that is not among the source's options", "Compare with one of the source's answerOption values."),
            ("fhir-not-equals-unanswered", .note, "a != condition: the engines disagree on an unanswered source", "Decide which engine you target (option engine, or option not-equals), or add an exists condition."),
            ("fhir-forward-reference", .note, "a source after the item it enables", "Move the source before the item, if respondents should answer it first."),
            ("fhir-repeat-preceding", .warning, "in a repeating group, a source after the dependent (the previous instance is read)", "Move the source before the dependent item."),
            ("fhir-repeat-source", .warning, "a source inside a repeating item that does not contain the dependent", "Read a source outside the repeating item, or move the dependent into it."),
            ("fhir-enablewhen-cycle", .warning, "enablement depending on itself through conditions and parents", "Break the cycle."),
            ("fhir-enablewhen-and-expression", .warning, "enableWhen and enableWhenExpression on one item (LHC-Forms needs both, android-fhir reads the expression)", "Keep one of them."),
            ("fhir-sdc-syntax", .error, "an SDC expression that is not FHIRPath, located at the offending character", "Fix the FHIRPath syntax at the column given."),
            ("fhir-sdc-semantic", .error, "an SDC expression FHIRPath refuses before running (unknown function, wrong arguments, impossible types)", "Fix the expression as the message says."),
            ("fhir-sdc-dialect", .warning, "an SDC expression LHC-Forms' fhirpath.js runs and android-fhir's HAPI FHIRPath cannot compile ('_' in a variable name, sum(), weight())", "Write FHIRPath both engines read."),
            ("fhir-sdc-unknown-linkid", .error, "a linkId named in an SDC expression that no item has", "Name the linkId of an item (the finding suggests the nearest)."),
            ("fhir-sdc-out-of-scope", .error, "a %variable no variable in scope, launch context or SDC name defines (LHC-Forms throws, android-fhir reads empty)", "Define the variable on the item, an ancestor or the Questionnaire, or declare the launch context."),
            ("fhir-sdc-constant", .warning, "a calculatedExpression that reads no answer: nothing can change the value", "Use initialExpression, or read the answers the value should follow."),
            ("fhir-sdc-cycle", .error, "SDC expressions that depend on each other in a cycle", "Break the cycle."),
            ("fhir-sdc-server", .warning, "an x-fhir-query expression: it needs a FHIR server, which the simulation has none of", "Expect the simulation to read no data there; pass data as a launch context."),
            ("fhir-sdc-not-evaluated", .warning, "an expression neither engine evaluates as the form runs (CQL, no language, extraction and population contexts)", "Nothing to fix for filling in the form; write FHIRPath if it should run."),
            ("fhir-sdc-engines-differ", .note, "an SDC construct the engines treat differently (answerOptionsToggleExpression: only android-fhir reads it)", "Decide which engine you target (option engine)."),
            ("fhir-sdc-shape", .error, "an SDC extension whose shape is not SDC's (no valueExpression, a variable without name, a launch context without name or type)", "Fix the extension as the finding says."),
            ("fhir-required-unanswerable", .warning, "a required item that is hidden or read-only and has no initial value", "Give it an initial value, or make it optional."),
            ("fhir-stu3-input", .note, "the first STU3-era form, and how it is read", "Nothing to fix for C3-PRO; convert to R4 for other engines."),
            ("c3pro-unsupported-item", .error, "a text, attachment or reference item, which C3-PRO gives no step", "Leave such items out of C3-PRO questionnaires, or use string for free text."),
            ("c3pro-slider-limits", .error, "a slider of more than 13 steps or past ±10000: ResearchKit throws and the app stops", "Narrow the slider's range, or drop minValue/maxValue to get a number field."),
            ("c3pro-inline-options", .error, "choices written in the item (option / answerOption), which C3-PRO never reads", "Put the choices in a ValueSet referenced by options."),
            ("c3pro-valueset-missing", .error, "an options reference that nothing in or beside the file resolves", "Contain the ValueSet, or put ValueSet-NAME.json beside the file."),
            ("c3pro-no-choices", .error, "a choice item without options", "Reference a ValueSet with the choices."),
            ("c3pro-unsupported-enablewhen", .error, "an enableWhen C3-PRO cannot read (hasAnswer, operators other than =, other answer types)", "Use = with a boolean, string or Coding answer."),
            ("c3pro-duplicate-step", .error, "two steps with one identifier", "Give every item a distinct linkId."),
            ("c3pro-no-steps", .error, "nothing becomes a step", "Add questions or titled groups."),
            ("c3pro-slider-default", .warning, "a slider default off its scale: no preset, Next disabled until the slider is moved", "Put the default between minValue and maxValue."),
            ("c3pro-unbounded-integer", .warning, "minValue or maxValue on an integer that is no slider: no bound applies", "Give both bounds (max above min) for a slider, or check the answer elsewhere."),
            ("c3pro-ignored-maxlength", .warning, "maxLength on a text field: C3-PRO does not apply it", "Expect answers of any length."),
            ("c3pro-ignored-maxoccurs", .warning, "questionnaire-maxOccurs on a multiple choice: it bounds nothing", "Expect any number of choices."),
            ("c3pro-generated-linkid", .warning, "an item without linkId: C3-PRO makes up a random id", "Give the item a linkId."),
            ("c3pro-missing-type", .warning, "an item without type: C3-PRO shows a text question", "Give the item a type."),
            ("c3pro-several-conditions", .warning, "several enableWhen on one item: C3-PRO requires all, R4 engines read any or fail", "Keep one condition, or nest the item in a conditional group."),
            ("c3pro-empty-answer", .warning, "an optional multiple choice: skipped, it is submitted with an empty answer list", "Make the question required, or expect an empty answer list in responses."),
            ("c3pro-requirement-without-result", .warning, "a requirement on a question that can lack a result when the step comes up (counted as satisfied)", "Read only questions that are always answered before the step."),
            ("c3pro-multiple-choice-equality", .warning, "a Coding requirement on a multiple choice (the whole array is compared)", "Read a single-choice question instead."),
            ("c3pro-answer-and-item", .warning, "a question with nested items (answer and item on one response item)", "Move the nested items into a group."),
        ], document: "docs/fhir.md#lint-rules")
    }
}
