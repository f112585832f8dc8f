import SurveyCore

/// The instances of an R4 session as they change (`FHIRBlockPlan`): blocks of slots, the blocks hanging in
/// each block's containers, and the instances on the page in document order (`order`, whose weights the
/// session sets). Slots and blocks are never reused; a slot keeps its state when its block is renumbered
/// (an earlier group instance removed), moved (a repeating question's answers reordered) or set aside (a
/// question's only answer cleared), so answers follow their instance as the engines' do.
///
/// Ids are worked out from the blocks, as the response writes instances: `visit#2/reason`, `meds#1/dose`
/// (`FHIRInstanceTree` builds the same ids from scratch).
struct FHIRInstances: Sendable {
    struct Slot: Sendable {
        let item: Int32
        let block: Int32
        /// The instance it is nested in; -1 at the top level.
        let parent: Int32
    }

    struct Block: Sendable {
        let template: Int32
        /// Its first slot: its template's items are slots base, base + 1, …
        let base: Int32
        /// The instance its top items hang under (-1: the top level).
        let parent: Int32
        /// The block holding the container it is in, and which of that block's template's containers (-1: the root).
        let holder: Int32
        let holderContainer: Int32
        /// The id of its first container: a block's containers have consecutive ids.
        let firstContainer: Int32
        /// Whether it is in its container's list of blocks as one that exists now; false for the nested items
        /// of a question that has no answer now, set aside until it has one again.
        var attached: Bool
    }

    let plan: FHIRBlockPlan

    /// Where the instances' lists are kept: one reference, so that a copy of the instances (which a session
    /// makes as it reads them out of its state) retains one object rather than each list. A change of
    /// instances whose box another copy shares gives them a box of their own first, holding the same lists,
    /// which still share their storage until they change.
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var slots = ChunkedArray<Slot>()
        @exclusivity(unchecked) var blocks = ChunkedArray<Block>()
        @exclusivity(unchecked) var containers = ChunkedArray<[Int32]>()
        @exclusivity(unchecked) var order = WeightedOrder()
        // The boxes are made only by `init()`: a copy shares its original's (an initial value would make
        // one to throw away).
        @exclusivity(unchecked) var listing: Listing
        @exclusivity(unchecked) var shape: Lazy<FHIRInstanceShape>

        init() {
            listing = Listing()
            shape = Lazy()
        }

        init(sharing other: Storage) {
            slots = other.slots
            blocks = other.blocks
            containers = other.containers
            order = other.order
            listing = other.listing
            shape = other.shape
        }
    }

    private var storage = Storage()

    /// The box, made these instances' own before a change.
    private var ownStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(sharing: storage) }
            return storage
        }
    }

    private(set) var slots: ChunkedArray<Slot> {
        _read { yield storage.slots }
        _modify { yield &ownStorage.slots }
    }

    private(set) var blocks: ChunkedArray<Block> {
        _read { yield storage.blocks }
        _modify { yield &ownStorage.blocks }
    }

    /// The blocks in each container, in order; a removed group instance leaves its container's list.
    private(set) var containers: ChunkedArray<[Int32]> {
        _read { yield storage.containers }
        _modify { yield &ownStorage.containers }
    }

    /// The slots on the page (in attached blocks), in document order.
    var order: WeightedOrder {
        _read { yield storage.order }
        _modify { yield &ownStorage.order }
    }

    /// The instances listed as `FHIRInstanceTree` lists them, worked out when first asked for. Every change
    /// of the blocks or of what is on the page puts a new box here, so the copies sharing a box (a session
    /// and the states it saved, sessions and the opening they started from) have the same instances.
    private(set) var listing: Listing {
        _read { yield storage.listing }
        _modify { yield &ownStorage.listing }
    }
    typealias Listing = Lazy<FHIRInstanceTree>

    /// Where the instances are, as a response key says it (`FHIRInstanceShape`): worked out when first asked
    /// for, anew after each change of the blocks or of what is on the page (`structureChanged`).
    var shape: FHIRInstanceShape {
        storage.shape.get { FHIRInstanceShape(self) }
    }

    /// The blocks or what is on the page changed: the listing and the shape are worked out again.
    private mutating func structureChanged() {
        let storage = ownStorage
        storage.listing = Lazy()
        storage.shape = Lazy()
    }

    /// The root block alone, with one instance of every repeating group, none in the order yet.
    init(plan: FHIRBlockPlan) {
        self.plan = plan
        let root = makeBlock(template: 0, parent: -1, holder: -1, holderContainer: -1)
        blocks[Int(root)].attached = true
        order = WeightedOrder(slots(of: root), weights: { _ in .zero })
    }

    var slotCount: Int { slots.count }

    /// The instances now, in document order, with their ids (what SDC expressions and the response read):
    /// built once for these instances, then shared.
    func tree(survey: FHIRSurvey) -> FHIRInstanceTree {
        listing.get { FHIRInstanceTree(self, survey: survey) }
    }

    @inline(__always)
    func item(_ slot: Int32) -> Int { Int(slots[Int(slot)].item) }

    @inline(__always)
    func parent(_ slot: Int32) -> Int32? {
        let parent = slots[Int(slot)].parent
        return parent < 0 ? nil : parent
    }

    @inline(__always)
    func isLive(_ slot: Int32) -> Bool { order.contains(slot) }

    private func template(of block: Int32) -> FHIRBlockPlan.Template { plan.templates[Int(blocks[Int(block)].template)] }

    // MARK: making blocks

    /// A new block of a template, with one instance of each repeating group in it, attached to nothing.
    @discardableResult
    mutating func makeBlock(template: Int32, parent: Int32, holder: Int32, holderContainer: Int32) -> Int32 {
        structureChanged()
        let id = Int32(blocks.count)
        let plan = plan.templates[Int(template)]
        let base = Int32(slots.count)
        let firstContainer = Int32(containers.count)
        blocks.append(
            Block(template: template, base: base, parent: parent, holder: holder, holderContainer: holderContainer, firstContainer: firstContainer, attached: false))
        for (local, item) in plan.items.enumerated() {
            let parentLocal = plan.parents[local]
            slots.append(Slot(item: item, block: id, parent: parentLocal >= 0 ? base + parentLocal : parent))
        }
        for _ in plan.containers { containers.append([]) }
        for (index, container) in plan.containers.enumerated() {
            guard case .group = self.plan.templates[Int(container.template)].kind else { continue }
            let child = makeBlock(
                template: container.template, parent: container.parent >= 0 ? base + container.parent : parent, holder: id, holderContainer: Int32(index))
            blocks[Int(child)].attached = true
            containers[Int(firstContainer) + index] = [child]
        }
        return id
    }

    /// Puts a block into its container's list at `index` (attached), and its slots on the page when its
    /// holder is there; the slots put on the page, in order.
    mutating func insert(_ block: Int32, at index: Int) -> [Int32] {
        structureChanged()
        let container = Int(blocks[Int(block)].firstContainerOfHolder(in: blocks))
        containers[container].insert(block, at: index)
        return attach(block)
    }

    /// A new instance of the repeating group `instance` is an instance of, after its last one: its block and
    /// the slots put on the page.
    mutating func appendGroupInstance(like instance: Int32) -> (block: Int32, run: [Int32]) {
        let model = blocks[Int(slots[Int(instance)].block)]
        let block = makeBlock(template: model.template, parent: model.parent, holder: model.holder, holderContainer: model.holderContainer)
        let container = Int(model.firstContainerOfHolder(in: blocks))
        return (block, insert(block, at: containers[container].count))
    }

    /// A new block of the nested items of a question's answer, attached to nothing.
    mutating func makeAnswerBlock(of question: Int32) -> Int32 {
        let info = slots[Int(question)]
        let container = plan.containerOfItem[Int(info.item)]
        let template = plan.templates[Int(blocks[Int(info.block)].template)].containers[Int(container)].template
        return makeBlock(template: template, parent: question, holder: info.block, holderContainer: container)
    }

    /// Marks a block as existing again (it stays at its place in its list) and puts its slots on the page.
    mutating func attach(_ block: Int32) -> [Int32] {
        structureChanged()
        blocks[Int(block)].attached = true
        guard isOnPage(holderOf: block) else { return [] }
        let run = slots(of: block)
        order.insert(run, weights: Array(repeating: .zero, count: run.count), after: predecessor(of: block))
        return run
    }

    /// Takes a block's slots off the page and marks it set aside (it stays in its list); the slots taken off.
    mutating func detach(_ block: Int32) -> [Int32] {
        structureChanged()
        let run = blocks[Int(block)].attached && isOnPage(holderOf: block) ? slots(of: block) : []
        if let first = run.first { order.remove(from: first, count: run.count) }
        blocks[Int(block)].attached = false
        return run
    }

    /// Takes a block off the page and out of its container's list for good; the slots taken off.
    mutating func remove(_ block: Int32) -> [Int32] {
        structureChanged()
        let run = detach(block)
        let container = Int(blocks[Int(block)].firstContainerOfHolder(in: blocks))
        containers[container].removeAll { $0 == block }
        return run
    }

    /// Replaces the blocks of a container (a repeating question's answers, reordered, some new, some
    /// dropped): every old one leaves the page, the new list comes back on it. The slots taken off and put on.
    mutating func replaceBlocks(inContainer container: Int, with list: [Int32]) -> (removed: [Int32], added: [Int32]) {
        structureChanged()
        var removed: [Int32] = []
        for block in containers[container] { removed += detach(block) }
        containers[container] = list
        var added: [Int32] = []
        for block in list { added += attach(block) }
        return (removed, added)
    }

    private func isOnPage(holderOf block: Int32) -> Bool {
        var current = blocks[Int(block)].holder
        while current >= 0 {
            guard blocks[Int(current)].attached else { return false }
            current = blocks[Int(current)].holder
        }
        return true
    }

    // MARK: document order

    /// The slots of a block and of the attached blocks in it, in document order.
    func slots(of block: Int32) -> [Int32] {
        var result: [Int32] = []
        appendSlots(of: block, to: &result)
        return result
    }

    private func appendSlots(of block: Int32, to result: inout [Int32]) {
        let info = blocks[Int(block)]
        let template = plan.templates[Int(info.template)]
        var container = 0
        for local in 0...template.items.count {
            while container < template.containers.count, template.containers[container].before == local {
                for child in containers[Int(info.firstContainer) + container] where blocks[Int(child)].attached { appendSlots(of: child, to: &result) }
                container += 1
            }
            if local < template.items.count { result.append(info.base + Int32(local)) }
        }
    }

    /// The last slot of a block's content in document order (nil for an empty one).
    private func lastSlot(of block: Int32) -> Int32? {
        let info = blocks[Int(block)]
        let template = plan.templates[Int(info.template)]
        var container = template.containers.count - 1
        while container >= 0, Int(template.containers[container].before) == template.items.count {
            if let last = lastSlot(inContainer: Int(info.firstContainer) + container) { return last }
            container -= 1
        }
        return template.items.isEmpty ? nil : info.base + Int32(template.items.count - 1)
    }

    private func lastSlot(inContainer container: Int) -> Int32? {
        for block in containers[container].reversed() where blocks[Int(block)].attached {
            if let last = lastSlot(of: block) { return last }
        }
        return nil
    }

    /// The slot just before a block's content in document order (nil: it comes first).
    private func predecessor(of block: Int32) -> Int32? {
        let info = blocks[Int(block)]
        guard info.holder >= 0 else { return nil }
        let list = containers[Int(blocks[Int(block)].firstContainerOfHolder(in: blocks))]
        if let index = list.firstIndex(of: block) {
            for earlier in list[..<index].reversed() where blocks[Int(earlier)].attached {
                if let last = lastSlot(of: earlier) { return last }
            }
        }
        let holder = blocks[Int(info.holder)]
        let template = plan.templates[Int(holder.template)]
        let before = template.containers[Int(info.holderContainer)].before
        var container = Int(info.holderContainer) - 1
        while container >= 0, template.containers[container].before == before {
            if let last = lastSlot(inContainer: Int(holder.firstContainer) + container) { return last }
            container -= 1
        }
        return before > 0 ? holder.base + before - 1 : predecessor(of: info.holder)
    }

    // MARK: navigating

    /// The attached blocks of a template, in document order.
    func liveBlocks(ofTemplate template: Int32) -> [Int32] {
        if template == 0 { return [0] }
        let info = plan.templates[Int(template)]
        return liveBlocks(ofTemplate: info.holderTemplate).flatMap { holder in
            containers[Int(blocks[Int(holder)].firstContainer + info.holderContainer)].filter { blocks[Int($0)].attached }
        }
    }

    /// Calls `body` with each instance of an item, in document order.
    func forEachInstance(of item: Int, _ body: (Int32) -> Void) {
        if plan.templateOfItem[item] == 0 {
            body(plan.localOfItem[item])
            return
        }
        for instance in instances(of: item) { body(instance) }
    }

    /// The block a slot belongs to.
    @inline(__always)
    func block(of slot: Int32) -> Int32 { slots[Int(slot)].block }

    /// The instances of an item, in document order.
    func instances(of item: Int) -> [Int32] {
        if plan.templateOfItem[item] == 0 { return [Int32(plan.localOfItem[item])] }
        let local = plan.localOfItem[item]
        return liveBlocks(ofTemplate: plan.templateOfItem[item]).map { blocks[Int($0)].base + local }
    }

    /// The instances nested directly in an instance.
    func children(of slot: Int32) -> [Int32] {
        let info = slots[Int(slot)]
        let block = blocks[Int(info.block)]
        let template = plan.templates[Int(block.template)]
        let local = Int(slot - block.base)
        var result = template.children[local].map { block.base + $0 }
        for container in template.containersUnder[local] { appendRoots(inContainer: Int(block.firstContainer + container), to: &result) }
        return result
    }

    private func appendRoots(inContainer container: Int, to result: inout [Int32]) {
        for child in containers[container] where blocks[Int(child)].attached {
            let block = blocks[Int(child)]
            let template = plan.templates[Int(block.template)]
            result += template.roots.map { block.base + $0 }
            for inner in template.containersUnder[template.items.count] { appendRoots(inContainer: Int(block.firstContainer + inner), to: &result) }
        }
    }

    /// For a repeating group's instance: the attached instances of its group in the same place, in order.
    func groupInstances(of slot: Int32) -> [Int32]? {
        let block = blocks[Int(slots[Int(slot)].block)]
        guard block.base == slot, case .group = plan.templates[Int(block.template)].kind else { return nil }
        return containers[Int(block.firstContainerOfHolder(in: blocks))].filter { blocks[Int($0)].attached }.map { blocks[Int($0)].base }
    }

    /// The container of a question's nested items in the block holding the question (nil when it has none).
    func answerContainer(of slot: Int32) -> Int? {
        let info = slots[Int(slot)]
        let container = plan.containerOfItem[Int(info.item)]
        guard container >= 0, !plan.items[Int(info.item)].isRepeatingGroup else { return nil }
        return Int(blocks[Int(info.block)].firstContainer + container)
    }

    func blocks(inContainer container: Int) -> [Int32] { containers[container] }

    func block(_ id: Int32) -> Block { blocks[Int(id)] }

    /// Which attached block of its list a block is (1-based), as ids number instances.
    func number(of block: Int32) -> Int {
        var number = 0
        for other in containers[Int(blocks[Int(block)].firstContainerOfHolder(in: blocks))] where blocks[Int(other)].attached {
            number += 1
            if other == block { return number }
        }
        return number
    }

    // MARK: ids

    /// The instance's id, as scenarios name it.
    func id(_ slot: Int32) -> String {
        let info = slots[Int(slot)]
        // An instance of the root block is named by its item's id alone.
        if info.block == 0 { return plan.items[Int(info.item)].id }
        let block = blocks[Int(info.block)]
        let item = plan.items[Int(info.item)]
        if block.base == slot, case .group = plan.templates[Int(block.template)].kind {
            return prefix(of: block.holder) + item.id + "#\(number(of: info.block))"
        }
        return prefix(of: info.block) + item.id
    }

    /// For an instance nested directly under a question's answer, which answer (0-based); a repeating group's
    /// instances directly under an answer count as under it.
    func answerIndex(_ slot: Int32) -> Int? {
        let info = slots[Int(slot)]
        // The root block's instances are under no answer (its template is `.root`), most of a form's.
        guard info.block != 0 else { return nil }
        let block = blocks[Int(info.block)]
        guard plan.templates[Int(block.template)].parents[Int(slot - block.base)] < 0 else { return nil }
        return answerIndex(ofTopOf: info.block)
    }

    private func answerIndex(ofTopOf block: Int32) -> Int? {
        let info = blocks[Int(block)]
        switch plan.templates[Int(info.template)].kind {
        case .root: return nil
        case .answers: return number(of: block) - 1
        case .group:
            let holder = blocks[Int(info.holder)]
            guard plan.templates[Int(holder.template)].containers[Int(info.holderContainer)].parent < 0 else { return nil }
            return answerIndex(ofTopOf: info.holder)
        }
    }

    /// For a repeating group's instance, the id `add` takes (`visit`, `trip#1/stop`).
    func groupBase(_ slot: Int32) -> String? {
        let info = slots[Int(slot)]
        let block = blocks[Int(info.block)]
        guard block.base == slot, case .group = plan.templates[Int(block.template)].kind else { return nil }
        return prefix(of: block.holder) + plan.items[Int(info.item)].id
    }

    /// What the ids of items in a block start with.
    private func prefix(of block: Int32) -> String {
        let info = blocks[Int(block)]
        switch plan.templates[Int(info.template)].kind {
        case .root: return ""
        case .group(let item): return prefix(of: info.holder) + plan.items[Int(item)].id + "#\(number(of: block))/"
        case .answers(_, let repeats): return repeats ? id(info.parent) + "#\(number(of: block))/" : prefix(of: info.holder)
        }
    }

    /// The instance an id names now, if it exists (or, with `setAside`, is kept aside with its question's
    /// answer). Read as `FHIRSurvey.definition(of:)` reads ids: an item id, or a repeating item's id, `#N` and
    /// what follows `/` inside its N-th instance.
    func slot(named id: String, setAside: Bool = false) -> Int32? {
        guard let slot = locate(Substring(id), in: 0, setAside: setAside) else { return nil }
        // A slot of the root block is named by its item's id, which found it.
        return slots[Int(slot)].block == 0 || self.id(slot) == id ? slot : nil
    }

    private func locate(_ rest: Substring, in block: Int32, setAside: Bool) -> Int32? {
        if let item = plan.itemByID[String(rest)] { return slot(ofItem: item, in: block, setAside: setAside) }
        var search = rest.startIndex
        while let hash = rest[search...].firstIndex(of: "#") {
            let digits = rest[rest.index(after: hash)...].prefix { $0.isASCII && $0.isNumber }
            let after = digits.endIndex
            if !digits.isEmpty, let item = plan.itemByID[String(rest[..<hash])], plan.items[item].repeats {
                guard let number = Int(digits), number >= 1 else { return nil }
                if after == rest.endIndex {
                    guard plan.items[item].type == .group, let instance = nthBlock(of: item, number, in: block, setAside: setAside) else { return nil }
                    return blocks[Int(instance)].base
                }
                if rest[after] == "/" {
                    let inside: Int32?
                    if plan.items[item].type == .group {
                        inside = nthBlock(of: item, number, in: block, setAside: setAside)
                    } else {
                        inside = slot(ofItem: item, in: block, setAside: setAside).flatMap { answerContainer(of: $0) }.flatMap { nth(number, inContainer: $0) }
                    }
                    return inside.flatMap { locate(rest[rest.index(after: after)...], in: $0, setAside: setAside) }
                }
            }
            search = rest.index(after: hash)
        }
        return nil
    }

    /// The N-th attached instance block of a repeating group reachable from a block.
    private func nthBlock(of group: Int, _ number: Int, in block: Int32, setAside: Bool) -> Int32? {
        let holderTemplate = plan.templates[Int(plan.templateOfItem[group])].holderTemplate
        guard let holder = descend(to: holderTemplate, from: block, setAside: setAside) else { return nil }
        return nth(number, inContainer: Int(blocks[Int(holder)].firstContainer + plan.containerOfItem[group]))
    }

    private func nth(_ number: Int, inContainer container: Int) -> Int32? {
        let attached = containers[container].filter { blocks[Int($0)].attached }
        return number <= attached.count ? attached[number - 1] : nil
    }

    /// The slot of an item in a block, or in the nested items of a question of it that does not repeat
    /// (whose ids have no prefix of their own).
    private func slot(ofItem item: Int, in block: Int32, setAside: Bool) -> Int32? {
        guard let holder = descend(to: plan.templateOfItem[item], from: block, setAside: setAside) else { return nil }
        return blocks[Int(holder)].base + plan.localOfItem[item]
    }

    /// The block of a template reached from a block through the nested items of questions that do not
    /// repeat, when they have an answer now (or, with `setAside`, when they have been made).
    private func descend(to template: Int32, from block: Int32, setAside: Bool) -> Int32? {
        let start = blocks[Int(block)].template
        if template == start { return block }
        var chain: [Int32] = []
        var current = template
        while current != start {
            guard case .answers(_, repeats: false) = plan.templates[Int(current)].kind else { return nil }
            chain.append(current)
            current = plan.templates[Int(current)].holderTemplate
            if current < 0 { return nil }
        }
        var reached = block
        for inner in chain.reversed() {
            let container = Int(blocks[Int(reached)].firstContainer + plan.templates[Int(inner)].holderContainer)
            guard let child = containers[container].first, setAside || blocks[Int(child)].attached else { return nil }
            reached = child
        }
        return reached
    }
}

extension FHIRInstances {
    /// The instance a condition of `slot` reads among the instances of `items` (several when they share its
    /// linkId, que-2): the nearest on the ancestor axis, then the nearest preceding, then the nearest
    /// following (R4 enableWhen.question comment; android-fhir and LHC-Forms search response items and item
    /// instances by linkId this way, §A1: google/android-fhir@28a50345
    /// .../enablement/EnablementEvaluator.kt:221-250, LHNCBC/lforms@24c71875 src/lib/lforms/lhc-form-data.ts:3776-3821).
    /// The preceding and following axes run from `place`: the instance itself, or under LHC-Forms where it
    /// places the instance (`lhcPlace`).
    func source(_ items: [Int32], for slot: Int32, place: Int32) -> Int32? {
        var current = parent(slot)
        while let ancestor = current {
            if items.contains(slots[Int(ancestor)].item) { return ancestor }
            current = parent(ancestor)
        }
        let candidates = items.count == 1 ? instances(of: Int(items[0])) : items.flatMap { instances(of: Int($0)) }.sorted { order.key($0) < order.key($1) }
        guard !candidates.isEmpty else { return nil }
        let key = order.key(place)
        var low = 0
        var high = candidates.count
        while low < high {
            let middle = (low + high) / 2
            if order.key(candidates[middle]) <= key { low = middle + 1 } else { high = middle }
        }
        if low > 0, candidates[low - 1] != place { return candidates[low - 1] }
        if low > 1 { return candidates[low - 2] }
        return low < candidates.count ? candidates[low] : nil
    }

    /// Where LHC-Forms places an instance when it looks for a source from it: the first instance with the same
    /// element id (linkId and the instance numbers of it and its ancestors). Items sharing a linkId (que-2)
    /// share it when their ancestors' numbers agree, and LHC-Forms finds the first (`_findItemByLinkId` looks
    /// the item up by `_elementId`, LHNCBC/lforms@24c71875 src/lib/lforms/lhc-form-data.ts:3790-3797;
    /// `_elementId` is the linkId and `_idPath`, :1336-1354).
    func lhcPlace(_ slot: Int32) -> Int32 {
        let linkId = plan.items[item(slot)].linkId
        let path = lhcPath(slot)
        let candidates = (plan.itemsByLinkId[linkId] ?? []).flatMap { instances(of: $0) }.sorted { order.key($0) < order.key($1) }
        return candidates.first { lhcPath($0) == path } ?? slot
    }

    /// An instance's `_idPath`: its ancestors' with its own number appended, 1 unless it is the N-th instance
    /// of a repeating group; an item under a question's answer k sits under the k-th instance of that
    /// question, as LHC-Forms repeats a question with its items.
    private func lhcPath(_ slot: Int32) -> String {
        let own = groupBase(slot) != nil ? "\(number(of: slots[Int(slot)].block))" : "1"
        var path = parent(slot).map(lhcPath) ?? ""
        if let answer = answerIndex(slot), let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) + "/\(answer + 1)" }
        return path + "/" + own
    }
}

extension FHIRInstances.Block {
    /// The id of the container holding this block.
    fileprivate func firstContainerOfHolder(in blocks: ChunkedArray<FHIRInstances.Block>) -> Int32 {
        blocks[Int(holder)].firstContainer + holderContainer
    }
}
