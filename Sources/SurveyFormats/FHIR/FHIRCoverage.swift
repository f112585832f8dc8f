import FHIRPath
import SurveyCore

/// The branches of a Questionnaire: each item's enablement decision (its enableWhen joined by its
/// enableBehavior) with one leaf per condition, its enableWhenExpression true and false, each answer option,
/// each question shown and answered, the response submitted completed or in-progress, and each `iif()` in
/// the SDC expressions the engines evaluate taking its true-result or its otherwise-result. Instances of one
/// item report into the item's branches.
struct FHIRCoverageLayout: Sendable {
    let plan: CoveragePlan
    let decisionOfItem: [Int?]
    /// The decision of each item's enableWhenExpression: true and false, one leaf (the expression).
    let expressionDecisionOfItem: [Int?]
    /// The plan's question of each item that takes answers (groups and display items have none).
    let questionOfItem: [Int?]
    let firstChoice: [Int]
    /// For each node of the expression program (`FHIRExpressionProgram.nodes`): the decision of each of its
    /// `iif` calls, by the offset of the `iif` name in the expression (what `FHIRPathEnvironment.iifObserver`
    /// reports).
    let iifDecisionsOfNode: [[Int: Int]]
    static let submittedCompleted = 0
    static let submittedInProgress = 1
}

extension FHIRSurvey {
    public func coveragePlan() -> CoveragePlan { layout().plan }

    func layout() -> FHIRCoverageLayout {
        coverageLayout.get(makeCoverageLayout)
    }

    private func makeCoverageLayout() -> FHIRCoverageLayout {
        var plan = CoveragePlan(file: file)
        var decisionOfItem = [Int?](repeating: nil, count: items.count)
        var expressionDecisionOfItem = [Int?](repeating: nil, count: items.count)
        var firstChoice: [Int] = []
        var questionOfItem = [Int?](repeating: nil, count: items.count)
        var neverShown = [String?](repeating: nil, count: items.count)
        for (index, item) in items.enumerated() {
            if let parent = item.parent, let reason = neverShown[parent] {
                neverShown[index] = "it is under '\(items[parent].linkId)', which is never shown" + (reason.hasPrefix("it is under") ? "" : ": \(reason)")
            } else if item.hidden {
                neverShown[index] = "it is hidden (questionnaire-hidden)"
            }
            if !item.enableWhen.isEmpty, let location = item.enableWhenLocation {
                var leaves: [CoveragePlan.Node] = []
                var leafImpossible: [[Bool: String]] = []
                for condition in item.enableWhen {
                    let impossible = impossibleOutcomes(condition)
                    leafImpossible.append(impossible)
                    plan.leaves.append(CoveragePlan.Point(question: condition.question, description: condition.description, location: condition.location, impossible: impossible))
                    leaves.append(.leaf(plan.leaves.count - 1))
                }
                let tree: CoveragePlan.Node = item.enableBehavior == .any ? .any(leaves) : .all(leaves)
                var impossible: [Bool: String] = [:]
                if leafImpossible.count == 1 {
                    impossible = leafImpossible[0]
                } else if item.enableBehavior == .any {
                    if leafImpossible.allSatisfy({ $0[true] != nil }) { impossible[true] = "no condition can be true (see its leaves)" }
                    if let never = leafImpossible.first(where: { $0[false] != nil }) { impossible[false] = never[false] }
                } else {
                    if let never = leafImpossible.first(where: { $0[true] != nil }) { impossible[true] = never[true] }
                    if leafImpossible.allSatisfy({ $0[false] != nil }) { impossible[false] = "no condition can be false (see its leaves)" }
                }
                if let reason = neverShown[index], item.parent.flatMap({ neverShown[$0] }) != nil {
                    impossible = [true: reason, false: reason]
                }
                decisionOfItem[index] = plan.decisions.count
                plan.decisions.append(CoveragePlan.Decision(question: item.linkId, kind: "enableWhen", location: location, tree: tree, impossible: impossible))
                if neverShown[index] == nil, let reason = impossible[true] {
                    neverShown[index] = "its enableWhen can never be true (\(reason))"
                }
            }
            if let expression = item.expression(.enableWhen), expression.language == .fhirPath {
                let reason = neverShown[index] ?? (expression.program == nil ? "the enableWhenExpression does not compile: the engine fails where it would evaluate it" : nil)
                let impossible = reason.map { [true: $0, false: $0] } ?? [:]
                plan.leaves.append(
                    CoveragePlan.Point(question: item.linkId, description: "enableWhenExpression \(expression.text ?? "")", location: expression.location, impossible: impossible))
                expressionDecisionOfItem[index] = plan.decisions.count
                plan.decisions.append(
                    CoveragePlan.Decision(question: item.linkId, kind: "enableWhenExpression", location: expression.location, tree: .leaf(plan.leaves.count - 1), impossible: impossible))
            }
            firstChoice.append(plan.choices.count)
            let unseen = neverShown[index].map { [true: "'\(item.linkId)' can never be shown: \($0)"] }
            let readOnly = item.readOnly ? [true: "'\(item.linkId)' is read-only: the respondent cannot pick its options"] : nil
            for option in item.options {
                plan.choices.append(
                    CoveragePlan.Point(
                        question: item.linkId, description: "'\(item.linkId)' option \(FHIRValues.label(option.value))", location: option.location,
                        impossible: unseen ?? readOnly ?? [:]))
            }
            guard item.type.takesAnswers else { continue }
            questionOfItem[index] = plan.questions.count
            plan.questions.append(
                CoveragePlan.QuestionPoint(
                    id: item.linkId, location: item.location, decisions: [decisionOfItem[index], expressionDecisionOfItem[index]].compactMap { $0 }, neverShown: neverShown[index]))
        }
        let iifDecisionsOfNode = expressionProgram.nodes.map { addIIFDecisions($0, to: &plan) }
        let end = items.last?.location ?? SourceLocation(position: SourcePosition(line: 1, column: 1), pointer: .root)
        let requiredItems = items.filter(\.required)
        plan.terminals = [
            CoveragePlan.Point(question: "(submit)", description: "submitted completed", location: end),
            CoveragePlan.Point(
                question: "(submit)", description: "submitted in-progress", location: end,
                impossible: requiredItems.isEmpty ? [true: "no item is required, so every response is completed"] : [:]),
        ]
        return FHIRCoverageLayout(
            plan: plan, decisionOfItem: decisionOfItem, expressionDecisionOfItem: expressionDecisionOfItem, questionOfItem: questionOfItem,
            firstChoice: firstChoice, iifDecisionsOfNode: iifDecisionsOfNode)
    }

    /// A decision for each `iif()` of an expression, true when the engine takes its true-result and false when
    /// it takes the otherwise-result, with the criterion as its one leaf, located at the `iif` inside the JSON
    /// string (as a FHIRPath error there is). The calls are read from the text with fhirpath.js's grammar, or
    /// HAPI's lexer when only that reads it, whichever engine this reading is for: both readings of a file lay
    /// out the same branches, so a session under either engine reports into the plan the survey gives.
    /// Returns each decision by the offset of its `iif`.
    private func addIIFDecisions(_ node: FHIRExpressionProgram.Node, to plan: inout CoveragePlan) -> [Int: Int] {
        let expression = node.expression
        guard expression.language == .fhirPath, let text = expression.text, let source = expression.source else { return [:] }
        let syntax = [FHIRPathOptions.ConstantNames.grammar, .hapi].lazy.compactMap { try? FHIRPathSyntax.parse(text, constantNames: $0) }.first
        guard let calls = syntax?.iifCalls, !calls.isEmpty else { return [:] }
        // A variable of the Questionnaire itself is about no item: its branches stand apart, as the submit's do.
        let question = node.item.map { items[$0].linkId } ?? "(questionnaire)"
        let owner = node.item == nil ? "the Questionnaire" : "'\(question)'"
        let place = expression.kind == .variable ? "variable '\(expression.name ?? "")' of \(owner)" : "\(expression.kind.rawValue) of \(owner)"
        var impossible: [Bool: String] = [:]
        if case .failure(let error)? = expression.compiled {
            let reason = "the \(place) does not compile for \(engine.name) (\(error.message)): it is never evaluated"
            impossible = [true: reason, false: reason]
        } else if expression.kind == .answerOptionsToggle, engine == .lhcForms {
            let reason = "LHC-Forms does not evaluate answerOptionsToggleExpression"
            impossible = [true: reason, false: reason]
        }
        let bytes = Array(text.utf8)
        var decisions: [Int: Int] = [:]
        for call in calls {
            guard case .function(_, _, let arguments) = call.kind, let name = call.nameRange else { continue }
            let criterion = arguments.first.map { String(decoding: bytes[$0.range], as: UTF8.self) } ?? ""
            let location = SourceLocation(position: source.position(ofExpressionOffset: name.lowerBound), pointer: expression.location.pointer)
            plan.leaves.append(
                CoveragePlan.Point(question: question, description: "\(place): iif(\(criterion), …)", location: location, impossible: impossible))
            decisions[name.lowerBound] = plan.decisions.count
            plan.decisions.append(
                CoveragePlan.Decision(question: question, kind: "iif", location: location, tree: .leaf(plan.leaves.count - 1), impossible: impossible))
        }
        return decisions
    }

    /// Which outcome of a condition no answer can give, and why: a value that is not among the source's
    /// options, a source that never carries answers, = with a value of another type. Nothing is claimed of a
    /// linkId several items share (que-2): which one a condition reads depends on where it is.
    func impossibleOutcomes(_ condition: FHIR.EnableWhen) -> [Bool: String] {
        guard let sources = itemsByLinkId[condition.question], sources.count == 1, let source = sources.first else { return [:] }
        let item = items[source]
        let answered = condition.op == .exists ? (condition.answer.json.boolValue ?? true) : true
        if !item.type.takesAnswers {
            switch condition.op {
            case .exists: return [answered: "'\(item.linkId)' is \(item.type.withArticle) item and never has an answer"]
            case .notEquals: return [false: "'\(item.linkId)' is \(item.type.withArticle) item and never has an answer"]
            default: return [true: "'\(item.linkId)' is \(item.type.withArticle) item and never has an answer"]
            }
        }
        if let reason = FHIRLint.mismatch(condition, source: item) {
            // Only = is sure never to hold across types in both engines, and only when the JavaScript types
            // differ too (=== in LHC-Forms; equals tests the class in android-fhir): LHC-Forms' != is loose and
            // its orderings coerce, and a date string is a string to it.
            let kinds = Set(item.answerTypes.map(\.javaScriptKind))
            return condition.op == .equals && !kinds.contains(condition.answer.type.javaScriptKind) ? [true: reason] : [:]
        }
        if condition.op == .equals || condition.op == .notEquals, let reason = FHIRLint.neverMatches(condition, source: item) {
            return condition.op == .equals ? [true: reason] : [false: reason]
        }
        return [:]
    }
}

/// Where a session's expression evaluations report the `iif` branches they take: its recorder, through an
/// observer in the environment of each expression that has `iif` calls.
struct FHIRIIFCoverage: Sendable {
    let recorder: CoverageRecorder
    let layout: FHIRCoverageLayout

    /// The observer for evaluations of expression node `node`; nil when it has no `iif`.
    func observer(forNode node: Int) -> FHIRPathEnvironment.IIFObserver? {
        let decisions = layout.iifDecisionsOfNode[node]
        guard !decisions.isEmpty else { return nil }
        let recorder = recorder
        return { offset, criterion in
            guard let decision = decisions[offset] else { return }
            recorder.decision(decision, outcome: criterion, leaves: [criterion ? .true : .false])
        }
    }
}
