import SurveyCore

/// What `survey-replay lint` finds in a task file: every problem that stops a load (the decoder reads on past
/// them), and what loads but runs otherwise than its author likely meant: targets no navigator finds,
/// reserved ids read as ordinary ones, `exit` inside a section, rules that can never match, rules that
/// cancel each other (SageResearch) or never decide (AssessmentModel), comparisons the engines make
/// differently. Each rule with its source is in docs/sage.md, "Lint rules".
enum SageLint {
    static func findings(_ outline: SageDecoder.Outline) -> [Diagnostic] {
        var findings = outline.problems
        guard findings.allSatisfy({ $0.severity != .error }), let survey = try? SageSurvey(outline) else { return findings }
        for (index, step) in survey.steps.enumerated() {
            findings += targets(of: index, in: survey)
            findings += rules(of: step, in: survey)
        }
        findings += sharedFieldIdentifiers(in: survey)
        return findings
    }

    private static func finding(
        _ survey: SageSurvey, _ severity: Diagnostic.Severity, at location: SourceLocation, _ message: String, hint: String, rule: String
    ) -> Diagnostic {
        Diagnostic(severity, file: survey.file, location: location, message: message, hint: hint, rule: rule)
    }

    /// Targets: ids no navigator finds (`sage-unknown-target`), reserved ids a survey rule cannot use as
    /// their name suggests (`sage-reserved-target`), `exit` inside a section (`sage-exit-in-section`), and
    /// rules that jump back (`sage-backward-jump`).
    private static func targets(of index: Int, in survey: SageSurvey) -> [Diagnostic] {
        let step = survey.steps[index]
        let assessment = survey.generation == .assessment
        let sectionName = step.section.map { "section '\(survey.sections[$0].id)'" }
        var findings: [Diagnostic] = []
        let candidates = survey.steps.map(\.name) + survey.sections.map(\.name) + (assessment ? ["exit", "nextSection", "beginning"] : ["exit"])
        for (target, location, what) in survey.targets(of: index) {
            let source = "\(what) of '\(step.id)'"
            if !survey.resolvesTarget(target, from: index) {
                let reservedKeys = assessment ? ["exit", "nextSection", "beginning"] : ["exit"]
                if let key = reservedKeys.first(where: { $0.lowercased() == target.lowercased() }) {
                    // Another spelling of a reserved id: SageResearch and AssessmentModel's Swift compare exactly,
                    // Kotlin ignoring case.
                    let swiftOutcome = step.section == nil ? "the \(assessment ? "assessment" : "task") finishes there (as completed)" : "the section ends there"
                    findings.append(
                        finding(
                            survey, assessment ? .warning : .error, at: location,
                            assessment
                                ? "\(source) goes to '\(target)': iOS (Swift) compares reserved ids exactly, so it looks for a node of that id, finds none and \(swiftOutcome); Android (Kotlin) ignores case and reads it as \(key)\(key == "exit" ? ", ending the whole run and saving nothing" : "")"
                                : "\(source) goes to '\(target)': SageResearch compares exit exactly, so it looks for a step of that id, finds none and \(step.section == nil ? "the task finishes there as completed, not as an early exit" : "the section ends, then the task finishes as completed")",
                            hint: "write \(key)", rule: "sage-reserved-target"))
                    continue
                }
                if !assessment, target == "nextStep" || target == "nextSection" {
                    findings.append(
                        finding(
                            survey, .error, at: location,
                            "\(source) goes to '\(target)', which SageResearch's navigator looks up as a step id (only exit is special for a survey rule): no step has it, so the \(step.section == nil ? "task finishes there as completed" : "section ends and then the task finishes")",
                            hint: "name the step to go to", rule: "sage-reserved-target"))
                    continue
                }
                let elsewhere = assessment && survey.steps.contains { $0.name == target || $0.id == target }
                let outcome: String =
                    if assessment {
                        step.section == nil
                            ? "no node of the assessment has it, so the assessment ends there"
                            : "AssessmentModel looks only in \(sectionName!), so \(elsewhere ? "it does not jump there: " : "")the section ends there and the task goes on after it"
                    } else {
                        "no navigator finds it, so \(step.section == nil ? "the task finishes there (as completed)" : "the section ends and then the task finishes (as completed)")"
                    }
                findings.append(
                    finding(
                        survey, elsewhere ? .warning : .error, at: location,
                        "\(source) goes to '\(target)'\(elsewhere ? ", a step outside \(sectionName!)" : ", which no step has"): \(outcome)\(elsewhere ? "" : Spelling.suggestion(for: target, in: candidates))",
                        hint: assessment ? "name a node of this navigator, or exit, nextSection, beginning" : "name a step of this task or section, or exit",
                        rule: "sage-unknown-target"))
                continue
            }
            if assessment, target == "beginning" {
                findings.append(
                    finding(
                        survey, .warning, at: location,
                        "\(source) goes to 'beginning', which AssessmentModel reads as the end of the \(step.section == nil ? "assessment" : "section") when a rule names it; it does not start over (only the pause menu's review goes to the beginning)",
                        hint: "name the first step to start over", rule: "sage-reserved-target"))
            }
            if target == "exit", step.section != nil {
                findings.append(
                    finding(
                        survey, .warning, at: location,
                        assessment
                            ? "\(source) goes to exit inside \(sectionName!): the Swift implementation (iOS) only leaves the section and goes on after it; the Kotlin one (Android) ends the whole run and saves nothing"
                            : "\(source) goes to exit inside \(sectionName!): the task ends early, and the section's result is not added to the task result (its answers are not uploaded)",
                        hint: assessment ? "use nextSection to leave the section on both platforms" : "move the step out of the section, or jump to a step after the section",
                        rule: "sage-exit-in-section"))
            }
            if what.hasPrefix("rule"), let node = survey.child(named: target, in: step.section), case .step(let destination) = node, destination <= index {
                findings.append(
                    finding(
                        survey, .note, at: location,
                        "\(source) jumps back to '\(survey.steps[destination].id)': the steps are asked again\(assessment ? "" : " (from SageResearch 3.4.92 the first answers stay in the history and the rules read them)")",
                        hint: "make sure a respondent can leave the loop (another answer, or a skip)", rule: "sage-backward-jump"))
            }
        }
        return findings
    }

    /// Rules that never match or never decide, and comparisons the engines make differently.
    private static func rules(of step: Sage.Step, in survey: SageSurvey) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let assessment = survey.generation == .assessment
        for (position, rule) in step.rules.enumerated() {
            let field = step.fields.indices.contains(rule.field) ? step.fields[rule.field] : nil
            let op = rule.effectiveOperator(assessment: assessment)
            let name = "rule \(position + 1) of '\(step.id)'"
            // sage-no-such-choice: eq on a value that no choice of the field has can never match.
            if let field, let choices = field.choices, field.other == nil, let matching = rule.matchingAnswer,
                op == .equal || op == .notEqual || op == .otherThan, !(assessment && field.shape.isArray && matching.arrayValue == nil)
            {
                let values = choices.compactMap(\.value)
                let type = SageAnswerType(base: field.shape.base, isArray: false)
                for wanted in matching.arrayValue ?? [matching] where !values.contains(where: { SageResearchComparison.convert($0, type) == SageResearchComparison.convert(wanted, type) && SageResearchComparison.convert($0, type) != nil }) {
                    findings.append(
                        finding(
                            survey, .warning, at: rule.location,
                            "\(name) compares with \(wanted), which no choice of '\(field.id)' has: \(op == .equal ? "it can never match" : "it always holds once answered")",
                            hint: "compare with one of \(values.map(\.description).joined(separator: ", "))", rule: "sage-no-such-choice"))
                }
            }
            if let field, let matching = rule.matchingAnswer, !step.answerIsObject {
                findings += comparisons(name, rule: rule, op: op, field: field, matching: matching, step: step, survey: survey)
            }
            // sage-skip-rule-never-matches: a rule matching only a skipped answer on a step that cannot be left
            // unanswered.
            let matchesOnlySkips = op == .skip || (assessment && rule.matchingAnswer == nil && op == .equal)
            let canBeLeftEmpty = (field?.isOptional ?? true) || skippable(step, in: survey)
            if matchesOnlySkips, !canBeLeftEmpty {
                findings.append(
                    finding(
                        survey, .warning, at: rule.location,
                        "\(name) matches only a skipped answer, but '\(step.id)' is required and offers no skip: it never matches",
                        hint: assessment ? "make the question optional or stop hiding its Skip button" : "make the field optional or give the step a skip action", rule: "sage-skip-rule-never-matches"))
            }
            // Two rules that match the same answers.
            for (earlier, other) in step.rules.prefix(position).enumerated()
            where other.field == rule.field && other.effectiveOperator(assessment: assessment) == op && other.matchingAnswer == rule.matchingAnswer
                && other.target(assessment: assessment) != nil && rule.target(assessment: assessment) != nil
            {
                switch survey.generation {
                case .assessment:
                    findings.append(
                        finding(
                            survey, .warning, at: rule.location,
                            "\(name) matches the same answers as rule \(earlier + 1), which comes first and wins: it never decides",
                            hint: "remove it or change its matchingAnswer", rule: "sage-shadowed-rule"))
                case .legacy where other.target(assessment: false) == rule.target(assessment: false):
                    break
                case .legacy, .v3:
                    let why = survey.generation == .v3 && other.target(assessment: false) == rule.target(assessment: false)
                        ? "question steps count matching rules, so two rules even to one target cancel" : "they go to different targets and cancel"
                    findings.append(
                        finding(
                            survey, .warning, at: rule.location,
                            "\(name) matches the same answers as rule \(earlier + 1): \(why), and the task goes on in order",
                            hint: "keep one rule per answer", rule: "sage-rules-cancel"))
                }
            }
        }
        return findings
    }

    /// Whether a step offers the skip button (AssessmentModel: on iOS or on Android, each reading
    /// `shouldHideActions` its own way, see `SageSession.assessmentHides`).
    private static func skippable(_ step: Sage.Step, in survey: SageSurvey) -> Bool {
        if survey.generation == .assessment {
            return !survey.assessmentHides(step, .skip, kotlin: false) || !survey.assessmentHides(step, .skip, kotlin: true)
        }
        return !step.buttons.hidesSkip && (step.buttons.skip != nil || survey.buttons.skip != nil || step.skipCheckbox != nil)
    }

    /// Comparisons that never hold or that the engines make differently.
    private static func comparisons(
        _ name: String, rule: Sage.Rule, op: Sage.RuleOperator, field: Sage.Field, matching: JSONValue, step: Sage.Step, survey: SageSurvey
    ) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        switch survey.generation {
        case .legacy: break
        case .v3:
            // convertValue: a number type needs a number; a string never converts.
            if [.integer, .decimal, .boolean].contains(field.shape.base), (matching.arrayValue ?? [matching]).contains(where: { $0.stringValue != nil }) {
                findings.append(
                    finding(
                        survey, .warning, at: rule.location,
                        "\(name) compares a \(field.resultType) answer with the string \(matching): SageResearch converts matchingAnswer to the answer's type and a string does not convert to a number, so it never matches",
                        hint: "write matchingAnswer as a number", rule: "sage-type-mismatch"))
            }
        case .assessment:
            if field.shape.isArray, matching.arrayValue == nil, op == .equal {
                findings.append(
                    finding(
                        survey, .warning, at: rule.location,
                        "\(name) compares the multiple-choice answer of '\(field.id)' with the single value \(matching): AssessmentModel compares whole values, so an array never equals it (Swift and Kotlin)",
                        hint: "compare with an array, e.g. [\(matching)], which matches only that exact selection", rule: "sage-array-equals-scalar"))
                return findings
            }
            let kind = matching.arrayValue?.first ?? matching
            if op == .equal || op == .notEqual, let mismatch = equalityMismatch(field.shape.base, kind) {
                findings.append(
                    finding(
                        survey, .warning, at: rule.location,
                        "\(name) compares a \(field.shape.base.rawValue) answer with \(matching.kindDescription): \(mismatch)",
                        hint: "write matchingAnswer as \(SageDataType.describe(field.shape.base))", rule: "sage-type-mismatch"))
            }
            // An earlier rule without matchingAnswer already takes a skipped answer.
            let skipTakenEarlier = step.rules.prefix(while: { $0.location != rule.location }).contains { $0.matchingAnswer == nil && $0.written ?? .equal == .equal }
            if [.greaterThanOrEqual, .lessThanOrEqual].contains(op), !skipTakenEarlier {
                findings.append(
                    finding(
                        survey, .note, at: rule.location,
                        "\(name) uses \(op.rawValue): on iOS (Swift) it also matches a skipped answer, since \(op == .greaterThanOrEqual ? "ge is !(answer < value)" : "le is !(value < answer)") and nothing is less than null; on Android (Kotlin) it does not",
                        hint: "add a rule with no matchingAnswer before it to send skipped answers elsewhere", rule: "sage-order-on-skip"))
            }
            if [.greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual].contains(op), matching.numberValue != nil {
                findings.append(
                    finding(
                        survey, .note, at: rule.location,
                        "\(name) orders numbers: on Android (Kotlin) AssessmentModel compares their JSON text, so 10 is less than 9 there",
                        hint: "prefer eq rules, or values of one digit count", rule: "sage-kotlin-text-order"))
            }
        }
        return findings
    }

    /// Whether an AssessmentModel answer of this base type can ever equal a matching value of this kind, per
    /// implementation: Swift's `JsonElement ==` puts the matching value on the left, so a string, a boolean or
    /// null equals only the same kind, and a number also a string answer that reads as it (JsonModel@7b81f56
    /// `JsonElement.swift:120-135, 212-219`); Kotlin compares two primitives by their JSON text, so `"5"`
    /// equals 5 and `"true"` equals true (AssessmentModelKMM@08288272 `…/survey/SurveyRule.kt:123`). Nil when
    /// both can.
    private static func equalityMismatch(_ base: Sage.BaseType, _ kind: JSONValue) -> String? {
        let swift: Bool
        let kotlin: Bool
        switch kind {
        case .number:
            swift = [.integer, .decimal, .string].contains(base)
            kotlin = swift
        case .string(let text):
            swift = base == .string || base == .date
            kotlin =
                switch base {
                case .integer, .decimal: Double(text) != nil
                case .boolean: text == "true" || text == "false"
                default: true
                }
        case .bool:
            swift = base == .boolean
            kotlin = base != .integer && base != .decimal
        default:
            return nil
        }
        if base == .codable || (swift && kotlin) { return nil }
        if !swift && !kotlin { return "they are never equal (Swift and Kotlin)" }
        return swift
            ? "iOS (Swift) can match it, but Android (Kotlin) compares the JSON text, which never equals"
            : "iOS (Swift) never matches it (a \(kind.kindDescription) equals only the same kind there), but Android (Kotlin) compares the JSON text, so \(CanonicalJSON.compact(kind)) matches the answer of that text"
    }

    /// `sage-shared-field-id`: rules find a field's answer by its identifier anywhere in the history, from
    /// its start: a field of an earlier step with the same identifier answers the later step's rules.
    private static func sharedFieldIdentifiers(in survey: SageSurvey) -> [Diagnostic] {
        guard survey.generation == .legacy else { return [] }
        var firstStep: [String: Int] = [:]
        var findings: [Diagnostic] = []
        for (index, step) in survey.steps.enumerated() {
            for field in step.fields {
                if let earlier = firstStep[field.id], earlier != index, step.rules.contains(where: { step.fields[$0.field].id == field.id }) {
                    findings.append(
                        finding(
                            survey, .warning, at: field.location,
                            "field '\(field.id)' of '\(step.id)' has the identifier of a field of '\(survey.steps[earlier].id)': SageResearch finds a rule's answer by field identifier from the start of the history, so the rules of '\(step.id)' read the answer given on '\(survey.steps[earlier].id)'",
                            hint: "give each field its own identifier", rule: "sage-shared-field-id"))
                } else if firstStep[field.id] == nil {
                    firstStep[field.id] = index
                }
            }
        }
        return findings
    }
}
