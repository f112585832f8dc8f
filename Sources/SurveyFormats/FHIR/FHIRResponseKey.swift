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
    /// Two words an instance: item and parent position + 1; answer index + 1, answer count and flags.
    private(set) var shape: [UInt64] = []
    /// The answers of every answered instance, in document order.
    private(set) var values: [FHIR.Value] = []
    /// A stable hash of the shape and the values, kept as they are appended: hashing the key hashes this
    /// alone (Swift's hashing of the values' JSON objects costs more than the check it saves); equality
    /// still compares everything.
    private var digest: UInt64 = 0x5E59

    init(settings: SessionSettings, instances: Int, isCut: Bool = false) {
        self.settings = settings
        self.isCut = isCut
        shape.reserveCapacity(2 * instances)
        values.reserveCapacity(instances)
    }

    /// Appends the next instance in document order; `hashes`, where known, holds `StableHash.of` each answer's
    /// JSON (worked out here otherwise).
    mutating func append(item: Int, parent: Int, answerIndex: Int?, answers: [FHIR.Value], hashes: [UInt64]? = nil, enabled: Bool, withheld: Bool) {
        let flags: UInt64 = (enabled ? 1 : 0) | (withheld ? 2 : 0)
        let words = (
            UInt64(UInt32(item)) << 32 | UInt64(UInt32(parent + 1)),
            UInt64(UInt32(answerIndex.map { $0 + 1 } ?? 0)) << 32 | UInt64(answers.count) << 8 | flags
        )
        shape.append(words.0)
        shape.append(words.1)
        digest = StableHash.mix(StableHash.mix(digest ^ words.0) ^ words.1)
        guard !answers.isEmpty else { return }
        for answer in answers { values.append(answer) }  // one or two: `append(contentsOf:)` costs more than copying them
        for hash in hashes ?? answers.map({ StableHash.of($0.json) }) { digest = StableHash.mix(digest ^ hash) }  // the type is compared, not hashed
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.digest == rhs.digest && lhs.isCut == rhs.isCut && lhs.shape == rhs.shape && lhs.values == rhs.values && lhs.settings == rhs.settings
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }
}

extension FHIRSession {
    /// The key of the response this session submits, or nil when the form has SDC expressions (whose
    /// evaluation at Submit reads more than the key holds).
    var responseKey: FHIRResponseKey? {
        guard expressions == nil else { return nil }
        // The state's parts are read once, not through the session at every instance.
        let (instances, slots, values) = (state.instances, state.slots, state.values)
        let order = instances.order.elements
        var key = FHIRResponseKey(settings: settings, instances: order.count)
        var position = [Int32](repeating: -1, count: instances.slotCount)
        var next: Int32 = 0
        for slot in order {
            position[Int(slot)] = next
            next += 1
            let info = slots[Int(slot)]
            key.append(
                item: instances.item(slot), parent: instances.parent(slot).map { Int(position[Int($0)]) } ?? -1,
                answerIndex: instances.answerIndex(slot), answers: info.isAnswered ? values[info.answer] : [],
                hashes: info.isAnswered ? values.hashes(info.answer) : [],
                enabled: info.flags.contains(.enabled), withheld: info.flags.contains(.withheld))
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
