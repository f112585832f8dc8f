import SurveyCore

/// Validations that crash the engine or that nothing passes, seen with the rest of the survey (reference §5):
/// a missing `on_fail_message` or `for_label`, an `answer_to_question_id` whose answer can be missing when
/// the validation runs (force-unwrapped) or is never a number, a `for_label` no label set has. What an entry
/// shows on its own (an unknown operation, a value that is not a number) is the loader's.
extension SurveyNativeLint {
    static func validationFindings(_ outline: SurveyNativeOutline) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (slot, question) in outline.questions.enumerated() {
            var labels: [String]?
            if case .dynamicLabelTextField(let labelSets, _, _) = question.kind { labels = labelSets.flatMap { $0 } }
            for validation in question.kind.allValidations {
                func finding(_ severity: Diagnostic.Severity, _ message: String, hint: String, rule: String) {
                    findings.append(outline.finding(severity, at: validation.location, message, hint: hint, rule: rule))
                }
                if validation.failMessage == nil {
                    finding(
                        .error, "this validation of '\(question.id)' has no \"on_fail_message\"; when it fails, the engine force-casts the missing message and crashes (DefaultValidator.swift:21-32)",
                        hint: "add \"on_fail_message\": a sentence telling the respondent what to type", rule: "sn-validation-crash")
                }
                if let labels {
                    if let label = validation.forLabel {
                        if !labels.contains(label) {
                            finding(
                                .warning, "for_label '\(label)' is not a label of '\(question.id)' (\(SurveyNativeAnswerForm.list(labels))), so this validation never runs\(Spelling.suggestion(for: label, in: labels))",
                                hint: "name one of the labels of label_options, exactly as written", rule: "sn-unknown-label")
                        }
                    } else {
                        finding(
                            .error, "this validation of the dynamic_label_text_field '\(question.id)' has no \"for_label\", which the engine force-unwraps when it validates (reference §5)",
                            hint: "add \"for_label\": the label of the field it checks", rule: "sn-validation-crash")
                    }
                }
                if let mismatch = messageMismatch(validation) {
                    finding(.warning, mismatch, hint: "make the message and the value say the same thing", rule: "sn-validation-message")
                }
                guard case .answer(let other) = validation.operand, let target = outline.slotByID[other],
                    SurveyNativeDecoder.alwaysFails(validation.operation, validation.operand) == nil
                else { continue }
                if let why = whyUnanswered(target, whenValidating: slot, outline) {
                    finding(
                        .error, "this validation of '\(question.id)' compares with the answer to '\(other)', which the engine force-unwraps (DefaultValidator.swift:57-59), but \(why): the engine then crashes",
                        hint: "compare with a fixed value, or with an earlier question that is always shown", rule: "sn-validation-crash")
                }
                let answer = SurveyNativeAnswerForm(outline.questions[target].kind)
                if !answer.canBeNumber {
                    finding(
                        .error, "this validation of '\(question.id)' compares with the answer to '\(other)', which is \(answer.description), never a number, so it always fails (reference §5)",
                        hint: "compare with a question answered with a number, or with a fixed value", rule: "sn-validation-always-fails")
                }
            }
        }
        return findings
    }

    /// A failure message that tells the respondent another bound than the one checked: it names numbers,
    /// none of them the bound or next to it ("less than 635", "must be less than 645kg"), or it says "at
    /// least N" of a strict "greater than N" (or "at most N" of "less than N"), which rejects N itself.
    static func messageMismatch(_ validation: SurveyNative.Validation) -> String? {
        guard let message = validation.failMessage, case .value(let operand) = validation.operand,
            let bound = SurveyNativeComparison.number(operand)
        else { return nil }
        let numbers = numbers(in: message)
        guard !numbers.isEmpty else { return nil }
        let boundText = CanonicalJSON.format(number: bound)
        if !numbers.contains(where: { abs($0 - bound) <= 1 }) {
            let named = numbers.map { CanonicalJSON.format(number: $0) }.joined(separator: ", ")
            return "the message \"\(message)\" names \(named), but the validation checks \(validation.operation) \(boundText)"
        }
        let lowered = message.lowercased()
        let strictLow = validation.operation == "greater than" && lowered.contains("at least \(boundText)")
        let strictHigh = validation.operation == "less than" && lowered.contains("at most \(boundText)")
        if strictLow || strictHigh {
            return "the message \"\(message)\" allows \(boundText), but the validation is \(validation.operation) \(boundText), which refuses \(boundText) itself"
        }
        return nil
    }

    /// The numbers written in a text, "1,400" read as 1400.
    private static func numbers(in text: String) -> [Double] {
        var numbers: [Double] = []
        var current = ""
        for character in text + " " {
            if character.isASCII, character.isNumber || (character == "," || character == ".") && !current.isEmpty {
                current.append(character)
            } else if !current.isEmpty {
                var digits = current.filter { $0 != "," }
                while digits.hasSuffix(".") { digits.removeLast() }
                if let number = Double(digits) { numbers.append(number) }
                current = ""
            }
        }
        return numbers
    }

    /// Why the question at `target` can be unanswered while the question at `slot` is validated. The engine
    /// passes a top-level question only once it is fully answered, so an earlier question that cannot be
    /// hidden always has its answer by then.
    private static func whyUnanswered(_ target: Int, whenValidating slot: Int, _ outline: SurveyNativeOutline) -> String? {
        let named = outline.questions[target]
        let validated = outline.questions[slot]
        if target == slot {
            switch validated.kind {
            // Tapping the Other row stores the answer before its text is validated.
            case .singleSelect, .multiSelect: return nil
            default: return "that is its own answer, which is not stored before its first validation passes"
            }
        }
        if named.owner > validated.owner { return "'\(named.id)' comes later in the survey" }
        if named.owner == validated.owner { return "'\(named.id)' is in the same section and can be answered after it" }
        if !outline.conditionsHiding(target, from: slot).isEmpty { return "'\(named.id)' can be hidden by a show_if and then left unanswered" }
        return nil
    }
}
