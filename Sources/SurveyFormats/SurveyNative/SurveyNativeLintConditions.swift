import SurveyCore

/// Conditions that can never be true or never be false (reference §4): a leaf whose operation the engine
/// does not know, whose value no answer can equal, or whose comparison the answer's shape defeats; an `and`
/// or `or` whose leaves contradict each other; a leaf without its value, which crashes the engine. One
/// finding per cause: a leaf gets the first rule that applies, and a tree is judged only on leaves without
/// a finding of their own.
extension SurveyNativeLint {
    static func conditionFindings(_ outline: SurveyNativeOutline) -> [Diagnostic] {
        var findings = outline.conditions.valuelessLeaves.compactMap { condition -> Diagnostic? in
            guard case .leaf(let leaf) = condition.kind else { return nil }
            return outline.finding(
                .error, at: condition.location,
                "this condition on '\(leaf.question)' has no \"value\", which the engine force-unwraps (SQ:472): it crashes as soon as it evaluates the condition",
                hint: "add the \"value\" the answer is compared with", rule: "sn-condition-without-value")
        }
        for question in outline.questions {
            guard let showIf = question.showIf else { continue }
            var flagged: Set<SourceLocation> = []
            for atom in showIf.atoms {
                switch atom.kind {
                case .leaf(let leaf):
                    if let finding = leafFinding(leaf, at: atom.location, in: outline) {
                        findings.append(finding)
                        flagged.insert(atom.location)
                    }
                case .host(let host) where host.key == nil:
                    findings.append(
                        outline.finding(
                            .warning, at: atom.location,
                            "this custom condition has no \"extra\": {\"id\": …}, so a scenario cannot say what the host app decides; the harness takes it as false, as the engine does without a delegate (reference §4)",
                            hint: "add \"extra\": {\"id\": \"a_name\"} and set it in scenarios with `custom a_name true`",
                            rule: "sn-custom-without-key"))
                case .host, .constant, .all, .any:
                    break
                }
            }
            findings += constantTrees(in: showIf, skipping: flagged, outline: outline)
        }
        return findings
    }

    // MARK: leaves

    /// The first reason a leaf is constant or misread, if any.
    private static func leafFinding(_ leaf: ConditionLeaf, at location: SourceLocation, in outline: SurveyNativeOutline) -> Diagnostic? {
        // A dangling id, a missing value or operation is reported by the loader.
        guard let slot = outline.slotByID[leaf.question], let operand = leaf.operand, outline.conditions.crashes[location.position] == nil else { return nil }
        let question = outline.questions[slot]
        let test = leaf.test
        let outcome = test.isNegation ? "always true" : "never true"
        func finding(_ rule: String, _ message: String, hint: String, severity: Diagnostic.Severity = .error) -> Diagnostic {
            outline.finding(severity, at: location, message, hint: hint, rule: rule)
        }

        if test == .unknown {
            let written = leaf.operation.isEmpty ? "this condition's \"operation\" is empty" : "\"\(leaf.operation)\" is not an operation SurveyNative knows"
            return finding(
                "sn-unknown-operation", "\(written), so the engine takes the condition as false (reference §4)",
                hint: "use equals, not equals, greater than, greater than or equal to, less than, less than or equal to, contains or not contains")
        }
        if !test.isNumeric {
            switch operand {
            case .number, .bool:
                let text = CanonicalJSON.compact(operand)
                return finding(
                    "sn-number-value",
                    "the value \(text) is \(operand.kindDescription), but SurveyNative's answers are strings, which never equal \(operand.kindDescription) (reference §4), so this condition is \(outcome)",
                    hint: "write the value as a string: \"\(text)\"")
            case .null:
                return finding(
                    "sn-value-shape", "the value null equals no answer (reference §4), so this condition is \(outcome)",
                    hint: "write the answer to compare with as a string")
            case .string, .array, .object:
                break
            }
        }

        var form = SurveyNativeAnswerForm(question.kind)
        if let key = leaf.key {
            switch SurveyNativeAnswerForm.reading(key, of: question.kind) {
            case .part(let part):
                form = part
            case .missing(let keys):
                return finding(
                    "sn-unknown-subid",
                    "subid '\(key)' is not a part of the answer to '\(question.id)' (\(SurveyNativeAnswerForm.list(keys))), so the engine compares a missing part and this condition is \(outcome)",
                    hint: "use a part the answer has\(Spelling.suggestion(for: key, in: keys))")
            case .ignored(let why):
                return finding("sn-unknown-subid", why, hint: "remove subid, or name an Other option's title", severity: .warning)
            }
        }
        if case .none = form { return nil }  // an unknown type is reported by the loader

        let problem: Problem?
        switch test {
        case .equals, .notEquals: problem = equalityProblem(operand, form, question, outcome)
        case .contains, .notContains: problem = membershipProblem(operand, form, question, outcome)
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual: problem = numericProblem(operand, form, question, outcome)
        case .unknown: problem = nil
        }
        return problem.map { finding($0.rule, $0.message, hint: $0.hint, severity: $0.severity) }
    }

    private struct Problem {
        let rule: String
        let message: String
        let hint: String
        var severity = Diagnostic.Severity.error
    }

    /// `equals` / `not equals`: Cocoa equality without coercion (reference §4).
    private static func equalityProblem(
        _ operand: JSONValue, _ form: SurveyNativeAnswerForm, _ question: SurveyNative.Question, _ outcome: String
    ) -> Problem? {
        let id = question.id
        switch (operand, form) {
        case (.string(let value), .text(let choices?)):
            return choices.contains(value) ? nil : notAnOption(value, choices, question, outcome)
        case (.string(let value), .choice(let options, let others)):
            if options.contains(value) { return nil }
            if others.contains(value) {
                return Problem(
                    rule: "sn-unknown-value",
                    message: "'\(value)' is an Other option of '\(id)': choosing it stores {\"\(value)\": typed text}, a dictionary that never equals a string (reference §4), so this condition is \(outcome)",
                    hint: "add \"subid\": \"\(value)\" to compare the typed text")
            }
            return notAnOption(value, options, question, outcome)
        case (.string(let value), .list):
            return Problem(
                rule: "sn-value-shape", message: "the answer to '\(id)' is \(form.description), which never equals the string '\(value)', so this condition is \(outcome)",
                hint: "use contains to test whether '\(value)' was picked")
        case (.string, .dictionary):
            return Problem(
                rule: "sn-value-shape", message: "the answer to '\(id)' is \(form.description), which never equals a string, so this condition is \(outcome)",
                hint: "add \"subid\" to compare one part of it")
        case (.array(let elements), .list(let choices, let typed)):
            guard elements.allSatisfy({ $0.stringValue != nil }) else {
                return Problem(
                    rule: "sn-value-shape", message: "the answer to '\(id)' is a list of strings, and this list holds something else, so this condition is \(outcome)",
                    hint: "write the list as strings")
            }
            if let choices, !typed, let stray = elements.compactMap(\.stringValue).first(where: { !choices.contains($0) }) {
                return notAnOption(stray, choices, question, outcome)
            }
            return nil
        case (.object, .dictionary), (.object, .choice), (.string, .text(nil)), (.string, .date):
            return nil
        default:
            return Problem(
                rule: "sn-value-shape", message: "the answer to '\(id)' is \(form.description), which never equals \(operand.kindDescription), so this condition is \(outcome)",
                hint: "compare with a value of the answer's shape (reference §2)")
        }
    }

    /// `contains` / `not contains`: element tests on arrays only; any other answer never contains anything.
    private static func membershipProblem(
        _ operand: JSONValue, _ form: SurveyNativeAnswerForm, _ question: SurveyNative.Question, _ outcome: String
    ) -> Problem? {
        guard case .list(let choices, let typed) = form else {
            return Problem(
                rule: "sn-contains-non-array",
                message: "the answer to '\(question.id)' (a \(question.kind.typeName)) is \(form.description), not a list: contains never holds on it, there is no substring test (reference §4), so this condition is \(outcome)",
                hint: "use equals; contains works on the lists of multi_select and add_text_field")
        }
        guard case .string(let value) = operand else {
            return Problem(
                rule: "sn-value-shape", message: "the answer to '\(question.id)' is a list of strings, which never holds \(operand.kindDescription), so this condition is \(outcome)",
                hint: "write the value as a string")
        }
        guard let choices, !choices.contains(value) else { return nil }
        if typed {
            return Problem(
                rule: "sn-unknown-value",
                message: "'\(value)' is not among the options of '\(question.id)' (\(SurveyNativeAnswerForm.list(choices))): it is in the list only if a respondent types it as the Other text\(Spelling.suggestion(for: value, in: choices))",
                hint: "compare with one of the options, exactly as written", severity: .warning)
        }
        return notAnOption(value, choices, question, outcome)
    }

    /// Numeric comparisons: both sides through Double, false when either is not a number.
    private static func numericProblem(
        _ operand: JSONValue, _ form: SurveyNativeAnswerForm, _ question: SurveyNative.Question, _ outcome: String
    ) -> Problem? {
        if SurveyNativeComparison.number(operand) == nil {
            return Problem(
                rule: "sn-not-a-number", message: "the value \(CanonicalJSON.compact(operand)) is not a number, so this comparison is \(outcome)",
                hint: "compare with a number, e.g. \"18\"")
        }
        guard form.canBeNumber else {
            return Problem(
                rule: "sn-not-a-number", message: "the answer to '\(question.id)' is \(form.description), never a number, so this comparison is \(outcome)",
                hint: "use equals or contains, or compare a question answered with a number")
        }
        return nil
    }

    private static func notAnOption(_ value: String, _ choices: [String], _ question: SurveyNative.Question, _ outcome: String) -> Problem {
        if case .tableSelect(let options, _) = question.kind, options.contains(value) {
            return Problem(
                rule: "sn-unknown-value",
                message: "'\(value)' is an option of '\(question.id)' beyond the third, which the table's three buttons cannot pick (reference §1), so this condition is \(outcome)",
                hint: "keep three options, and compare with one of them")
        }
        let what = if case .segmentSelect = question.kind { "values" } else { "options" }
        return Problem(
            rule: "sn-unknown-value",
            message: "'\(value)' is not among the \(what) of '\(question.id)' (\(SurveyNativeAnswerForm.list(choices))), so this condition is \(outcome)\(Spelling.suggestion(for: value, in: choices))",
            hint: "compare with one of them, exactly as written (case matters)")
    }

    // MARK: trees

    /// `and` and `or` nodes whose own leaves contradict each other, each judged on the leaves directly
    /// under it that have no finding of their own.
    private static func constantTrees(in condition: Condition, skipping flagged: Set<SourceLocation>, outline: SurveyNativeOutline) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        condition.visit { node in
            let isAnd: Bool
            let children: [Condition]
            switch node.kind {
            case .all(let all): (isAnd, children) = (true, all)
            case .any(let any): (isAnd, children) = (false, any)
            case .leaf, .host, .constant: return
            }
            let leaves = children.compactMap { child -> ConditionLeaf? in
                guard case .leaf(let leaf) = child.kind, !flagged.contains(child.location), leaf.operand != nil,
                    outline.slotByID[leaf.question] != nil
                else { return nil }
                return leaf
            }
            if let reason = isAnd ? contradiction(among: leaves) : tautology(among: leaves) {
                findings.append(
                    outline.finding(
                        .error, at: node.location, "this \(isAnd ? "and is never true" : "or is always true"): \(reason)",
                        hint: isAnd ? "did you mean or?" : "did you mean and?", rule: "sn-constant-condition"))
            }
        }
        return findings
    }

    /// Why no answer satisfies all the leaves of an `and`, if none can.
    private static func contradiction(among leaves: [ConditionLeaf]) -> String? {
        for group in groupedByPart(leaves) {
            let question = group[0].question
            let equal = Set(group.filter { $0.test == .equals }.compactMap(\.operand))
            if equal.count > 1 {
                return "'\(question)' cannot equal both \(equal.map(CanonicalJSON.compact).sorted().prefix(2).joined(separator: " and "))"
            }
            for (positive, negative) in [(CompiledCondition.Test.equals, CompiledCondition.Test.notEquals), (.contains, .notContains)] {
                let with = Set(group.filter { $0.test == positive }.compactMap(\.operand))
                if let both = group.first(where: { $0.test == negative && with.contains($0.operand!) })?.operand {
                    return "'\(question)' cannot both \(positive.verb) and not \(positive.verb) \(CanonicalJSON.compact(both))"
                }
            }
            var lowest = -Double.infinity
            var highest = Double.infinity
            var open = (low: false, high: false)
            for leaf in group {
                guard let bound = leaf.operand.flatMap(SurveyNativeComparison.number) else { continue }
                switch leaf.test {
                case .greaterThan where bound >= lowest: (lowest, open.low) = (bound, true)
                case .greaterThanOrEqual where bound > lowest: (lowest, open.low) = (bound, false)
                case .lessThan where bound <= highest: (highest, open.high) = (bound, true)
                case .lessThanOrEqual where bound < highest: (highest, open.high) = (bound, false)
                default: break
                }
            }
            if lowest > highest || (lowest == highest && (open.low || open.high)) {
                return "no number of '\(question)' is both above \(CanonicalJSON.format(number: lowest)) and below \(CanonicalJSON.format(number: highest))"
            }
        }
        return nil
    }

    /// Why every answer, and no answer, satisfies some leaf of an `or`, if so.
    private static func tautology(among leaves: [ConditionLeaf]) -> String? {
        for group in groupedByPart(leaves) {
            let question = group[0].question
            let unequal = Set(group.filter { $0.test == .notEquals }.compactMap(\.operand))
            if unequal.count > 1 {
                return "every answer to '\(question)' differs from \(unequal.map(CanonicalJSON.compact).sorted().prefix(2).joined(separator: " or from ")), and an unanswered one from both"
            }
            for (positive, negative) in [(CompiledCondition.Test.equals, CompiledCondition.Test.notEquals), (.contains, .notContains)] {
                let with = Set(group.filter { $0.test == positive }.compactMap(\.operand))
                if let both = group.first(where: { $0.test == negative && with.contains($0.operand!) })?.operand {
                    return "'\(question)' either does or does not \(positive.verb) \(CanonicalJSON.compact(both)), and the negation is true also while it is unanswered"
                }
            }
        }
        return nil
    }

    /// Leaves reading the same answer (question and subid), in first-use order.
    private static func groupedByPart(_ leaves: [ConditionLeaf]) -> [[ConditionLeaf]] {
        var order: [String] = []
        var groups: [String: [ConditionLeaf]] = [:]
        for leaf in leaves {
            let part = leaf.question + "\u{0}" + (leaf.key ?? "")
            if groups[part] == nil { order.append(part) }
            groups[part, default: []].append(leaf)
        }
        return order.compactMap { groups[$0] }
    }
}

extension ConditionLeaf {
    /// What the engine does with the operation.
    fileprivate var test: CompiledCondition.Test { CompiledCondition.Test(operation: operation) }
}

extension CompiledCondition.Test {
    fileprivate var isNegation: Bool { self == .notEquals || self == .notContains }

    fileprivate var isNumeric: Bool {
        switch self {
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual: true
        case .equals, .notEquals, .contains, .notContains, .unknown: false
        }
    }

    fileprivate var verb: String { self == .contains ? "contain" : "equal" }
}
