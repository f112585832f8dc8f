import SurveyCore

/// Instances coming onto the page and leaving it: group instances added and removed, a question's nested
/// items following its answers, initial values given once to a new instance. What reads an instance
/// that comes or goes is evaluated again, since which instance a condition reads may change with it.
extension FHIRSession {
    /// Where the focus is looked for after a change that took the focused instance off the page.
    enum FocusAnchor {
        /// After this instance (nil: from the top), among the instances on the page before the change.
        case after(Int32?)
        /// After the old focus in this order, the page's before the change (blocks were reordered).
        case oldOrder([Int32])
    }

    /// Adds an instance of a repeating group after its last one; the new instance.
    func addGroupInstance(after first: Int32) -> Int32 {
        let (block, run) = state.instances.appendGroupInstance(like: first)
        putOnPage(run)
        readersMoved(block)
        for sibling in state.instances.groupInstances(of: first) ?? [] { refreshWeights(sibling) }
        return state.instances.block(block).base
    }

    /// Removes a repeating group's instance for good; the later instances are renumbered, their answers
    /// going with them.
    func removeGroupInstance(_ slot: Int32, siblings: [Int32]) {
        if expressions != nil, let base = state.instances.groupBase(slot), let number = siblings.firstIndex(of: slot).map({ $0 + 1 }) {
            state.expressions.rename(Self.renumbering(base, old: siblings.count) { $0 == number ? nil : ($0 > number ? $0 - 1 : $0) })
        }
        let block = state.instances.block(of: slot)
        takeOffPage(state.instances.slots(of: block))
        _ = state.instances.remove(block)
        readersMoved(block)
        for sibling in siblings where sibling != slot {
            rehash(state.instances.slots(of: state.instances.block(of: sibling)))
            refreshWeights(sibling)
        }
    }

    /// A question that does not repeat lost its answer: its nested items go off the page, kept aside.
    func setAside(_ container: Int) {
        for block in state.instances.blocks(inContainer: container) where state.instances.block(block).attached {
            takeOffPage(state.instances.slots(of: block))
            _ = state.instances.detach(block)
            readersMoved(block)
        }
    }

    /// A question that does not repeat has an answer again: its nested items come back with what they had,
    /// or are made.
    func restore(_ container: Int, under question: Int32) {
        if let block = state.instances.blocks(inContainer: container).first {
            putOnPage(state.instances.attach(block))
            readersMoved(block)
        } else {
            let block = state.instances.makeAnswerBlock(of: question)
            putOnPage(state.instances.insert(block, at: 0))
            readersMoved(block)
        }
    }

    /// A repeating question's answers changed: answer `old` of them is now answer `mapping[old]`, with its
    /// nested items; answers without an old one get new items, old ones without a new one lose theirs.
    func replaceAnswerBlocks(_ container: Int, under question: Int32, mapping: [Int: Int], count: Int) {
        let old = state.instances.blocks(inContainer: container)
        if state.focus >= 0 { focusAnchor = focusAnchor ?? .oldOrder(state.instances.order.elements) }
        if expressions != nil {
            let id = state.instances.id(question)
            state.expressions.rename(Self.renumbering(id, old: old.count) { mapping[$0 - 1].map { $0 + 1 } })
        }
        var list = [Int32](repeating: -1, count: count)
        for (from, to) in mapping { list[to] = old[from] }
        for index in list.indices where list[index] < 0 { list[index] = state.instances.makeAnswerBlock(of: question) }
        for block in old { takeOffPage(state.instances.slots(of: block)) }
        let (_, added) = state.instances.replaceBlocks(inContainer: container, with: list)
        putOnPage(added)
        for block in Set(old).union(list) { readersMoved(block) }
    }

    // MARK: on and off the page

    /// Instances now on the page (new, or back): each starts enabled, as if every status were unset, with
    /// its id's term of the fingerprint; new ones get their initial values; all are evaluated.
    func putOnPage(_ run: [Int32]) {
        while state.slots.count < state.instances.slotCount {
            state.slots.append(FHIRSlotState())
            state.arrivals.append(FHIRArrival())
        }
        for slot in run {
            state.arrivals[Int(slot)] = FHIRArrival(idHash: StableHash.mix(StableHash.of(state.instances.id(slot))), change: state.changes)
            setEnabled(slot, true)
            dirty.append(slot)
        }
        initialize(run)
    }

    /// Instances about to leave the page: off screen, disabled (so what counts answered instances forgets
    /// them), and the focus, if one of them had it, looked for after them.
    func takeOffPage(_ run: [Int32]) {
        guard let first = run.first, state.instances.isLive(first) else { return }
        if state.focus >= 0, focusAnchor == nil, run.contains(state.focus) { focusAnchor = .after(state.instances.order.previous(before: first)) }
        for slot in run {
            setShown(slot, false)
            setEnabled(slot, false)
        }
    }

    /// Gives instances that never had them their initial values (`initial`, else the options marked
    /// initialSelected), once, when they first exist; a question's nested items come with its answers.
    func initialize(_ run: [Int32]) {
        for slot in run where !state.slots[Int(slot)].flags.contains(.initialized) {
            state.slots[Int(slot)].flags.insert(.initialized)
            let item = state.instances.item(slot)
            let values = survey.initialValues(item)
            guard !values.isEmpty, !state.slots[Int(slot)].isAnswered else { continue }
            setAnswer(slot, values)
            recordAnswer(values, item: item)
            guard let container = state.instances.answerContainer(of: slot) else { continue }
            if plan.items[item].repeats {
                replaceAnswerBlocks(container, under: slot, mapping: [:], count: values.count)
            } else {
                restore(container, under: slot)
            }
        }
    }

    /// Which instance a condition reads can change when a block comes or goes: every instance of an item
    /// whose conditions read one of the block's items is evaluated again.
    func readersMoved(_ block: Int32) {
        for item in plan.itemsIn(template: state.instances.block(block).template) {
            for (reader, _) in plan.readers[Int(item)] {
                state.instances.forEachInstance(of: Int(reader)) { dirty.append($0) }
            }
        }
    }

    /// The ids of these instances changed (a group instance before them was removed): their fingerprint
    /// terms follow.
    func rehash(_ run: [Int32]) {
        for slot in run {
            let hash = StableHash.mix(StableHash.of(state.instances.id(slot)))
            if isShown(slot) { state.fingerprint = state.fingerprint &- state.arrivals[Int(slot)].idHash &+ hash }
            state.arrivals[Int(slot)].idHash = hash
        }
    }

    /// A renaming of the ids under `base#N` (N in 1...old) to `base#f(N)`, dropping those where f is nil: how
    /// SDC expression memory, kept by instance id, follows instances renumbered.
    static func renumbering(_ base: String, old: Int, _ number: @escaping (Int) -> Int?) -> (String) -> String? {
        let marker = base + "#"
        return { id in
            guard id.hasPrefix(marker) else { return id }
            let rest = id.dropFirst(marker.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let current = Int(digits), current >= 1, current <= old else { return id }
            let tail = rest.dropFirst(digits.count)
            guard tail.isEmpty || tail.first == "/" else { return id }
            return number(current).map { "\(marker)\($0)\(tail)" }
        }
    }
}
