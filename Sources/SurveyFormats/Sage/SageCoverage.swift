import SurveyCore

/// The branches of a task (DESIGN §7): each survey rule matched and not matched, each rule's target taken
/// (and, in SageResearch, matched but not taken because another rule cancelled it), each choice picked,
/// each step shown and answered, and how the task ended.
struct SageCoverageLayout: Sendable {
    let plan: CoveragePlan
    /// Per step, per rule: the decision "the rule matches".
    let ruleDecision: [[Int]]
    /// Per step, per rule: the decision "the rule's target is taken", for rules that navigate.
    let jumpDecision: [[Int?]]
    /// Per step, per field: the index of the field's first choice.
    let firstChoice: [[Int]]
    /// Per step, its index in the plan's questions (display steps take no answer and are not questions).
    let questionOfStep: [Int?]

    static func terminal(_ ending: SageSession.Ending) -> Int {
        switch ending {
        case .completed: 0
        case .exit: 1
        case .unknownTarget: 2
        }
    }

    func questionIndex(of step: Int) -> Int? { questionOfStep[step] }

    func recordRule(_ step: Int, _ rule: Int, matched: Bool, _ recorder: CoverageRecorder) {
        recorder.decision(ruleDecision[step][rule], outcome: matched, leaves: [matched ? .true : .false])
    }

    func recordJump(_ step: Int, _ rule: Int, taken: Bool, _ recorder: CoverageRecorder) {
        guard let decision = jumpDecision[step][rule] else { return }
        recorder.decision(decision, outcome: taken, leaves: [taken ? .true : .false])
    }

    func recordAnswer(_ values: SageFieldValues, at step: Int, survey: SageSurvey, _ recorder: CoverageRecorder) {
        if let question = questionOfStep[step] { recorder.answered(question) }
        for (position, field) in survey.steps[step].fields.enumerated() {
            guard let value = values.value(of: field), let choices = field.choices else { continue }
            for picked in value.arrayValue ?? [value] {
                if let choice = choices.firstIndex(where: { $0.value == picked }) { recorder.choice(firstChoice[step][position] + choice) }
            }
        }
    }
}

extension SageSurvey {
    public func coveragePlan() -> CoveragePlan { layout().plan }

    func coverageLayout(for recorder: CoverageRecorder) -> SageCoverageLayout { layout() }

    func layout() -> SageCoverageLayout {
        coverageLayout.get(makeCoverageLayout)
    }

    private func makeCoverageLayout() -> SageCoverageLayout {
        var plan = CoveragePlan(file: file)
        var ruleDecision: [[Int]] = []
        var jumpDecision: [[Int?]] = []
        var firstChoice: [[Int]] = []
        var questionOfStep: [Int?] = []
        var targetsUnknown = false
        var targetsExit = false
        let assessment = generation == .assessment
        for (index, step) in steps.enumerated() {
            var rules: [Int] = []
            var jumps: [Int?] = []
            // Whether matching rules can fail to navigate: SageResearch cancels two or more distinct targets
            // (legacy) or two or more matching rules (v3); AssessmentModel's first match always navigates.
            let targeted = step.rules.compactMap { $0.target(assessment: assessment) }
            let canCancel =
                switch generation {
                case .legacy: Set(targeted).count > 1
                case .v3: targeted.count > 1
                case .assessment: false
                }
            for (position, rule) in step.rules.enumerated() {
                let op = rule.effectiveOperator(assessment: assessment)
                let operand = rule.matchingAnswer.map { " \($0)" } ?? (assessment ? " null" : "")
                let field = step.fields.count > 1 ? "'\(step.fields[rule.field].id)' " : ""
                let leaf = plan.leaves.count
                plan.leaves.append(
                    CoveragePlan.Point(
                        question: step.id, description: "rule \(position + 1) of '\(step.id)': \(field)\(op.rawValue)\(operand)",
                        location: rule.location, impossible: op == .always ? [false: "an always rule matches every answer"] : [:]))
                rules.append(plan.decisions.count)
                plan.decisions.append(
                    CoveragePlan.Decision(
                        question: step.id, kind: "rule \(position + 1) matches", location: rule.location, tree: .leaf(leaf),
                        impossible: plan.leaves[leaf].impossible))
                guard let target = rule.target(assessment: assessment) else {
                    jumps.append(nil)
                    continue
                }
                let jumpLeaf = plan.leaves.count
                let cannotCancel: [Bool: String] =
                    canCancel ? [:] : [false: assessment ? "the first matching rule always navigates (AssessmentModel)" : "no other rule of the step can cancel it"]
                plan.leaves.append(
                    CoveragePlan.Point(
                        question: step.id, description: "rule \(position + 1) of '\(step.id)' goes to '\(target)'", location: rule.targetLocation,
                        impossible: cannotCancel))
                jumps.append(plan.decisions.count)
                plan.decisions.append(
                    CoveragePlan.Decision(
                        question: step.id, kind: "target '\(target)' taken", location: rule.targetLocation, tree: .leaf(jumpLeaf), impossible: cannotCancel))
            }
            for named in targets(of: index) {
                // An id AssessmentModel does not find inside a section only ends the section.
                if !resolvesTarget(named.target, from: index), !assessment || step.section == nil { targetsUnknown = true }
                // Kotlin reads any spelling of exit as exit.
                if named.target == "exit" || (assessment && named.target.lowercased() == "exit") { targetsExit = true }
            }
            ruleDecision.append(rules)
            jumpDecision.append(jumps)
            var firsts: [Int] = []
            for field in step.fields {
                firsts.append(plan.choices.count)
                for choice in field.choices ?? [] {
                    let name = choice.value.map(\.description) ?? choice.text ?? "?"
                    plan.choices.append(CoveragePlan.Point(question: step.id, description: "'\(step.id)' \(name)", location: choice.location))
                }
            }
            firstChoice.append(firsts)
            if step.kind == .question {
                questionOfStep.append(plan.questions.count)
                plan.questions.append(CoveragePlan.QuestionPoint(id: step.id, location: step.location, decisions: rules + jumps.compactMap { $0 }))
            } else {
                questionOfStep.append(nil)
            }
        }
        plan.terminals = [
            CoveragePlan.Point(question: steps.last?.id ?? identifier, description: "task completed past its last step", location: location),
            CoveragePlan.Point(
                question: identifier, description: "task ended by exit", location: location,
                impossible: targetsExit ? [:] : [true: "no rule, skip action or nextStepIdentifier names exit"]),
            CoveragePlan.Point(
                question: identifier, description: "task ended at a target no navigator has", location: location,
                impossible: targetsUnknown ? [:] : [true: "every target names a step, a section or a reserved id"]),
        ]
        return SageCoverageLayout(
            plan: plan, ruleDecision: ruleDecision, jumpDecision: jumpDecision, firstChoice: firstChoice, questionOfStep: questionOfStep)
    }
}
