import SurveyCore

/// What an R4 session knows of one instance (a slot of `FHIRInstances`) and changes as it is answered: kept
/// small (12 bytes), since a session copies it a chunk at a time from the opening it starts from.
struct FHIRSlotState: Sendable {
    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        /// Its enablement as the engine worked it out last.
        static let enabled = Flags(rawValue: 1 << 0)
        /// On the page: enabled, not hidden, and its parent on the page.
        static let shown = Flags(rawValue: 1 << 1)
        /// android-fhir cleared its answers (and cached them) when its last pass found it disabled.
        static let withheld = Flags(rawValue: 1 << 2)
        /// It has received its initial values (once, when it first existed).
        static let initialized = Flags(rawValue: 1 << 3)
        /// android-fhir's last pass evaluated it (its parent was visited and enabled, and it is not hidden).
        static let visited = Flags(rawValue: 1 << 4)
        /// Required, enabled and without an answer (for a group: without an answered descendant).
        static let missing = Flags(rawValue: 1 << 5)
    }

    /// Its answers in the session's `FHIRAnswerValues`; -1 when it has none.
    var answer: Int32 = -1
    /// How many instances nested in it (at any depth) are enabled and answered.
    var answeredBelow: Int32 = 0
    var flags: Flags = []

    var isAnswered: Bool { answer >= 0 }
}

/// What an R4 session notes of an instance as it comes on the page, written only then (and when its id
/// changes), so kept apart from `FHIRSlotState`, which answering writes.
struct FHIRArrival: Sendable {
    /// Its term of the page's fingerprint: a hash of its id.
    var idHash: UInt64 = 0
    /// The change that last put it on the page (`FHIRSession.State.changes`).
    var change: Int32 = 0
}

/// The answers of a session's instances, by reference: those of the opening form shared by every session
/// of the survey, those given since kept by the session.
struct FHIRAnswerValues: Sendable {
    private var opening: [[FHIR.Value]] = []
    private var given: [[FHIR.Value]] = []

    subscript(reference: Int32) -> [FHIR.Value] {
        guard reference >= 0 else { return [] }
        let index = Int(reference)
        return index < opening.count ? opening[index] : given[index - opening.count]
    }

    mutating func add(_ values: [FHIR.Value]) -> Int32 {
        given.append(values)
        return Int32(opening.count + given.count - 1)
    }

    /// The answers given so far become the shared opening ones.
    mutating func seal() {
        opening += given
        given = []
    }
}

/// Instances to evaluate in document order, each once however often it is added. Those added in order (a
/// whole form as it opens) wait in a list; the others in a binary heap by order key.
struct FHIRAgenda {
    private var ordered: [(key: UInt64, slot: Int32)] = []
    private var taken = 0
    private var heap: [(key: UInt64, slot: Int32)] = []
    private var lastKey: UInt64?

    var isEmpty: Bool { taken == ordered.count && heap.isEmpty }

    mutating func add(_ slot: Int32, key: UInt64) {
        if ordered.last.map({ $0.key <= key }) ?? heap.isEmpty {
            ordered.append((key, slot))
            return
        }
        heap.append((key, slot))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].key > heap[child].key else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    /// The first instance in document order not taken yet.
    mutating func next() -> (key: UInt64, slot: Int32)? {
        while true {
            let fromList = taken < ordered.count ? ordered[taken] : nil
            let fromHeap = heap.first
            let top: (key: UInt64, slot: Int32)
            if let fromList, fromHeap.map({ fromList.key <= $0.key }) ?? true {
                top = fromList
                taken += 1
            } else if let fromHeap {
                top = fromHeap
                popHeap()
            } else {
                return nil
            }
            if top.key == lastKey { continue }
            lastKey = top.key
            return top
        }
    }

    private mutating func popHeap() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let child = left + 1 < heap.count && heap[left + 1].key < heap[left].key ? left + 1 : left
            guard heap[child].key < heap[parent].key else { break }
            heap.swapAt(parent, child)
            parent = child
        }
    }

    /// The instances not taken yet.
    var slots: [Int32] { ordered[taken...].map(\.slot) + heap.map(\.slot) }
}
