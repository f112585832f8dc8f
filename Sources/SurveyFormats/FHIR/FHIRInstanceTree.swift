import SurveyCore

/// The items of a session as the response would hold them: one instance a item, one per instance of a
/// repeating group (§A2, qrs-2), and the items nested under a question once per answer it has, since their
/// answers live under that answer (`answer.item`). Listed in document order (pre-order), the order in which
/// enablement is evaluated and the "preceding" and "following" axes of source resolution run (§A1).
struct FHIRInstanceTree {
    struct Instance {
        /// The item it is an instance of (index in the survey's items).
        let item: Int
        /// The id scenarios use for it.
        let id: String
        /// The instance it is nested in.
        let parent: Int?
        /// For an item nested under a question, which answer of that question (0-based) it belongs to.
        let answerIndex: Int?
        /// For a repeating group instance: the id `add` takes (`visit`, `trip#1/stop`).
        let groupBase: String?
        /// The index after its last descendant.
        var end: Int
    }

    private(set) var instances: [Instance] = []
    private(set) var indexByID: [String: Int] = [:]
    /// The instances of each item, in document order.
    private(set) var instancesOfItem: [[Int]]
    /// Where LHC-Forms places each instance when it looks for a source from it: the first instance with the
    /// same element id (linkId and the instance numbers of it and its ancestors). Items sharing a linkId
    /// (que-2) share it when their ancestors' numbers agree, and LHC-Forms finds the first
    /// (`_findItemByLinkId` looks the item up by `_elementId`, LHNCBC/lforms@24c71875
    /// src/lib/lforms/lhc-form-data.ts:3790-3797; `_elementId` is the linkId and `_idPath`, :1336-1354). Empty
    /// when no two items share a linkId: every instance is then where it is.
    private var lhcPlace: [Int] = []

    /// The tree of these instances, listed in document order with `end` and `parent` set (positions in the list).
    init(survey: FHIRSurvey, instances: [Instance]) {
        self.instances = instances
        instancesOfItem = Array(repeating: [], count: survey.items.count)
        indexByID.reserveCapacity(instances.count)
        for (position, instance) in instances.enumerated() {
            indexByID[instance.id] = position
            instancesOfItem[instance.item].append(position)
        }
        if survey.itemsByLinkId.count < survey.items.count { placeByElementID(survey) }
    }

    /// The instances of a session now, in document order, and the slot each one is.
    init(_ live: FHIRInstances, survey: FHIRSurvey) {
        let slots = live.order.elements
        var position = [Int](repeating: -1, count: live.slotCount)
        var list: [Instance] = []
        list.reserveCapacity(slots.count)
        for slot in slots {
            position[Int(slot)] = list.count
            let parent = live.parent(slot).map { position[Int($0)] }
            list.append(Instance(item: live.item(slot), id: live.id(slot), parent: parent, answerIndex: live.answerIndex(slot), groupBase: live.groupBase(slot), end: list.count + 1))
            var ancestor = parent
            while let index = ancestor {
                list[index].end = list.count
                ancestor = list[index].parent
            }
        }
        self.init(survey: survey, instances: list)
        self.slots = slots
        positionOfSlot = position
    }

    /// For a tree made from a session's instances, the slot of each instance (by position).
    private(set) var slots: [Int32] = []
    /// For a tree made from a session's instances, the position of each live slot (-1 for others).
    private(set) var positionOfSlot: [Int] = []

    /// `lhcPlace`: an instance's `_idPath` is its ancestors' with its own number appended, 1 unless it is the
    /// N-th instance of a repeating group; an item under a question's answer k sits under the k-th instance of
    /// that question, as LHC-Forms repeats a question with its items.
    private mutating func placeByElementID(_ survey: FHIRSurvey) {
        var paths: [String] = []
        var first: [String: Int] = [:]
        lhcPlace = instances.indices.map { position in
            let instance = instances[position]
            let own = instance.groupBase.map { String(instance.id.dropFirst($0.count + 1)) } ?? "1"
            var path = instance.parent.map { paths[$0] } ?? ""
            if let answer = instance.answerIndex, let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) + "/\(answer + 1)" }
            path += "/" + own
            paths.append(path)
            let key = survey.items[instance.item].linkId + "\u{0}" + path
            if let earlier = first[key] { return earlier }
            first[key] = position
            return position
        }
    }

    /// The instance a condition of the instance at `position` reads, among the instances of `items` (the items
    /// with the condition's linkId, several when it is shared, que-2): the nearest on the ancestor axis, then
    /// the preceding, then the following (R4 enableWhen.question comment; android-fhir and LHC-Forms search
    /// response items and item instances by linkId this way, §A1: google/android-fhir@28a50345
    /// .../enablement/EnablementEvaluator.kt:221-250, LHNCBC/lforms@24c71875 src/lib/lforms/lhc-form-data.ts:3776-3821).
    ///
    /// Under LHC-Forms the preceding and following axes run from the instance's place (`lhcPlace`), which for
    /// an item sharing its linkId with an earlier one of the same element id is that earlier one's.
    func source(_ items: [Int], for position: Int, engine: FHIREngine = .androidFHIR) -> Int? {
        var current = instances[position].parent
        while let ancestor = current {
            if items.contains(instances[ancestor].item) { return ancestor }
            current = instances[ancestor].parent
        }
        let candidates = items.count == 1 ? instancesOfItem[items[0]] : items.flatMap { instancesOfItem[$0] }.sorted()
        guard !candidates.isEmpty else { return nil }
        let position = engine == .lhcForms && !lhcPlace.isEmpty ? lhcPlace[position] : position
        // The first candidate after `position`; the one before it is the nearest preceding.
        var low = 0
        var high = candidates.count
        while low < high {
            let middle = (low + high) / 2
            if candidates[middle] <= position { low = middle + 1 } else { high = middle }
        }
        if low > 0, candidates[low - 1] != position { return candidates[low - 1] }
        if low > 1 { return candidates[low - 2] }
        return low < candidates.count ? candidates[low] : nil
    }
}
