import SurveyCore

/// Everything an R4 response is written from, as plain values: the settings, and for each instance in
/// document order its item, where it hangs (its parent's position and, under a question, which answer),
/// whether it is enabled and withheld, and its answers. Two sessions with equal keys write the same response
/// (the tree gives the ids, the enablement and answers the rest). So the step checker of a form without SDC
/// expressions checks a submitted response once per key (`FHIRSurvey.submittedChecks`: android-fhir's second
/// evaluation at Submit reads only these), and the response SDC expressions read is built once per key
/// (`FHIRSurvey.expressionResponses`). A key of a cut response (some top-level items only,
/// `FHIRResponseSlice`) never equals a whole one's: a whole response also says where every instance is in it.
struct FHIRResponseKey: Hashable, Sendable {
    let settings: SessionSettings
    /// Whether the instances are some only (a cut response's).
    let isCut: Bool
    /// Where the instances are (`FHIRInstanceShape.words`): a whole response's is its instances' shape,
    /// shared by the sessions whose instances have not changed since (compared then without reading it).
    private(set) var shape: [UInt64] = []
    private var shapeDigest = FHIRInstanceShape.seed
    /// A word an instance: its answer count and flags (enabled, withheld).
    private(set) var states: [UInt64] = []
    /// The answers of every answered instance, in document order: each instance's list as the session holds
    /// it (one reference a list, not a copy of each value).
    private(set) var values: [[FHIR.Value]] = []
    /// A stable hash of the states and the values, kept as they are appended: hashing the key hashes this and
    /// the shape's alone (Swift's hashing of the values' JSON objects costs more than the check it saves);
    /// equality still compares everything.
    private var digest: UInt64 = 0x5E59

    /// A key to append instances to.
    init(settings: SessionSettings, instances: Int, isCut: Bool = false) {
        self.settings = settings
        self.isCut = isCut
        shape.reserveCapacity(2 * instances)
        states.reserveCapacity(instances)
        values.reserveCapacity(instances)
    }

    /// A whole response's key, of instances of this shape: their states are appended (`appendState`) in
    /// the shape's order.
    init(settings: SessionSettings, shape: FHIRInstanceShape) {
        self.settings = settings
        isCut = false
        self.shape = shape.words
        shapeDigest = shape.digest
        states.reserveCapacity(shape.slots.count)
        values.reserveCapacity(shape.slots.count)
    }

    /// Appends the next instance in document order.
    mutating func append(item: Int, parent: Int, answerIndex: Int?, answers: [FHIR.Value], enabled: Bool, withheld: Bool) {
        let words = FHIRInstanceShape.words(item: item, parent: parent, answerIndex: answerIndex)
        shape.append(words.0)
        shape.append(words.1)
        shapeDigest = FHIRInstanceShape.mix(shapeDigest, words)
        appendState(answers: answers, enabled: enabled, withheld: withheld)
    }

    /// Appends the state of the next instance of the shape the key was made with (inlined: a call an
    /// instance cost as much as the work).
    @inline(__always)
    mutating func appendState(answers: [FHIR.Value], enabled: Bool, withheld: Bool) {
        let word = UInt64(answers.count) << 8 | (enabled ? 1 : 0) | (withheld ? 2 : 0)
        states.append(word)
        digest = StableHash.mix(digest ^ word)
        guard !answers.isEmpty else { return }
        values.append(answers)
        for position in answers.indices {  // read in place
            digest = StableHash.mix(digest ^ answers[position].stableHash)  // the type is compared, not hashed
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.digest == rhs.digest && lhs.shapeDigest == rhs.shapeDigest && lhs.isCut == rhs.isCut && lhs.states == rhs.states
            && lhs.shape == rhs.shape && lhs.values == rhs.values && lhs.settings == rhs.settings
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(shapeDigest)
        hasher.combine(digest)
    }
}

/// The instances on the page in document order as a response key says where they are: two words an
/// instance, its item and its parent's position + 1, and the answer it hangs under + 1 (0: none). Worked out
/// once for a set of instances (`FHIRInstances.shape`, made anew when the blocks or what is on the page
/// change) and shared by the sessions and saved states that have them.
struct FHIRInstanceShape: Sendable {
    /// The instances, in document order.
    let slots: [Int32]
    let words: [UInt64]
    let digest: UInt64

    static let seed: UInt64 = 0x5A4E

    init(_ instances: FHIRInstances) {
        slots = instances.order.elements
        var words: [UInt64] = []
        words.reserveCapacity(2 * slots.count)
        var digest = Self.seed
        var position = [Int32](repeating: -1, count: instances.slotCount)
        for (index, slot) in slots.enumerated() {
            position[Int(slot)] = Int32(index)
            let parent = instances.parent(slot).map { Int(position[Int($0)]) } ?? -1
            let pair = Self.words(item: instances.item(slot), parent: parent, answerIndex: instances.answerIndex(slot))
            words.append(pair.0)
            words.append(pair.1)
            digest = Self.mix(digest, pair)
        }
        self.words = words
        self.digest = digest
    }

    static func words(item: Int, parent: Int, answerIndex: Int?) -> (UInt64, UInt64) {
        (UInt64(UInt32(item)) << 32 | UInt64(UInt32(parent + 1)), UInt64(UInt32(answerIndex.map { $0 + 1 } ?? 0)))
    }

    static func mix(_ digest: UInt64, _ words: (UInt64, UInt64)) -> UInt64 {
        StableHash.mix(StableHash.mix(digest ^ words.0) ^ words.1)
    }
}

extension FHIRSession {
    /// The key of the response this session submits, or nil when the form has SDC expressions (whose
    /// evaluation at Submit reads more than the key holds).
    var responseKey: FHIRResponseKey? {
        guard expressions == nil else { return nil }
        // The state's parts are read once, not through the session at every instance.
        let (slots, values) = (state.slots, state.values)
        let shape = state.instances.shape
        var key = FHIRResponseKey(settings: settings, shape: shape)
        for slot in shape.slots {
            let info = slots[Int(slot)]
            key.appendState(
                answers: info.isAnswered ? values[info.answer] : [], enabled: info.flags.contains(.enabled), withheld: info.flags.contains(.withheld))
        }
        return key
    }
}

extension FHIRResponseInput {
    /// The key of everything the response item of the top-level instance at `position` is written from
    /// (`FHIRStandardResponse.item(at:_:)`): for it and each instance under it, its item, where it hangs
    /// within them, whether it is enabled and the answers that count. A cut key: positions are counted from
    /// `position`, so the same instances key alike wherever the tree has them.
    func key(ofTopLevel position: Int, settings: SessionSettings) -> FHIRResponseKey {
        let end = tree.instances[position].end
        var key = FHIRResponseKey(settings: settings, instances: end - position, isCut: true)
        for index in position..<end {
            let instance = tree.instances[index]
            key.append(
                item: instance.item, parent: instance.parent.map { $0 - position } ?? -1, answerIndex: instance.answerIndex,
                answers: answers(at: index), enabled: enablement[index], withheld: false)
        }
        return key
    }
}
