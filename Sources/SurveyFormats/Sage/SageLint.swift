import SurveyCore

/// What `survey-replay lint` finds in a task file: every problem that stops a load (the decoder reads on past
/// them), and what loads but runs otherwise than its author meant (reference §1.2): targets the navigator
/// does not find (the task ends silently), rules that can never match, rules that cancel each other
/// (legacy, v3) or can never be reached (the successor's first match wins).
enum SageLint {
    static func findings(_ outline: SageDecoder.Outline) -> [Diagnostic] {
        var findings = outline.problems
        guard findings.allSatisfy({ $0.severity != .error }), let survey = try? SageSurvey(outline) else { return findings }
        for (index, step) in survey.steps.enumerated() {
            findings += targets(of: step, at: index, in: survey)
            findings += rules(of: step, in: survey)
        }
        return findings
    }

    private static func finding(
        _ survey: SageSurvey, _ severity: Diagnostic.Severity, at location: SourceLocation, _ message: String, hint: String, rule: String
    ) -> Diagnostic {
        Diagnostic(severity, file: survey.file, location: location, message: message, hint: hint, rule: rule)
    }

    /// `sage-unknown-target`: a rule's `skipToIdentifier`, a `nextStepIdentifier` or a skip action's target
    /// that is neither a step, a section nor a reserved id of the generation: the real engine's `step(with:)`
    /// is nil and the task simply ends. `sage-backward-jump` notes a rule that jumps back (a loop).
    private static func targets(of step: Sage.Step, at index: Int, in survey: SageSurvey) -> [Diagnostic] {
        var named: [(target: String, location: SourceLocation, what: String)] = step.rules.compactMap { rule in
            rule.target.map { ($0, rule.targetLocation, rule.targetWritten ? "a survey rule" : "a survey rule (default target)") }
        }
        if let next = step.nextStepIdentifier, let location = step.nextStepLocation { named.append((next, location, "nextStepIdentifier")) }
        if let skip = step.skipTarget, let location = step.skipTargetLocation { named.append((skip, location, "the skip action")) }
        var findings: [Diagnostic] = []
        let candidates = survey.steps.map(\.name) + survey.sections.map(\.name) + survey.generation.reservedTargets
        for (target, location, what) in named {
            if !survey.isKnownTarget(target, from: index) {
                let other = Sage.Generation.allCases.first { $0 != survey.generation && $0.reservedTargets.contains(target) }
                let reserved = other.map { " ('\(target)' is reserved only in \($0.summary))" } ?? ""
                findings.append(
                    finding(
                        survey, .error, at: location,
                        "\(what) of '\(step.id)' jumps to '\(target)', which no step has\(reserved): the real engine ends the task silently there\(Spelling.suggestion(for: target, in: candidates))",
                        hint: "name a step of this task or section, or one of \(survey.generation.reservedTargets.joined(separator: ", "))",
                        rule: "sage-unknown-target"))
            } else if what.hasPrefix("a survey rule"), case .step(let destination) = survey.destination(of: target, from: index), destination <= index {
                findings.append(
                    finding(
                        survey, .note, at: location,
                        "a survey rule of '\(step.id)' jumps back to '\(survey.steps[destination].id)': the history is truncated from there and the steps are asked again",
                        hint: "make sure a respondent can leave the loop (another answer, or a skip)", rule: "sage-backward-jump"))
            }
        }
        return findings
    }

    /// Rules that never match or never decide.
    private static func rules(of step: Sage.Step, in survey: SageSurvey) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (position, rule) in step.rules.enumerated() {
            let field = step.fields.indices.contains(rule.field) ? step.fields[rule.field] : nil
            // sage-no-such-choice: eq on a value that no choice of the field has can never match.
            if let field, let choices = field.choices, field.other == nil, let matching = rule.matchingAnswer,
                rule.ruleOperator == .equal || rule.ruleOperator == .notEqual || rule.ruleOperator == .otherThan
            {
                let values = choices.compactMap(\.value)
                for wanted in matching.arrayValue ?? [matching] where !values.contains(where: { SageComparison.equal($0, wanted, base: field.shape.base, legacy: true) }) {
                    findings.append(
                        finding(
                            survey, .warning, at: rule.location,
                            "rule \(position + 1) of '\(step.id)' compares with \(wanted), which no choice of '\(field.id)' has: \(rule.ruleOperator == .equal ? "it can never match" : "it always holds once answered")",
                            hint: "compare with one of \(values.map(\.description).joined(separator: ", "))", rule: "sage-no-such-choice"))
                }
            }
            // sage-type-mismatch (successor): a matching value of another type than the answers never equals them.
            if survey.generation == .assessment, let field, let matching = rule.matchingAnswer, !step.answerIsObject {
                let kind = matching.arrayValue?.first ?? matching
                let fits: Bool =
                    switch field.shape.base {
                    case .boolean: kind.boolValue != nil
                    case .integer, .decimal: kind.numberValue != nil
                    case .string, .date: kind.stringValue != nil
                    case .codable: true
                    }
                if !fits {
                    findings.append(
                        finding(
                            survey, .warning, at: rule.location,
                            "rule \(position + 1) of '\(step.id)' compares a \(field.shape.base.rawValue) answer with \(matching.kindDescription): they are never equal",
                            hint: "write matchingAnswer as \(SageDataType.describe(field.shape.base))", rule: "sage-type-mismatch"))
                }
            }
            // sage-skip-rule-never-matches: `de` (or the successor's null) on a step that cannot be left unanswered.
            let matchesOnlySkips = rule.ruleOperator == .skip || (survey.generation == .assessment && rule.matchingAnswer == nil && rule.ruleOperator == .equal)
            if matchesOnlySkips, !step.canSkip, field?.isOptional == false {
                findings.append(
                    finding(
                        survey, .warning, at: rule.location,
                        "rule \(position + 1) of '\(step.id)' matches only a skipped answer, but '\(step.id)' is required and has no skip: it never matches",
                        hint: "make the step optional or give it a skip action", rule: "sage-skip-rule-never-matches"))
            }
            // Two rules that match the same answers.
            for (earlier, other) in step.rules.prefix(position).enumerated()
            where other.field == rule.field && other.ruleOperator == rule.ruleOperator && other.matchingAnswer == rule.matchingAnswer && other.target != nil && rule.target != nil {
                switch survey.generation {
                case .assessment:
                    findings.append(
                        finding(
                            survey, .warning, at: rule.location,
                            "rule \(position + 1) of '\(step.id)' matches the same answers as rule \(earlier + 1), which comes first and wins: it never decides",
                            hint: "remove it or change its matchingAnswer", rule: "sage-shadowed-rule"))
                case .legacy where other.target == rule.target:
                    break
                case .legacy, .v3:
                    let why = survey.generation == .v3 && other.target == rule.target
                        ? "v3 counts matching rules, so two rules even to one target cancel" : "they jump to different targets and cancel"
                    findings.append(
                        finding(
                            survey, .warning, at: rule.location,
                            "rule \(position + 1) of '\(step.id)' matches the same answers as rule \(earlier + 1): \(why), and the task goes on in order",
                            hint: "keep one rule per answer", rule: "sage-rules-cancel"))
                }
            }
        }
        return findings
    }
}
