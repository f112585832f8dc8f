import SurveyCore

/// SageResearch's navigation (`RSDTaskViewModel` with `RSDOrderedStepNavigator`, from v2.8.88 to 4.11.0),
/// done on the session's navigators and results: forward, skip, Back, sections, the end of the task. The
/// release's differences come from the engine. Sources in docs/sage.md, "SageResearch navigation".
extension SageSession {
    /// Where looking after a node leads in one navigator (`_step(after:with:isPeeking:)`).
    struct ResearchStep {
        var node: SageSurvey.Node?
        /// The target already has a result in the navigator's history (`findResult(with:) != nil`).
        var reverse = false
        /// The identifier a rule, `nextStepIdentifier` or skip chose, when one did.
        var target: String?
    }

    // MARK: forward

    /// `_goForward()`: the step's result gets its end date (`markEndDate`), then the navigator moves on.
    func researchGoForward() {
        guard let current else { return }
        updateLiveEntry(of: current) { $0.end = now }
        researchMoveToNext(from: .step(current))
    }

    /// The skip button (`skipForward`): a navigation action writes its `skipToIdentifier` on the step's
    /// result (`assignSkipToIdentifier`), then the task goes forward without checking the answers. The
    /// answers entered stay.
    func researchSkip(from index: Int, action: Sage.SkipAction) {
        guard action.isNavigation, let target = action.target else {
            researchGoForward()
            return
        }
        updateLiveEntry(of: index) { entry in
            if !entry.carriesSkipTarget(jsonModelAnswer: engine.answersAreJsonModel) {
                entry.wrapping = engine.skipMark(for: survey.generation) == .collectionWrapper ? .collection : .transient
                entry.wrappedAt = now
            }
            entry.skipTo = target
        }
        researchGoForward()
        // The rules (reading the answers the skip kept) decide first; from 3.4.92 the target written on a
        // revisit is not read at all (the step's first result is).
        let arrived = current.map { survey.steps[$0].name } ?? (ending == .exit ? "exit" : nil)
        if arrived != target, !(current.map { survey.steps[$0].section != nil && survey.sections[survey.steps[$0].section!].name == target } ?? false) {
            events.append(TraceEvent("skip_target_not_taken", detail: .object(["target": .string(target)])))
        }
    }

    /// `_moveToNextStep(from:)` in the lowest open navigator.
    func researchMoveToNext(from previous: SageSurvey.Node?) {
        var step = researchStep(after: previous, at: level, peeking: false)
        // With abbreviated instructions, steps with `fullInstructionsOnly` are passed over (2.x: only
        // instruction steps, `RSDInstructionStep`; from 3.x any UI step, `RSDOptionalStep`).
        while engine.abbreviatesInstructions, case .step(let index)? = step.node, survey.steps[index].fullInstructionsOnly,
            engine.release != .sage2 || survey.steps[index].type == "instruction"
        {
            events.append(TraceEvent("instructions_abbreviated", detail: .string(survey.steps[index].id)))
            step = researchStep(after: step.node, at: level, peeking: false)
        }
        guard let node = step.node else {
            researchFinishNavigator(after: previous, target: step.target)
            return
        }
        if step.reverse {
            // A target with a result in the history is a backward jump (`removeStepHistory(from:)`).
            open[level].cache.mergeCache(open[level].result.removeHistory(from: survey.name(of: node), engine: engine))
            events.append(TraceEvent("jumped_back", detail: .object(["to": .string(survey.name(of: node))])))
        }
        researchShow(node, reverse: step.reverse)
    }

    /// `_step(after:with:isPeeking:)` of the navigator at `depth` (its result, its children).
    func researchStep(after previous: SageSurvey.Node?, at depth: Int, peeking: Bool) -> ResearchStep {
        researchStep(after: previous, section: open[depth].section, result: open[depth].result, peeking: peeking, record: !peeking)
    }

    func researchStep(after previous: SageSurvey.Node?, section: Int?, result: SageBranchResult, peeking: Bool, record: Bool) -> ResearchStep {
        var step = ResearchStep()
        if let target = researchNextIdentifier(after: previous, section: section, result: result, peeking: peeking, record: record) {
            step.target = target
            if target == "exit" { return step }
            step.reverse = result.hasResult(target)
            step.node = survey.child(named: target, in: section)
            if step.node == nil, record {
                events.append(TraceEvent("target_not_found", detail: .object(["target": .string(target), "in": .string(section.map { survey.sections[$0].id } ?? "task")])))
            }
        } else if let previous {
            step.node = survey.child(after: previous, in: section)
        } else {
            step.node = survey.children(of: section).first
        }
        // Cohort rules before a step (`skipToStepIdentifier(before:)`): `nextStep` is the step after it.
        if engine.tracksCohorts, case .step(let index)? = step.node, let skip = applyCohortRules(survey.steps[index].beforeCohortRules, before: true) {
            step.node = skip == "nextStep" ? step.node.flatMap { survey.child(after: $0, in: section) } : survey.child(named: skip, in: section)
        }
        return step
    }

    /// `_nextStepIdentifier(after:with:isPeeking:)`: a section asks its last step again; a step asks its own
    /// rules, then `nextStepIdentifier`; then the tracking rules (the cohort tracker, when the app has one).
    func researchNextIdentifier(after previous: SageSurvey.Node?, section: Int?, result: SageBranchResult, peeking: Bool, record: Bool) -> String? {
        guard let previous else { return nil }
        switch previous {
        case .section(let inner):
            if let target = researchSectionNextIdentifier(inner, parent: result, peeking: peeking) { return target }
        case .step(let index):
            if let target = researchStepNextIdentifier(index, result: result, peeking: peeking, record: record) { return target }
            if engine.tracksCohorts, !peeking {
                updateCohorts(for: index, result: result)
                if let target = applyCohortRules(survey.steps[index].afterCohortRules, before: false) { return target }
            }
        }
        return nil
    }

    /// `RSDConditionalStepNavigator._nextStepIdentifier(with:)`: the parent re-reads the section's first
    /// result in its history, takes the last step of its path and asks that step's rules again, in the
    /// section's result: how a rule inside a section reaches a step of the parent.
    private func researchSectionNextIdentifier(_ section: Int, parent: SageBranchResult, peeking: Bool) -> String? {
        guard let entry = parent.firstResult(survey.sections[section].name), let branch = resolved(entry),
            let node = branch.path.last?.node ?? branch.stepHistory.last?.node
        else { return nil }
        return researchNextIdentifier(after: node, section: section, result: branch, peeking: peeking, record: false)
    }

    /// A step's own navigation rule: its survey rules (not while peeking), then `RSDUIStepObject`'s: the
    /// `skipToIdentifier` on its first result (not while peeking), then its `nextStepIdentifier`.
    private func researchStepNextIdentifier(_ index: Int, result: SageBranchResult, peeking: Bool, record: Bool) -> String? {
        // The step's parts are read in place (a copy of the step would retain and release each of them).
        if survey.steps[index].kind == .question, !peeking, let target = evaluateSurveyRules(index, result: result, record: record) { return target }
        if !peeking, let skipTo = result.firstSkipTarget(survey.steps[index].name) { return skipTo }
        return survey.steps[index].nextStepIdentifier
    }

    /// `evaluateSurveyRules(with:isPeeking:)`. Legacy forms (`RSDSurveyNavigationStep`): every rule of every
    /// field, each field's answer found by the field's identifier; the targets form a Set and exactly one
    /// distinct target jumps; otherwise, when every answer is nil, the skip action's target. v3 question steps
    /// (`SurveyRuleNavigation`): no answer result gives the skip action's target; otherwise exactly one
    /// matching rule jumps (an array: two rules to one target cancel).
    private func evaluateSurveyRules(_ index: Int, result: SageBranchResult, record: Bool) -> String? {
        // The step's parts are read in place (a copy of the step would retain and release each of them).
        let fields = survey.steps[index].fields
        let skipToIfNil = survey.steps[index].buttons.skip.flatMap { $0.isNavigation ? $0.target : nil }
        var targets: [String] = []
        var matchedRules: [Int] = []
        var allNil = true
        var answers: [Int: SageFoundAnswer] = [:]
        if survey.generation == .legacy {
            for (position, field) in fields.enumerated() {
                let found = result.findAnswer(field.id, fromEnd: engine.readsLatestAnswer)
                answers[position] = found
                if found.value != nil && found.value != .null { allNil = false }
                if record, index == current, let live = liveEntry(of: index) {
                    noteStaleAnswer(field.id, read: found.value, onScreen: live.inputs.first { $0.field == field.id }?.value ?? nil)
                }
            }
        } else {
            let found = result.findAnswer(survey.steps[index].name, fromEnd: engine.readsLatestAnswer)
            guard found != .notFound else {
                if record, let skipToIfNil { events.append(TraceEvent("no_answer_result", detail: .object(["to": .string(skipToIfNil)]))) }
                return skipToIfNil
            }
            answers[0] = found
            if record, index == current, let live = liveEntry(of: index), live.wrapping != .transient {
                noteStaleAnswer(survey.steps[index].id, read: found.value, onScreen: live.value)
            }
        }
        for (position, rule) in survey.steps[index].rules.enumerated() {
            let field = fields.indices.contains(rule.field) ? fields[rule.field] : nil
            let matched = rule.matches(answers[rule.field] ?? .notFound, field: field, answerIsObject: survey.steps[index].answerIsObject, engine: engine)
            if record { coverage.map { $0.layout.recordRule(index, position, matched: matched, $0.recorder) } }
            guard matched, let target = rule.target(assessment: false) else { continue }
            targets.append(target)
            matchedRules.append(position)
        }
        let decided = survey.generation == .legacy ? Set(targets).count == 1 : targets.count == 1
        if record {
            if let coverage { for position in matchedRules { coverage.layout.recordJump(index, position, taken: decided, coverage.recorder) } }
            if decided, let target = targets.first { events.append(TraceEvent("rule_matched", detail: .object(["to": .string(target)]))) }
            if !decided, targets.count > 1 { events.append(TraceEvent("rules_conflict", detail: .array(targets.map(JSONValue.string)))) }
        }
        if decided { return targets.first }
        return survey.generation == .legacy && allNil ? skipToIfNil : nil
    }

    /// From 3.4.92 to 4.3.8 a step's rules read its first answer in the history: after a Back they may read
    /// what the respondent answered before, not what is on screen.
    private func noteStaleAnswer(_ id: String, read: JSONValue?, onScreen: JSONValue?) {
        guard read != onScreen else { return }
        events.append(TraceEvent("stale_answer_read", detail: .object(["answer": .string(id), "read": read ?? .null, "on_screen": onScreen ?? .null])))
    }

    // MARK: cohorts (an app's RSDCohortTrackingRule)

    /// `RSDCohortTrackingRule.nextStepIdentifier`: the step's cohort rules add their cohort when they match
    /// and remove it when not.
    private func updateCohorts(for index: Int, result: SageBranchResult) {
        let step = survey.steps[index]
        for rule in step.rules {
            guard let cohort = rule.cohort else { continue }
            let field = step.fields.indices.contains(rule.field) ? step.fields[rule.field] : nil
            let id = survey.generation == .legacy ? (field?.id ?? step.name) : step.name
            let matched = rule.matches(result.findAnswer(id, fromEnd: engine.readsLatestAnswer), field: field, answerIsObject: step.answerIsObject, engine: engine)
            if matched, cohorts.insert(cohort).inserted { events.append(TraceEvent("cohort_added", detail: .string(cohort))) }
            if !matched, cohorts.remove(cohort) != nil { events.append(TraceEvent("cohort_removed", detail: .string(cohort))) }
        }
    }

    /// `applyRules`: the first rule whose required cohorts are all (or any) current gives its target, by
    /// default `nextStep` before a step and `nextSection` after it.
    private func applyCohortRules(_ rules: [Sage.CohortRule], before: Bool) -> String? {
        for rule in rules where !rule.requiredCohorts.isEmpty {
            let shared = Set(rule.requiredCohorts).intersection(cohorts)
            if rule.matchesAny ? !shared.isEmpty : shared == Set(rule.requiredCohorts) {
                return rule.skipTo ?? (before ? "nextStep" : "nextSection")
            }
        }
        return nil
    }

    // MARK: showing and ending

    /// `_moveToNextStepPart2`: a section gets a navigator of its own (its cache is the history of its last
    /// result in the parent) and starts; a step gets its result and goes on screen.
    func researchShow(_ node: SageSurvey.Node, reverse: Bool) {
        switch node {
        case .section(let section):
            let previous = open[level].result.stepHistory.last { $0.identifier == survey.sections[section].name }
            var navigator = makeNavigator(section: section)
            navigator.cache = previous.flatMap(resolved)?.stepHistory ?? []
            open[level].current = node
            open.append(navigator)
            retained[section] = navigator
            researchMoveToNext(from: nil)
        case .step(let index):
            loadStep(index)
            show(index)
            if level == 0, !reverse, isTaskComplete(index) { handOver() }
        }
    }

    /// `loadStepController(for:)` and the step's data source: up to 3.3.91 a step without a result gets a
    /// fresh one; from 3.4.92 a step that is not the last result gets one. A question's answer (a form's
    /// input results) is pre-filled from the cache of results that left the path.
    func loadStep(_ index: Int) {
        // Read in place: a copy of the result held while appending to it would copy its history, and a copy
        // of the step would retain and release each of its parts.
        let name = survey.steps[index].name
        let needsResult = engine.keepsHistory ? open[level].result.stepHistory.last?.identifier != name : !open[level].result.hasResult(name)
        if needsResult { open[level].result.append(freshEntry(for: index), engine: engine) }
        guard survey.steps[index].kind == .question, let previous = open[level].cache.last(where: { $0.identifier == name }) else { return }
        var entry = freshEntry(for: index)
        if survey.generation == .legacy {
            guard case .collection = previous.kind else { return }
            let fields = survey.steps[index].fields
            entry.inputs = previous.inputs.filter { input in fields.contains { $0.id == input.field } }
            guard !entry.inputs.isEmpty else { return }
        } else {
            // `previousResult as? AnswerResult`: a result the skip button wrapped is not one.
            guard previous.kind.isAnswer, previous.wrapping == .none else { return }
            entry.value = previous.value
        }
        open[level].result.append(entry, engine: engine)
    }

    /// `isTaskComplete(with:)` for a step of the task itself: a completion step with no step after it (looking
    /// ahead) and no navigation skip action of its own or the task's; completion steps cannot go back
    /// (`canNavigateBackward`), so the result is handed over the moment it shows.
    private func isTaskComplete(_ index: Int) -> Bool {
        let step = survey.steps[index]
        guard step.isCompletion, (step.buttons.skip ?? survey.buttons.skip)?.isNavigation != true else { return false }
        return researchStep(after: .step(index), at: 0, peeking: true).node == nil
    }

    /// `_finishStoppingTaskPart1`: a section that ends without `exit` appends its result to the parent,
    /// which moves on from it (`_moveUpThePath`); `exit`, or the end of the task, finishes the task with the
    /// task's result as it is, so a section left by `exit` is not in it.
    func researchFinishNavigator(after previous: SageSurvey.Node?, target: String?) {
        if target == "exit" {
            if level > 0 { events.append(TraceEvent("section_result_dropped", detail: .string(survey.sections[open[level].section!].id))) }
            finish(.exit, saving: true)
            return
        }
        if level > 0 {
            var navigator = open.removeLast()
            navigator.result.end = now
            navigator.current = previous
            retained[navigator.section!] = navigator
            branchStates[navigator.instance] = navigator.result
            let entry = SageResultEntry(
                identifier: navigator.result.identifier, step: nil, kind: .branch(navigator.result, instance: navigator.instance), start: navigator.result.start)
            open[level].result.append(entry, engine: engine)
            if let last = open[level].result.stepHistory.indices.last { open[level].result.stepHistory[last].end = now }
            researchMoveToNext(from: .section(navigator.section!))
            return
        }
        if let target {
            noteUnknownTarget(target, from: current)
            finish(.unknownTarget, saving: true, target: target)
        } else {
            finish(.completed, saving: true)
        }
    }

    // MARK: looking ahead

    /// `hasStepAfter`: some navigator up the chain has a step after its current child, looking ahead.
    var researchHasStepAfter: Bool {
        open.indices.contains { depth in researchStep(after: open[depth].current, at: depth, peeking: true).node != nil }
    }

    // MARK: back

    /// Back is shown unless the step, or a section or the task without its own Back action, hides it, and
    /// some navigator up the chain has a step before its current child (`hasStepBefore`).
    var researchCanGoBack: Bool {
        guard let current else { return false }
        if survey.steps[current].buttons.hidesBack { return false }
        if !survey.steps[current].buttons.definesBack, hides(survey.steps[current], .back) { return false }
        return open.indices.contains { researchStepBefore(open[$0].current, at: $0) != nil }
    }

    /// `_step(before:with:)`: the node before the last occurrence of the current one in the path (`nodePath`
    /// when it has any, else the step history); when the current one is not in it, the path's last node.
    private func researchStepBefore(_ node: SageSurvey.Node?, at depth: Int) -> SageSurvey.Node? {
        guard let node else { return nil }
        var before: SageSurvey.Node?
        var found = false
        // The node before the current one's last occurrence: the one before each occurrence, the last kept.
        var previous: SageSurvey.Node?
        open[depth].result.forEachPathNode { pathNode in
            if pathNode == node {
                before = previous
                found = true
            }
            previous = pathNode
        }
        return found ? before : previous
    }

    /// `goBack()`: in the lowest navigator with a step before its current child (leaving the sections
    /// started below it), `_moveBack(to:)`.
    func researchGoBack() {
        while level > 0, researchStepBefore(open[level].current, at: level) == nil {
            let navigator = open.removeLast()
            retained[navigator.section!] = navigator
            branchStates[navigator.instance] = navigator.result
        }
        guard let target = researchStepBefore(open[level].current, at: level) else { return }
        researchMoveBack(to: target)
    }

    /// `_moveBack(to:)`: the history is cut from the target (or, from 3.4.92, only the path), then the target
    /// shows again; a section seen before is re-entered where its navigator stopped, from 3.4.92 after its
    /// result is appended to the parent again (`previousPathComponent(for:)`).
    private func researchMoveBack(to node: SageSurvey.Node) {
        open[level].cache.mergeCache(open[level].result.removeHistory(from: survey.name(of: node), engine: engine))
        switch node {
        case .step(let index):
            loadStep(index)
            show(index)
        case .section(let section):
            guard var navigator = retained[section], let inner = navigator.current else {
                researchShow(node, reverse: true)
                return
            }
            if engine.keepsHistory, open[level].result.stepHistory.last?.identifier != survey.sections[section].name {
                let entry = SageResultEntry(
                    identifier: navigator.result.identifier, step: nil, kind: .branch(navigator.result, instance: navigator.instance), start: navigator.result.start)
                open[level].result.append(entry, engine: engine)
            }
            open[level].current = node
            navigator.current = inner
            open.append(navigator)
            // `moveBackToCurrentStep`: the section goes back to the child it was on.
            researchMoveBack(to: inner)
        }
    }
}

extension Array where Element == SageResultEntry {
    /// `removeStepHistory(from:)` of the view model: results that left the path join the cache, each
    /// replacing an earlier one of the same step (`append(previousResult:)`).
    mutating func mergeCache(_ results: [SageResultEntry]) {
        for result in results {
            removeAll { $0.identifier == result.identifier }
            append(result)
        }
    }
}
