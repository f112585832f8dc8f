import SurveyCore

/// The branches of a SurveyNative survey: each `show_if` (top-level and sub-questions) with its leaves,
/// each validation the engine runs, each option, each question, Submit shown and submitted; and what can
/// be proved impossible without running (a literal no answer can equal, an operation the engine lacks).
struct SurveyNativeCoverageLayout: Sendable {
    let plan: CoveragePlan
    /// The decision of each slot's `show_if`.
    let decisionOfSlot: [Int?]
    /// Each validation's index, by where it is in the file.
    let validationIndex: [SourcePosition: Int]
    /// The index of each slot's first choice.
    let firstChoice: [Int]
    static let submitShown = 0
    static let submitted = 1
}

extension SurveyNativeSurvey {
    public func coveragePlan() -> CoveragePlan { layout().plan }

    func layout() -> SurveyNativeCoverageLayout {
        coverageLayout.get(makeCoverageLayout)
    }

    private func makeCoverageLayout() -> SurveyNativeCoverageLayout {
        var plan = CoveragePlan(file: file)
        var decisionOfSlot = [Int?](repeating: nil, count: questions.count)
        var validationIndex: [SourcePosition: Int] = [:]
        var firstChoice: [Int] = []
        var neverShownReason = [String?](repeating: nil, count: questions.count)
        for (slot, question) in questions.enumerated() {
            if let condition = question.showIf {
                let tree = node(condition, &plan)
                decisionOfSlot[slot] = plan.decisions.count
                let outcomes = possibleOutcomes(tree, plan.leaves)
                var impossible: [Bool: String] = [:]
                for outcome in [true, false] where !outcomes.contains(outcome) {
                    if case .leaf(let leaf) = tree, let reason = plan.leaves[leaf].impossible[outcome] {
                        impossible[outcome] = reason
                    } else {
                        impossible[outcome] = "no combination of its conditions can make it \(outcome) (see its leaves)"
                    }
                }
                if case .constant(let value, let reason, _) = condition.kind {
                    impossible = [!value: "the engine reads this condition as always \(value) (\(reason))"]
                }
                plan.decisions.append(CoveragePlan.Decision(question: question.id, kind: "show_if", location: condition.location, tree: tree, impossible: impossible))
            }
            neverShownReason[slot] = decisionOfSlot[slot].flatMap { neverShown(slot, plan.decisions[$0]) }
            let ownerSlot = topLevel[question.owner]
            if neverShownReason[slot] == nil, ownerSlot != slot, let reason = neverShownReason[ownerSlot] {
                neverShownReason[slot] = "its question '\(questions[ownerSlot].id)' can never be shown: \(reason)"
            }
            // What happens on a question that never shows cannot happen either.
            let unseen = neverShownReason[slot].map { [true: "'\(question.id)' can never be shown: \($0)", false: "'\(question.id)' can never be shown: \($0)"] }
            for validation in question.kind.allValidations {
                validationIndex[validation.location.position] = plan.validations.count
                plan.validations.append(
                    CoveragePlan.Point(
                        question: question.id, description: "validation \(validation.operation) \(describe(validation.operand))",
                        location: validation.location, impossible: unseen ?? validationImpossibility(validation)))
            }
            firstChoice.append(plan.choices.count)
            for (index, choice) in choices(of: question.kind).enumerated() {
                let location = index < question.choiceLocations.count ? question.choiceLocations[index] : question.location
                plan.choices.append(
                    CoveragePlan.Point(
                        question: question.id, description: "'\(question.id)' option \"\(choice.title)\"", location: location,
                        impossible: unseen ?? choice.impossible))
            }
            plan.questions.append(
                CoveragePlan.QuestionPoint(
                    id: question.id, location: question.location, decisions: decisionOfSlot[slot].map { [$0] } ?? [],
                    neverShown: neverShownReason[slot]))
        }
        let end = questions.last?.location ?? SourceLocation(position: SourcePosition(line: 1, column: 1), pointer: .root)
        plan.terminals = [
            CoveragePlan.Point(question: "(submit)", description: "Submit shown", location: end),
            CoveragePlan.Point(question: "(submit)", description: "submitted", location: end),
        ]
        return SurveyNativeCoverageLayout(plan: plan, decisionOfSlot: decisionOfSlot, validationIndex: validationIndex, firstChoice: firstChoice)
    }

    /// Why a question whose `show_if` can never be true can never be shown either: a sub-question's is
    /// evaluated before it shows; a top-level question's is evaluated before it is reached when every
    /// question it reads comes earlier and is always shown (so answered before the survey gets past it).
    /// Otherwise the lazy evaluation may show it unevaluated (reference §6), and nothing is claimed.
    private func neverShown(_ slot: Int, _ decision: CoveragePlan.Decision) -> String? {
        guard let reason = decision.impossible[true] else { return nil }
        let question = questions[slot]
        let earlierAndAlwaysShown = dependencySlots[slot].allSatisfy { dependency in
            !questions[dependency].isSubQuestion && dependency < slot && showIf[dependency] == nil
        }
        guard question.isSubQuestion || earlierAndAlwaysShown else { return nil }
        return "its show_if can never be true (\(reason)), and it is evaluated before the question could show"
    }

    /// The choices of a question and which cannot be picked.
    private func choices(of kind: SurveyNative.Kind) -> [(title: String, impossible: [Bool: String])] {
        switch kind {
        case .singleSelect(let options), .multiSelect(let options): options.map { ($0.title, [:]) }
        case .segmentSelect(let values): values.map { ($0, [:]) }
        case .tableSelect(let options, _):
            options.enumerated().map { index, option in
                (option, index < 3 ? [:] : [true: "the table cell has three buttons, for the first three options only"])
            }
        default: []
        }
    }

    /// The plan's node for a condition, adding its leaves (host conditions included) to the plan.
    private func node(_ condition: Condition, _ plan: inout CoveragePlan) -> CoveragePlan.Node {
        switch condition.kind {
        case .leaf(let leaf):
            plan.leaves.append(
                CoveragePlan.Point(
                    question: leaf.question, description: describe(leaf), location: condition.location, impossible: leafImpossibility(leaf)))
            return .leaf(plan.leaves.count - 1)
        case .host(let host):
            plan.leaves.append(
                CoveragePlan.Point(question: host.inputs.first ?? "(host)", description: "custom \(host.key ?? "(no extra.id)")", location: condition.location))
            return .leaf(plan.leaves.count - 1)
        case .all(let children): return .all(children.map { node($0, &plan) })
        case .any(let children): return .any(children.map { node($0, &plan) })
        case .constant(let value, _, _): return .constant(value)
        }
    }

    private func describe(_ leaf: ConditionLeaf) -> String {
        "\(leaf.question)\(leaf.key.map { "/\($0)" } ?? "") \(leaf.operation) \(leaf.operand.map(CanonicalJSON.compact) ?? "(no value)")"
    }

    private func describe(_ operand: SurveyNative.Validation.Operand) -> String {
        switch operand {
        case .value(let value): CanonicalJSON.compact(value)
        case .answer(let other): "the answer to '\(other)'"
        case .none: "(no value)"
        }
    }

    /// The outcomes a tree can have, from its leaves' possible outcomes (ignoring how leaves relate).
    private func possibleOutcomes(_ tree: CoveragePlan.Node, _ leaves: [CoveragePlan.Point]) -> Set<Bool> {
        switch tree {
        case .leaf(let index): Set([true, false].filter { leaves[index].impossible[$0] == nil })
        case .constant(let value): [value]
        case .all(let children):
            Set(
                [true, false].filter { outcome in
                    outcome ? children.allSatisfy { possibleOutcomes($0, leaves).contains(true) } : children.contains { possibleOutcomes($0, leaves).contains(false) }
                })
        case .any(let children):
            Set(
                [true, false].filter { outcome in
                    outcome ? children.contains { possibleOutcomes($0, leaves).contains(true) } : children.allSatisfy { possibleOutcomes($0, leaves).contains(false) }
                })
        }
    }

    /// Which outcome of a leaf no answer can give, and why (the comparisons of reference §4).
    private func leafImpossibility(_ leaf: ConditionLeaf) -> [Bool: String] {
        guard let operand = leaf.operand, let slot = slotByID[leaf.question] else { return [:] }
        let kind = questions[slot].kind
        func never(_ whether: Bool, _ reason: String) -> [Bool: String] { [whether: reason] }
        switch leaf.operation {
        case "equals", "not equals":
            let positive = leaf.operation == "equals"
            if let reason = cannotEqual(operand, kind: kind, key: leaf.key) { return never(positive, reason) }
            return [:]
        case "contains", "not contains":
            let positive = leaf.operation == "contains"
            switch kind {
            case .multiSelect(let options) where leaf.key == nil:
                if case .string(let text) = operand, !options.contains(.plain(text)), !options.contains(where: \.isOther) {
                    return never(positive, "\"\(text)\" is not an option of '\(leaf.question)'")
                }
                if operand.stringValue == nil { return never(positive, "a multi_select answer holds strings; \(CanonicalJSON.compact(operand)) is never among them") }
                return [:]
            case .addTextField where leaf.key == nil:
                return operand.stringValue == nil ? never(positive, "an add_text_field answer holds strings only") : [:]
            default:
                return never(positive, "'\(leaf.question)' is a \(kind.typeName), whose answer is not an array: contains is always false (reference §4)")
            }
        case "greater than", "greater than or equal to", "less than", "less than or equal to":
            if SurveyNativeComparison.number(operand) == nil {
                return never(true, "\(CanonicalJSON.compact(operand)) is not a number: the comparison is always false (reference §4)")
            }
            if leaf.key == nil, let reason = neverNumeric(kind) { return never(true, reason) }
            return [:]
        default:
            return never(true, "'\(leaf.operation)' is not an operation the engine knows: the condition is always false (reference §4)")
        }
    }

    /// Why no answer of this kind (or its part `key`) can equal the literal, if none can.
    private func cannotEqual(_ operand: JSONValue, kind: SurveyNative.Kind, key: String?) -> String? {
        if operand == .null { return "JSON null equals nothing (reference §4)" }
        if let key {
            switch kind {
            case .tableSelect(let options, let rows):
                if !rows.contains(key) { return "'\(key)' is not a row of the table" }
                guard let text = operand.stringValue else { return "table answers hold strings; \(CanonicalJSON.compact(operand)) is never one" }
                if !options.prefix(3).contains(text) { return "\"\(text)\" is not one of the table's pickable options" }
                return nil
            case .multiTextField, .dynamicLabelTextField, .singleSelect:
                return operand.stringValue == nil ? "field texts are strings; \(CanonicalJSON.compact(operand)) is never one" : nil
            default:
                break
            }
        }
        switch operand {
        case .number, .bool:
            return "\(CanonicalJSON.compact(operand)) is not a string, and SurveyNative's answers are strings: it never equals one (reference §4)"
        case .string(let text):
            switch kind {
            case .singleSelect(let options):
                return options.contains(.plain(text)) ? nil : "\"\(text)\" is not a plain option of the question"
            case .segmentSelect(let values):
                return values.contains(text) ? nil : "\"\(text)\" is not one of the question's values"
            case .multiSelect, .addTextField:
                return "the question's answer is an array, never equal to a string"
            case .multiTextField, .dynamicLabelTextField, .tableSelect:
                return "the question's answer is an object, never equal to a string (use subid)"
            default:
                return nil
            }
        default:
            return nil
        }
    }

    private func neverNumeric(_ kind: SurveyNative.Kind) -> String? {
        switch kind {
        case .multiSelect, .addTextField, .multiTextField, .dynamicLabelTextField, .tableSelect:
            "the question's answer is not a single string: numeric comparisons on it are always false"
        case .singleSelect(let options) where !options.contains(where: \.isOther) && !options.contains(where: { Double($0.title) != nil }):
            "no option of the question is a number: numeric comparisons on it are always false"
        case .segmentSelect(let values) where !values.contains(where: { Double($0) != nil }):
            "no value of the question is a number: numeric comparisons on it are always false"
        default:
            nil
        }
    }

    /// A validation the engine's validator cannot pass (reference §5).
    private func validationImpossibility(_ validation: SurveyNative.Validation) -> [Bool: String] {
        guard validation.comparison != .unimplemented else {
            return [true: "the validator does not implement '\(validation.operation)': it always fails (reference §5)"]
        }
        switch validation.operand {
        case .none: return [true: "the validation has no value: it always fails"]
        case .value(let value) where SurveyNativeComparison.number(value) == nil:
            return [true: "\(CanonicalJSON.compact(value)) is not a number: the validation always fails"]
        default: return [:]
        }
    }
}

extension SurveyNativeSession {
    /// Reports an answer stored at a slot: the question answered, and the options its value picks.
    func recordAnswer(_ value: JSONValue, at slot: Int, _ recorder: CoverageRecorder, _ layout: SurveyNativeCoverageLayout) {
        recorder.answered(slot)
        let first = layout.firstChoice[slot]
        func pick(_ index: Int?) { if let index { recorder.choice(first + index) } }
        switch survey.questions[slot].kind {
        case .singleSelect(let options):
            switch value {
            case .string(let text): pick(options.firstIndex(of: .plain(text)))
            case .object(let parts): pick(parts.keys.first.flatMap { title in options.firstIndex { $0.isOther && $0.title == title } })
            default: break
            }
        case .multiSelect(let options):
            for element in value.arrayValue ?? [] {
                guard let text = element.stringValue else { continue }
                pick(options.firstIndex(of: .plain(text)) ?? options.firstIndex(where: \.isOther))
            }
        case .segmentSelect(let values):
            pick(value.stringValue.flatMap(values.firstIndex(of:)))
        case .tableSelect(let options, _):
            for choice in (value.objectValue ?? [:]).values.compactMap(\.stringValue) { pick(options.firstIndex(of: choice)) }
        default:
            break
        }
    }
}
