import SurveyCore

/// The weights an R4 session's instances carry in its `WeightedOrder`: on the page (the visible list), a
/// question on the page (where the focus moves), and the other actions it offers (add, remove, clear).
enum FHIRPage {
    static let shown = 0
    static let questions = 1
    static let actions = 2
}

/// What follows from enablement and answers, kept up to date as they change: which instances are on the
/// page, the page's fingerprint, the weights walks choose by, and the required instances without an answer.
extension FHIRSession {
    /// Sets an instance's enablement, and what counts enabled answered instances.
    func setEnabled(_ slot: Int32, _ value: Bool) {
        let old = state.slots[Int(slot)]
        guard old.flags.contains(.enabled) != value else { return }
        if value { state.slots[Int(slot)].flags.insert(.enabled) } else { state.slots[Int(slot)].flags.remove(.enabled) }
        let term = StableHash.mix(UInt64(slot))
        state.enabledHash = value ? state.enabledHash &+ term : state.enabledHash &- term
        enablementChanged.append(slot)
        // What the response holds of an unanswered instance is nothing, enabled or not.
        if expressions != nil, old.isAnswered { state.expressions.changedSince.append(slot) }
        if old.isAnswered { countAnswered(above: slot, value ? 1 : -1) }
        refreshMissing(slot)
    }

    /// Sets an instance's answers (none: unanswered), and what counts answered instances; those reading it are
    /// evaluated again, and it too under android-fhir (which caches the answers of a disabled instance) or when
    /// its enablement has conditions of its own. Under LHC-Forms an instance without any has its parent's
    /// enablement, which its answers do not change: evaluating it again would decide what it is.
    func setAnswer(_ slot: Int32, _ values: [FHIR.Value]) {
        let old = state.slots[Int(slot)]
        state.slots[Int(slot)].answer = values.isEmpty ? -1 : state.values.add(values)
        if old.flags.contains(.enabled), old.isAnswered != !values.isEmpty { countAnswered(above: slot, values.isEmpty ? -1 : 1) }
        refreshMissing(slot)
        refreshWeights(slot)
        if profile.engine == .androidFHIR || !plan.traits[state.instances.item(slot)].isDisjoint(with: [.conditional, .enablementIsExpression]) {
            dirty.append(slot)
        }
        forEachReader(of: slot) { dirty.append($0) }
        if expressions != nil { state.expressions.changedSince.append(slot) }
    }

    /// An instance's enabled answered descendants changed by `delta`: its ancestors' counts follow.
    private func countAnswered(above slot: Int32, _ delta: Int32) {
        var current = state.instances.parent(slot)
        while let ancestor = current {
            state.slots[Int(ancestor)].answeredBelow += delta
            refreshMissing(ancestor)
            current = state.instances.parent(ancestor)
        }
    }

    /// Whether a required instance is missing its answer: enabled, and unanswered (a group: without an answered
    /// descendant). `required` is ignored unless the item is enabled (§A1).
    private func refreshMissing(_ slot: Int32) {
        let traits = plan.traits[state.instances.item(slot)]
        guard traits.contains(.required) else { return }
        let info = state.slots[Int(slot)]
        let missing = info.flags.contains(.enabled) && (traits.contains(.takesAnswers) ? !info.isAnswered : info.answeredBelow == 0)
        guard missing != info.flags.contains(.missing) else { return }
        if missing {
            state.slots[Int(slot)].flags.insert(.missing)
            state.missingRequired += 1
        } else {
            state.slots[Int(slot)].flags.remove(.missing)
            state.missingRequired -= 1
        }
    }

    /// The instances whose enablement changed, and below them those whose parent's place changed, come on or
    /// leave the page, in document order. android-fhir throws showing an item it has no view for.
    func updatePage() {
        var agenda = FHIRAgenda()
        let order = state.instances.order
        for slot in enablementChanged where state.instances.isLive(slot) { agenda.add(slot, key: order.key(slot)) }
        enablementChanged = []
        while let (_, slot) = agenda.next() {
            let shown =
                isEnabled(slot) && !plan.traits[state.instances.item(slot)].contains(.hidden) && state.instances.parent(slot).map(isShown) != false
            guard shown != isShown(slot) else { continue }
            setShown(slot, shown)
            for child in state.instances.children(of: slot) { agenda.add(child, key: order.key(child)) }
        }
    }

    func setShown(_ slot: Int32, _ shown: Bool) {
        guard shown != isShown(slot) else { return }
        if shown {
            state.slots[Int(slot)].flags.insert(.shown)
            state.fingerprint &+= state.arrivals[Int(slot)].idHash
            if failure == nil, profile.engine == .androidFHIR, case .androidThrowsWhenShown(let why)? = item(of: slot).rendering {
                failure = "NotImplementedError: android-fhir has no view for '\(state.instances.id(slot))' (\(why)), so showing it throws (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/QuestionnaireLists.kt:249-279)"
            }
        } else {
            state.slots[Int(slot)].flags.remove(.shown)
            state.fingerprint &-= state.arrivals[Int(slot)].idHash
        }
        refreshWeights(slot)
    }

    /// Sets an instance's weights from what it is now.
    func refreshWeights(_ slot: Int32) {
        guard state.instances.isLive(slot) else { return }
        state.instances.order.setWeights(slot, weights(slot))
    }

    /// What an instance counts for in the page's lists: on the page, a question on the page, and its actions.
    func weights(_ slot: Int32) -> SIMD4<UInt8> {
        weights(slot, shown: isShown(slot))
    }

    /// The weights an instance has when it is on the page or not.
    private func weights(_ slot: Int32, shown: Bool) -> SIMD4<UInt8> {
        guard shown else { return .zero }
        let offers = self.offers(slot, shown: true)
        let actions = (offers.add ? 1 : 0) + (offers.remove ? 1 : 0) + (offers.clear ? 1 : 0)
        return SIMD4(1, plan.traits[state.instances.item(slot)].contains(.takesAnswers) ? 1 : 0, UInt8(actions), 0)
    }

    /// The actions an instance on the page offers besides answering: adding an instance after the last of its
    /// group (below its maxOccurs) and removing one (above its minOccurs) for a group instance, clearing an
    /// answered question the respondent can answer.
    private func offers(_ slot: Int32, shown: Bool) -> (add: Bool, remove: Bool, clear: Bool) {
        let traits = plan.traits[state.instances.item(slot)]
        if traits.contains(.repeatingGroup), let siblings = state.instances.groupInstances(of: slot) {
            let item = plan.items[state.instances.item(slot)]
            return (siblings.last == slot && siblings.count < item.maxOccurs ?? Int.max, siblings.count > max(1, item.minOccurs ?? 1), false)
        }
        let clear = state.slots[Int(slot)].isAnswered && traits.contains(.takesAnswers) && !traits.contains(.readOnly) && shown
        return (false, false, clear)
    }

    /// Those actions, in the order walks number them.
    func pageActions(_ slot: Int32) -> [Action] {
        let offers = self.offers(slot, shown: isShown(slot))
        var actions: [Action] = []
        if offers.add, let base = state.instances.groupBase(slot) { actions.append(.add(group: base)) }
        if offers.remove { actions.append(.remove(instance: state.instances.id(slot))) }
        if offers.clear { actions.append(.clear(question: state.instances.id(slot))) }
        return actions
    }

    /// Back shows when a question on the page comes before the focus (or, past the end, when any is shown).
    var canGoBack: Bool {
        guard state.focus >= 0 else { return visibleCount > 0 }
        return state.instances.isLive(state.focus) && state.instances.order.hasWeight(kind: FHIRPage.questions, before: state.focus)
    }

    /// The first question on the page after an instance (nil: from the top).
    func nextQuestion(after slot: Int32?) -> Int32? {
        let order = state.instances.order
        guard let slot else { return order.totals[FHIRPage.questions] > 0 ? order.select(kind: FHIRPage.questions, 0) : nil }
        return order.next(after: slot, withWeightOf: FHIRPage.questions)
    }

    /// The last question on the page before an instance (nil: from the end).
    func previousQuestion(before slot: Int32?) -> Int32? {
        let order = state.instances.order
        let k = slot.map { order.rank($0, kind: FHIRPage.questions) } ?? Int(order.totals[FHIRPage.questions])
        return k > 0 ? order.select(kind: FHIRPage.questions, k - 1) : nil
    }

    // MARK: coverage

    /// Reports an answer stored (by the respondent or as an initial value), for coverage.
    func recordAnswer(_ values: [FHIR.Value], item: Int) {
        guard let coverage, recordsCoverage, !values.isEmpty else { return }
        if let question = coverage.layout.questionOfItem[item] { coverage.recorder.answered(question) }
        let first = coverage.layout.firstChoice[item]
        for value in values {
            if let option = survey.items[item].options.firstIndex(where: { $0.value == value }) { coverage.recorder.choice(first + option) }
        }
    }

    /// What a session opening on the shared opening form reports: its initial values, the items shown, and
    /// every decision.
    func recordOpening(_ recorder: CoverageRecorder, _ layout: FHIRCoverageLayout) {
        for slot in state.instances.order.elements where state.slots[Int(slot)].isAnswered {
            recordAnswer(answers(slot), item: state.instances.item(slot))
        }
        recordPageCoverage(recorder, layout)
    }

    /// After a change: which items are now shown or hidden, and every instance's decision as it stands.
    func recordPageCoverage(_ recorder: CoverageRecorder, _ layout: FHIRCoverageLayout) {
        var itemNowShown = [Bool](repeating: false, count: survey.items.count)
        for slot in state.instances.order.elements where isShown(slot) { itemNowShown[state.instances.item(slot)] = true }
        for (item, on) in itemNowShown.enumerated() where on != itemShown[item] {
            if let question = layout.questionOfItem[item] { recorder.question(question, shown: on) }
        }
        itemShown = itemNowShown
        recordDecisions(recorder, layout)
    }

    private func recordDecisions(_ recorder: CoverageRecorder, _ layout: FHIRCoverageLayout) {
        for slot in state.instances.order.elements {
            let item = state.instances.item(slot)
            let parentEnabled = state.instances.parent(slot).map(isEnabled) != false
            if let decision = layout.expressionDecisionOfItem[item], parentEnabled, let outcome = state.expressions.enabled[state.instances.id(slot)] {
                recorder.decision(decision, outcome: outcome, leaves: [outcome ? .true : .false])
            }
            guard let decision = layout.decisionOfItem[item], parentEnabled, case .truth(let outcome) = decide(slot) else { continue }
            let leaves = survey.items[item].enableWhen.enumerated().map { index, condition -> CoverageRecorder.LeafValue in
                let (value, answered) = evaluate(index, of: slot)
                switch value {
                case .truth(true): return answered || condition.op == .exists ? .true : .unansweredTrue
                case .truth(false): return answered || condition.op == .exists ? .false : .unansweredFalse
                case .failure: return .skipped
                }
            }
            recorder.decision(decision, outcome: outcome, leaves: leaves)
        }
    }

    // MARK: invariants

    /// The session's invariant, for walks: the page kept as enablement changed is the page worked out afresh
    /// (what is on it, its fingerprint and weights, the required count), what is shown is enabled, and under
    /// LHC-Forms, once settled, every instance's enablement is what its conditions say now (android-fhir's
    /// single pass is not a fixpoint, so a fresh pass may differ).
    ///
    /// After Submit the fresh page may be one worked out for an equal response key (`keptFreshPage`): it
    /// reads only what the key holds.
    func invariantViolation() -> String? {
        guard !isBlocked else { return nil }
        let order = state.instances.order.elements
        return violation(of: keptFreshPage ?? freshPage(order), order)
    }

    /// The page worked out afresh from the instances' enablement and answers alone, never from what the
    /// session kept as it went (`order`: the instances in document order).
    func freshPage(_ order: [Int32]? = nil) -> FHIRFreshPage {
        let order = order ?? state.instances.order.elements
        // The state's lists are read in place, not through the session at every instance (each read retains
        // them).
        let (instances, slots, traits) = (state.instances, state.slots, plan.traits)
        var page = FHIRFreshPage(count: order.count)
        var shownSoFar = [Bool](repeating: false, count: instances.slotCount)
        var answeredBelow = [Int32](repeating: 0, count: instances.slotCount)
        for (position, slot) in order.enumerated() {
            let enabled = slots[Int(slot)].flags.contains(.enabled)
            let shown = enabled && !traits[instances.item(slot)].contains(.hidden) && instances.parent(slot).map { shownSoFar[Int($0)] } != false
            shownSoFar[Int(slot)] = shown
            page.shown[position] = shown
            if shown { page.fingerprint &+= StableHash.mix(StableHash.of(instances.id(slot))) }
            page.weights[position] = weights(slot, shown: shown)
            if enabled, slots[Int(slot)].isAnswered {
                var ancestor = instances.parent(slot)
                while let above = ancestor {
                    answeredBelow[Int(above)] += 1
                    ancestor = instances.parent(above)
                }
            }
        }
        // Required instances missing their answer (descendants come after their ancestors).
        for slot in order where traits[instances.item(slot)].contains(.required) && slots[Int(slot)].flags.contains(.enabled) {
            let answered = traits[instances.item(slot)].contains(.takesAnswers) ? slots[Int(slot)].isAnswered : answeredBelow[Int(slot)] > 0
            if !answered { page.missingRequired += 1 }
        }
        if profile.engine == .lhcForms {
            page.firstUndecided = order.firstIndex { decide($0) != .truth(isEnabled($0)) }
        }
        return page
    }

    /// Where the session's own page departs from the fresh one, checked in document order.
    private func violation(of fresh: FHIRFreshPage, _ order: [Int32]) -> String? {
        // The state's lists are read once, not through the session at every instance (each read retains them).
        let instances = state.instances
        let (slots, weights) = (state.slots, instances.order)
        for (position, slot) in order.enumerated() {
            let flags = slots[Int(slot)].flags
            let shown = flags.contains(.shown)
            if shown, !flags.contains(.enabled) { return "'\(instances.id(slot))' is shown though it is not enabled" }
            if fresh.shown[position] != shown {
                return "'\(instances.id(slot))' is \(shown ? "on" : "off") the page though its enablement and its parent's say otherwise"
            }
            // Its weights are compared once it is shown as it should be: they are worked out from that.
            if weights.weights(of: slot) != fresh.weights[position] { return "'\(instances.id(slot))' is counted in the page's lists as it no longer is" }
        }
        if fresh.fingerprint != state.fingerprint { return "the page's fingerprint is not the sum of its instances' ids" }
        if fresh.missingRequired != state.missingRequired {
            return "\(state.missingRequired) required instances are counted unanswered, and \(fresh.missingRequired) are"
        }
        guard profile.engine == .lhcForms, state.settled, let position = fresh.firstUndecided else { return nil }
        let slot = order[position]
        return "'\(instances.id(slot))' is \(isEnabled(slot) ? "enabled" : "not enabled") though its conditions now say otherwise"
    }
}

/// The page of a form worked out afresh for the invariant (`FHIRSession.invariantViolation`), by position in
/// document order. It reads only what a response key holds (the instances, their enablement and answers,
/// the settings) and the form, so sessions with equal keys have the same fresh page.
struct FHIRFreshPage: Equatable, Sendable {
    /// By position: whether the instance is on the page, and what it counts for in the page's lists then.
    var shown: [Bool]
    var weights: [SIMD4<UInt8>]
    /// The sum of the id hashes of the instances on the page.
    var fingerprint: UInt64 = 0
    var missingRequired = 0
    /// Under LHC-Forms: the first position whose conditions now say other than its enablement.
    var firstUndecided: Int?

    init(count: Int) {
        shown = Array(repeating: false, count: count)
        weights = Array(repeating: .zero, count: count)
    }
}
