import SurveyCore

/// How enablement is worked out after a change, as each engine works it out, evaluating only the instances
/// whose inputs changed (their conditions' sources' answers or enablement, their parent's enablement), in
/// document order.
extension FHIRSession {
    /// Brings enablement, computed values and the page up to date after a change.
    func refresh() {
        failure = nil
        state.settled = evaluateEnablementAndExpressions()
        updatePage()
        if let coverage, recordsCoverage { recordPageCoverage(coverage.recorder, coverage.layout) }
    }

    /// Enablement and, with SDC expressions, the values and enablement they compute, as the engine works them
    /// out (`FHIRExpressions`): android-fhir evaluates its expressions once per change, then makes its pass;
    /// LHC-Forms alternates its skip logic and its expression run until neither changes anything. Whether a
    /// fixpoint was reached.
    private func evaluateEnablementAndExpressions() -> Bool {
        guard let expressions else { return profile.engine == .lhcForms ? settleLHCForms() : androidPass() }
        if profile.engine == .androidFHIR {
            let pass = runExpressions(expressions)
            let settled = androidPass()
            if let reason = pass.failure { failure = reason }
            return settled
        }
        for _ in 0..<(survey.expressionProgram.nodes.count + survey.conditionalCount + 2) {
            let settled = settleLHCForms()
            guard failure == nil else { return true }
            let pass = runExpressions(expressions)
            if let reason = pass.failure {
                failure = reason
                return true
            }
            guard pass.answersChanged || pass.enablementChanged || !dirty.isEmpty else { return settled }
        }
        return false
    }

    /// The instances to evaluate, in document order: those the change made dirty and those left for now.
    private func takeAgenda() -> FHIRAgenda {
        var agenda = FHIRAgenda()
        for slot in dirty + state.pending where state.instances.isLive(slot) { agenda.add(slot, key: state.instances.order.key(slot)) }
        dirty = []
        state.pending = []
        return agenda
    }

    /// LHC-Forms: each item keeps its skip-logic status between changes (`_skipLogicStatus`,
    /// `_setSkipLogicStatusValue`, LHNCBC/lforms@24c71875 src/lib/lforms/lhc-form-data.ts:811-895); after a
    /// change it runs the skip logic of every item in document order, again until a pass changes nothing
    /// (`_checkFormControls`, :687-706), a disabled source counting as unanswered (`hasAnswer`, :3872-3873).
    /// An item whose inputs did not change keeps its status in such a pass, so only the instances reading what
    /// changed are evaluated, pass after pass in document order: an instance changing enablement makes those
    /// after it that read it (and its children) evaluated in the same pass, those before it in the next. At
    /// most (items with enableWhen + 2) passes (§A1 "iterate until a fixpoint with a maximum iteration
    /// count"); whether a fixpoint was reached (what is left is evaluated at the next change). A condition
    /// that throws stops the work (`failure`).
    ///
    /// Enablement that keeps changing goes round a cycle: a pass that starts as an earlier one did (the same
    /// enablement everywhere, the same instances to evaluate) repeats what followed it. The passes up to the
    /// bound are then skipped a whole cycle at a time, so the enablement left is the bound's without the
    /// work of every pass.
    func settleLHCForms() -> Bool {
        var current = takeAgenda()
        var next = FHIRAgenda()
        var pass = 1
        var bound = survey.conditionalCount + 2
        var passStarts: [SIMD2<UInt64>: Int] = [:]
        while true {
            var changed = false
            while let (key, slot) = current.next() {
                let value: Bool
                switch decide(slot) {
                case .failure(let reason):
                    failure = reason
                    return true
                case .truth(let truth): value = truth
                }
                guard value != isEnabled(slot) else { continue }
                setEnabled(slot, value)
                changed = true
                let order = state.instances.order
                for child in state.instances.children(of: slot) { current.add(child, key: order.key(child)) }
                // A disabled source counts as unanswered: an unanswered one reads the same either way.
                if state.slots[Int(slot)].isAnswered {
                    forEachReader(of: slot) { reader in
                        let readerKey = order.key(reader)
                        if readerKey > key { current.add(reader, key: readerKey) } else { next.add(reader, key: readerKey) }
                    }
                }
            }
            if !changed { return true }
            if pass == bound {
                state.pending = next.slots
                return false
            }
            if next.isEmpty { return true }
            pass += 1
            current = next
            next = FHIRAgenda()
            if bound > pass, pass > 2 {
                let start = SIMD2(state.enabledHash, Set(current.slots).reduce(0) { $0 &+ StableHash.mix(UInt64($1) ^ 0xA6E0_DA5E) })
                if let earlier = passStarts[start] {
                    bound = pass + (bound - pass) % (pass - earlier)
                    passStarts = [:]
                } else {
                    passStarts[start] = pass
                }
            }
        }
    }

    /// android-fhir: one pass in document order after each change (`getQuestionnaireAdapterItems`,
    /// QuestionnaireViewModel.kt:878-896). A hidden item is passed over unevaluated with what is under it; a
    /// disabled one has its answers cleared (cached, `cacheDisabledQuestionnaireItemAnswers`, :1076-1087) and
    /// what is under it is not visited, so those keep their answers; an enabled one gets its cached answers
    /// back (:1089-1096). A condition reads the answers as they are at that moment of the pass: one placed
    /// before its source sees the source's answers from before the pass until the next change. Only the
    /// instances whose inputs changed are evaluated; one before a source whose cleared answers changed in
    /// this pass is evaluated at the next.
    func androidPass() -> Bool {
        var agenda = takeAgenda()
        var later: [Int32] = []
        while let (key, slot) = agenda.next() {
            let before = state.slots[Int(slot)]
            if let parent = state.instances.parent(slot), !(state.slots[Int(parent)].flags.contains(.visited) && isEnabled(parent)) {
                // Under a disabled item: disabled with it; under a hidden one: not evaluated, hidden with it.
                state.slots[Int(slot)].flags.remove(.visited)
                setEnabled(slot, isEnabled(parent))
            } else if plan.traits[state.instances.item(slot)].contains(.hidden) {
                state.slots[Int(slot)].flags.remove(.visited)
                setEnabled(slot, true)
            } else {
                state.slots[Int(slot)].flags.insert(.visited)
                switch decide(slot) {
                case .failure(let reason):
                    failure = reason
                    return true
                case .truth(let value):
                    setEnabled(slot, value)
                    if value {
                        state.slots[Int(slot)].flags.remove(.withheld)
                    } else if before.isAnswered {
                        state.slots[Int(slot)].flags.insert(.withheld)
                    }
                }
            }
            let after = state.slots[Int(slot)].flags
            let order = state.instances.order
            if after.intersection([.enabled, .visited]) != before.flags.intersection([.enabled, .visited]) {
                for child in state.instances.children(of: slot) { agenda.add(child, key: order.key(child)) }
            }
            if after.contains(.withheld) != before.flags.contains(.withheld), before.isAnswered {
                // What the response holds of it changed (android-fhir clears a withheld instance's answers).
                if expressions != nil { state.expressions.changedSince.append(slot) }
                forEachReader(of: slot) { reader in
                    let readerKey = order.key(reader)
                    if readerKey > key { agenda.add(reader, key: readerKey) } else { later.append(reader) }
                }
            }
        }
        state.pending = later
        return true
    }

    /// An instance's enablement from its ancestors and its own conditions, as the engine evaluates them.
    /// `parentEnabled` overrides the parent's enablement (android-fhir's submit pass works its own out).
    func decide(_ slot: Int32, parentEnabled: Bool? = nil) -> FHIRConditionValue {
        decisions += 1
        if let parent = state.instances.parent(slot), !(parentEnabled ?? isEnabled(parent)) { return .truth(false) }
        let index = state.instances.item(slot)
        let traits = plan.traits[index]
        if traits.contains(.enablementIsExpression), let expressions,
            let enabled = expressions.enables(state.instances.id(slot), of: plan.items[index], state.expressions)
        {
            return .truth(enabled)
        }
        guard traits.contains(.conditional) else { return .truth(true) }
        return profile.combine(count: plan.items[index].enableWhen.count, behavior: plan.items[index].enableBehavior, linkId: plan.items[index].linkId) {
            evaluate($0, of: slot).value
        }
    }

    /// Condition `index` of the instance's item, and whether its source had answers. A condition naming no
    /// item reads no answer (android-fhir finds no response item for it; LHC-Forms refuses such a file).
    func evaluate(_ index: Int, of slot: Int32) -> (value: FHIRConditionValue, answered: Bool) {
        let item = state.instances.item(slot)
        guard let source = source(of: index, for: slot) else {
            return (profile.evaluate(plan.items[item].enableWhen[index], source: nil as FHIRLHCForms.Source?, answers: []), false)
        }
        let answers = seenAnswers(source)
        let reading = profile.engine == .lhcForms ? plan.lhcSources[state.instances.item(source)] : nil
        return (profile.evaluate(plan.items[item].enableWhen[index], source: reading, answers: answers), !answers.isEmpty)
    }

    /// The instance condition `index` of an instance reads.
    private func source(of index: Int, for slot: Int32) -> Int32? {
        let item = state.instances.item(slot)
        let fixed = plan.fixedSources[item][index]
        if fixed >= 0 { return fixed }
        if fixed == FHIRBlockPlan.noSource { return nil }
        let place = profile.engine == .lhcForms && plan.sharesLinkIds ? state.instances.lhcPlace(slot) : slot
        return state.instances.source(plan.sources[item][index], for: slot, place: place)
    }

    /// Calls `body` with each instance one of whose conditions reads `slot`.
    func forEachReader(of slot: Int32, _ body: (Int32) -> Void) {
        for (reader, conditions) in plan.readers[state.instances.item(slot)] {
            state.instances.forEachInstance(of: Int(reader)) { instance in
                if conditions.contains(where: { source(of: Int($0), for: instance) == slot }) { body(instance) }
            }
        }
    }

    /// The answers the engine sees at a source instance. LHC-Forms counts a disabled item as unanswered
    /// (`hasAnswer`, lhc-form-data.ts:3872-3873); android-fhir reads the response item, whose answers are gone
    /// once a pass cleared them.
    func seenAnswers(_ source: Int32) -> [FHIR.Value] {
        let flags = state.slots[Int(source)].flags
        switch profile.engine {
        case .lhcForms: return flags.contains(.enabled) ? answers(source) : []
        case .androidFHIR: return flags.contains(.withheld) ? [] : answers(source)
        }
    }

    /// The instances whose enablement still changes after the bound on passes, in document order: among those
    /// left to evaluate (every other one was evaluated since its inputs last changed).
    func unsettledItems() -> [String] {
        let order = state.instances.order
        return Set(state.pending).filter { state.instances.isLive($0) && decide($0) != .truth(isEnabled($0)) }
            .sorted { order.key($0) < order.key($1) }.map { state.instances.id($0) }
    }

    // MARK: SDC expressions

    /// One run of the Questionnaire's expressions over the instances as they are (`FHIRExpressions.run`, which
    /// reads them as a tree of ids); the answers it computes are stored, their nested items following by
    /// position, and instances whose enableWhenExpression changed evaluated again.
    private func runExpressions(_ expressions: FHIRExpressions) -> FHIRExpressionPass {
        if expressions.leavesOutIdlePass(&state.expressions, instances: state.instances) {
            idlePasses += 1
            return FHIRExpressionPass()
        }
        let tree = state.instances.tree(survey: survey)
        var answers = tree.slots.map { state.slots[Int($0)].isAnswered ? self.answers($0) : [] }
        let withheld = tree.slots.map { state.slots[Int($0)].flags.contains(.withheld) }
        let enablement = tree.slots.map(isEnabled)
        // The memory changed in place: a copy would copy its tables as the pass writes them.
        let sameInstances = state.expressions.seenInstances === state.instances.listing
        let pass = expressions.run(
            &state.expressions, tree: tree, enablement: enablement, answers: &answers, withheld: withheld, sameInstances: sameInstances)
        state.expressions.saw(state.instances)
        // What the pass wrote, stored in document order.
        for position in pass.written.sorted() {
            let slot = tree.slots[position]
            let values = answers[position]
            let old = self.answers(slot)
            guard values != old else { continue }
            setAnswer(slot, values)
            guard let container = state.instances.answerContainer(of: slot) else { continue }
            if !plan.items[Int(state.instances.item(slot))].repeats {
                if old.isEmpty != values.isEmpty { values.isEmpty ? setAside(container) : restore(container, under: slot) }
            } else if old.count != values.count {
                let kept = min(old.count, values.count)
                replaceAnswerBlocks(container, under: slot, mapping: Dictionary(uniqueKeysWithValues: (0..<kept).map { ($0, $0) }), count: values.count)
            }
        }
        if pass.enablementChanged {
            for (item, traits) in plan.traits.enumerated() where traits.contains(.enablementIsExpression) {
                state.instances.forEachInstance(of: item) { dirty.append($0) }
            }
        }
        return pass
    }

    // MARK: what the response and checks read

    /// What the response is written from: the instances, their enablement and the answers that count.
    var responseInput: FHIRResponseInput {
        let tree = state.instances.tree(survey: survey)
        var answers = [[FHIR.Value]](repeating: [], count: tree.slots.count)
        for (position, slot) in tree.slots.enumerated() where state.slots[Int(slot)].isAnswered {
            if profile.engine == .androidFHIR, state.slots[Int(slot)].flags.contains(.withheld) { continue }
            answers[position] = self.answers(slot)
        }
        let enablement = profile.engine == .androidFHIR ? (try? submitEnablement(tree).get()) : nil
        return FHIRResponseInput(
            survey: survey, tree: tree, enablement: enablement ?? tree.slots.map(isEnabled), answersByPosition: answers, today: settings.today)
    }

    struct SubmitFailure: Error {
        let reason: String
    }

    /// android-fhir evaluates enablement once more from the top as it submits (`getEnabledResponseItems`,
    /// QuestionnaireViewModel.kt:1098-1124), hidden items included, over the answers it has not cleared; what
    /// a condition throws then fails the submit. LHC-Forms writes what it shows.
    func submitEnablement() -> Result<[Bool], SubmitFailure> {
        guard profile.engine == .androidFHIR else { return .success([]) }
        return submitEnablement(state.instances.tree(survey: survey))
    }

    private func submitEnablement(_ tree: FHIRInstanceTree) -> Result<[Bool], SubmitFailure> {
        var enablement = [Bool](repeating: true, count: tree.instances.count)
        for (position, slot) in tree.slots.enumerated() {
            switch decide(slot, parentEnabled: tree.instances[position].parent.map { enablement[$0] }) {
            case .truth(let value): enablement[position] = value
            case .failure(let reason): return .failure(SubmitFailure(reason: "\(reason), as it submits"))
            }
        }
        return .success(enablement)
    }

    /// Whether a condition holds now, read from the first instance of its source (for properties files); a
    /// condition the engine throws on does not hold.
    func holds(_ condition: FHIR.EnableWhen) -> Bool {
        let item = survey.itemByLinkId[condition.question]
        let source = item.flatMap { state.instances.instances(of: $0).first }
        let answers = source.map(seenAnswers) ?? []
        return profile.evaluate(condition, source: item.map { survey.items[$0] }, answers: answers) == .truth(true)
    }
}
