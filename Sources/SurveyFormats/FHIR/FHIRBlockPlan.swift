import SurveyCore

/// How a Questionnaire's instances come in blocks, worked out once per reading: a block is one copy of a
/// template, a run of items that always exist together. The root template holds every item outside repeating
/// groups and outside questions' answers; each repeating group has a template (one block a group instance,
/// §A2 qrs-2), and each question with items under it a template (one block an answer, the items nested under
/// that answer). A block's own items are consecutive slots; the blocks of other templates hang in its
/// containers, at the place in document order where the group, or the question's nested items, are.
///
/// It also indexes which items' enableWhen read which item, so a change re-evaluates only its readers.
final class FHIRBlockPlan: Sendable {
    enum Kind: Sendable, Equatable {
        case root
        /// The instances of a repeating group: a block's first item is the group.
        case group(item: Int32)
        /// The items nested under one answer of a question (repeating or not).
        case answers(question: Int32, repeats: Bool)
    }

    struct Container: Sendable {
        /// Its blocks come right before the template's item at this local index (after the last one when it
        /// equals the template's item count).
        let before: Int32
        /// The local index of the instance its blocks hang under; -1 for the block's own parent.
        let parent: Int32
        /// The template of its blocks.
        let template: Int32
    }

    struct Template: Sendable {
        let kind: Kind
        /// Its items in document order (pre-order).
        let items: [Int32]
        /// Each item's parent as a local index; -1 when it hangs under the block's parent instance.
        let parents: [Int32]
        /// Each item's children among the template's items, as local indices.
        let children: [[Int32]]
        /// The items that hang under the block's parent instance, as local indices.
        let roots: [Int32]
        /// Where other templates' blocks hang, in document order.
        let containers: [Container]
        /// Each item's containers (their indices) whose blocks hang under it; the last entry is for -1, the
        /// containers whose blocks hang under the block's parent.
        let containersUnder: [[Int32]]
        /// The template and container holding this template's blocks (-1 for the root).
        let holderTemplate: Int32
        let holderContainer: Int32
    }

    let templates: [Template]
    /// The survey's items and the index of their ids, which instance ids are made of.
    let items: [FHIR.Item]
    let itemByID: [String: Int]
    let itemsByLinkId: [String: [Int]]
    /// Whether some items share a linkId (que-2), so LHC-Forms places instances by element id.
    let sharesLinkIds: Bool
    /// Each item's template and local index (a repeating group is item 0 of its own template).
    let templateOfItem: [Int32]
    let localOfItem: [Int32]
    /// For each repeating group, and each question with nested items: its container in the template holding it.
    let containerOfItem: [Int32]
    /// What sessions ask of an item at every step, kept compact.
    struct Traits: OptionSet, Sendable {
        let rawValue: UInt8
        static let hidden = Traits(rawValue: 1 << 0)
        static let required = Traits(rawValue: 1 << 1)
        static let takesAnswers = Traits(rawValue: 1 << 2)
        static let readOnly = Traits(rawValue: 1 << 3)
        static let repeatingGroup = Traits(rawValue: 1 << 4)
        static let conditional = Traits(rawValue: 1 << 5)
        static let enablementIsExpression = Traits(rawValue: 1 << 6)
    }

    let traits: [Traits]
    /// What LHC-Forms' skip logic reads of each item as a source.
    let lhcSources: [FHIRLHCForms.Source]
    /// For each item, the items with an enableWhen naming its linkId (each once, in document order), with
    /// those of their conditions that do.
    let readers: [[(reader: Int32, conditions: [Int32])]]
    /// For each item's conditions: the items of the linkId it names (several: que-2).
    let sources: [[[Int32]]]
    /// For each item's conditions: the slot every instance of the item reads (a single item of the root
    /// template, the same wherever it is read from), `noSource` when none is ever read, `resolved` when
    /// each instance's source is found by the axes (`FHIRInstances.source`).
    let fixedSources: [[Int32]]
    static let noSource: Int32 = -1
    static let resolved: Int32 = -2
    /// Whether every item is in the root template: one instance each, in document order, slot = item.
    let isFlat: Bool

    init(_ survey: FHIRSurvey) {
        var builder = Builder(survey: survey)
        builder.build(template: builder.newTemplate(.root, holder: (-1, -1)), children: survey.topLevel, parent: -1)
        templates = builder.finished()
        items = survey.items
        itemByID = survey.itemByID
        itemsByLinkId = survey.itemsByLinkId
        sharesLinkIds = survey.itemsByLinkId.count < survey.items.count
        templateOfItem = builder.templateOfItem
        localOfItem = builder.localOfItem
        containerOfItem = builder.containerOfItem
        var readers = [[(reader: Int32, conditions: [Int32])]](repeating: [], count: survey.items.count)
        for (index, item) in survey.items.enumerated() {
            var conditionsBySource: [Int: [Int32]] = [:]
            var sourcesInOrder: [Int] = []
            for (position, condition) in item.enableWhen.enumerated() {
                for source in survey.itemsByLinkId[condition.question] ?? [] {
                    if conditionsBySource[source] == nil { sourcesInOrder.append(source) }
                    conditionsBySource[source, default: []].append(Int32(position))
                }
            }
            for source in sourcesInOrder { readers[source].append((Int32(index), conditionsBySource[source]!)) }
        }
        self.readers = readers
        lhcSources = survey.items.map(FHIRLHCForms.Source.init)
        traits = survey.items.map { item in
            var traits: Traits = []
            if item.hidden { traits.insert(.hidden) }
            if item.required { traits.insert(.required) }
            if item.type.takesAnswers { traits.insert(.takesAnswers) }
            if item.readOnly { traits.insert(.readOnly) }
            if item.isRepeatingGroup { traits.insert(.repeatingGroup) }
            if !item.enableWhen.isEmpty { traits.insert(.conditional) }
            if item.enablementIsExpression { traits.insert(.enablementIsExpression) }
            return traits
        }
        isFlat = templates.count == 1
        let sources = survey.items.map { item in item.enableWhen.map { condition in (survey.itemsByLinkId[condition.question] ?? []).map(Int32.init) } }
        self.sources = sources
        let templateOfItem = templateOfItem
        let localOfItem = localOfItem
        fixedSources = survey.items.indices.map { reader in
            sources[reader].map { items in
                guard items.count <= 1 else { return Self.resolved }
                guard let source = items.first.map(Int.init) else { return Self.noSource }
                guard templateOfItem[source] == 0 else { return Self.resolved }
                return source == reader ? Self.noSource : localOfItem[source]
            }
        }
    }

    /// The items of a template and of the templates hanging in it, at any depth.
    func itemsIn(template: Int32) -> [Int32] {
        let info = templates[Int(template)]
        return info.items + info.containers.flatMap { itemsIn(template: $0.template) }
    }

    /// Whether the item has a single instance, which always exists (it is in the root template).
    func isStatic(_ item: Int) -> Bool { templateOfItem[item] == 0 }

    private struct Builder {
        let survey: FHIRSurvey
        var kinds: [Kind] = []
        var items: [[Int32]] = []
        var parents: [[Int32]] = []
        var containers: [[Container]] = []
        var holders: [(Int32, Int32)] = []
        var templateOfItem: [Int32]
        var localOfItem: [Int32]
        var containerOfItem: [Int32]

        init(survey: FHIRSurvey) {
            self.survey = survey
            templateOfItem = Array(repeating: -1, count: survey.items.count)
            localOfItem = Array(repeating: -1, count: survey.items.count)
            containerOfItem = Array(repeating: -1, count: survey.items.count)
        }

        mutating func newTemplate(_ kind: Kind, holder: (Int32, Int32)) -> Int {
            kinds.append(kind)
            items.append([])
            parents.append([])
            containers.append([])
            holders.append(holder)
            return kinds.count - 1
        }

        private mutating func add(_ item: Int, to template: Int, parent: Int32) -> Int32 {
            let local = Int32(items[template].count)
            items[template].append(Int32(item))
            parents[template].append(parent)
            templateOfItem[item] = Int32(template)
            localOfItem[item] = local
            return local
        }

        private mutating func container(in template: Int, parent: Int32, for kind: Kind, item: Int) -> Int {
            let index = Int32(containers[template].count)
            let made = newTemplate(kind, holder: (Int32(template), index))
            containers[template].append(Container(before: Int32(items[template].count), parent: parent, template: Int32(made)))
            containerOfItem[item] = index
            return made
        }

        mutating func build(template: Int, children: [Int], parent: Int32) {
            for child in children {
                let item = survey.items[child]
                if item.isRepeatingGroup {
                    let own = container(in: template, parent: parent, for: .group(item: Int32(child)), item: child)
                    let local = add(child, to: own, parent: -1)
                    build(template: own, children: item.children, parent: local)
                    continue
                }
                let local = add(child, to: template, parent: parent)
                guard !item.children.isEmpty else { continue }
                if item.type.takesAnswers {
                    let own = container(in: template, parent: local, for: .answers(question: Int32(child), repeats: item.repeats), item: child)
                    build(template: own, children: item.children, parent: -1)
                } else {
                    build(template: template, children: item.children, parent: local)
                }
            }
        }

        func finished() -> [Template] {
            kinds.indices.map { index in
                let count = items[index].count
                var children = [[Int32]](repeating: [], count: count)
                for (local, parent) in parents[index].enumerated() where parent >= 0 { children[Int(parent)].append(Int32(local)) }
                var under = [[Int32]](repeating: [], count: count + 1)
                for (position, container) in containers[index].enumerated() {
                    under[container.parent >= 0 ? Int(container.parent) : count].append(Int32(position))
                }
                return Template(
                    kind: kinds[index], items: items[index], parents: parents[index], children: children,
                    roots: parents[index].indices.filter { parents[index][$0] < 0 }.map(Int32.init), containers: containers[index],
                    containersUnder: under, holderTemplate: holders[index].0, holderContainer: holders[index].1)
            }
        }
    }
}
