import SurveyCore
import Testing

/// Walks count distinct paths and cache the actions they have read back by these hashes: equal actions
/// must hash alike, and the actions of a walk apart.
@Suite struct StableHashTests {
    @Test("equal values hash alike: an object's members in any order, 0 and -0")
    func equalValuesHashAlike() {
        let one: JSONValue = .object(["a": 1, "b": ["x", true], "c": .null])
        let other: JSONValue = .object(["c": .null, "b": ["x", true], "a": 1])
        #expect(one == other)
        #expect(StableHash.of(one) == StableHash.of(other))
        #expect(StableHash.of(JSONValue.number(0)) == StableHash.of(JSONValue.number(-0.0)))
    }

    @Test("the same answer hashes alike from its value's hash as from the whole action, and is the same in every run")
    func answersFromTheirValueHash() {
        let value: JSONValue = ["Pop", "Rock"]
        #expect(StableHash.answer("music", valueHash: StableHash.of(value)) == StableHash.of(Action.answer(question: "music", value: value)))
        // Pinned: a stable hash must not depend on the process (Swift's own hashing is seeded per process).
        #expect(StableHash.of(Action.answer(question: "music", value: value)) == StableHash.of(Action.answer(question: "music", value: ["Pop", "Rock"])))
        #expect(StableHash.of(Action.submit) == StableHash.mix(6))
    }

    @Test("a text hashes as FNV-1a over its UTF-8 bytes and a separator, whether read in place or byte by byte")
    func textIsFNV() {
        func reference(_ parts: [String]) -> UInt64 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for part in parts {
                for byte in Array(part.utf8) + [0xFF] {
                    hash ^= UInt64(byte)
                    hash &*= 0x0000_0100_0000_01B3
                }
            }
            return hash
        }
        for text in ["", "music", "trip#2/stop", "Grüße, 東京", String(repeating: "long id ", count: 40)] {
            #expect(StableHash.of(text) == reference([text]), "\(text)")
            #expect(StableHash.of([text, text]) == reference([text, text]), "\(text)")
        }
        // Pinned: the same on every machine and in every run.
        #expect(StableHash.of("music") == reference(["music"]) && reference(["music"]) == 0xAF2F_A80E_2B72_90B1)
    }

    @Test("actions that differ in kind, question or value hash apart")
    func differentActionsHashApart() {
        let actions: [Action] = [
            .answer(question: "a", value: "1"), .answer(question: "a", value: 1), .answer(question: "b", value: "1"), .answer(question: "a", value: ["1"]),
            .answer(question: "a", value: .object(["1": .null])), .answer(question: "a", value: .null), .answer(question: "a", value: false),
            .clear(question: "a"), .next(question: nil), .next(question: "a"), .back, .goto(question: "a"), .submit,
            .hostCondition(key: "a", outcome: true), .hostCondition(key: "a", outcome: false), .add(group: "a"), .remove(instance: "a#1"),
            .skip(question: nil), .skip(question: "a"), .app(.launch), .app(.foreground), .app(.wait(seconds: 60)), .app(.wait(seconds: 61)),
            .app(.consent(.accept)), .app(.consent(.never)), .app(.quit), .app(.resume),
        ]
        #expect(Set(actions.map(StableHash.of)).count == actions.count)
    }
}
