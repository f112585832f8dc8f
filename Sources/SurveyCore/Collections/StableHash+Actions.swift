/// Stable hashes of actions and values, taken from their structure rather than from the text they print as:
/// walks count distinct paths and cache what they have checked by these, at every step. Two actions that are
/// equal hash alike (an object's keys in any order, 0 and -0); two that differ print differently in a
/// scenario, so a hash stands for the line as well as for the action.
extension StableHash {
    public static func of(_ value: JSONValue) -> UInt64 {
        switch value {
        case .null: return mix(0x4E55_4C4C)
        case .bool(let flag): return mix(flag ? 0xB001_0001 : 0xB001_0000)
        // -0 equals 0: both hash as 0.
        case .number(let number): return mix(0x4E55_4D00 ^ (number == 0 ? 0 : number.bitPattern))
        case .string(let text): return mix(of(text: text) ^ 0x5354_5200)
        case .array(let elements):
            var hash = mix(0xA77A_0000 ^ UInt64(elements.count))
            for element in elements { hash = mix(hash ^ of(element)) }
            return hash
        case .object(let members):
            // Members in any order: each one's hash, added up.
            var sum = mix(0x0B1E_C700 ^ UInt64(members.count))
            for (key, member) in members { sum &+= mix(of(text: key) ^ of(member)) }
            return mix(sum)
        }
    }

    public static func of(_ action: Action) -> UInt64 {
        switch action {
        case .answer(let question, let value): return answer(question, valueHash: of(value))
        case .clear(let question): return mix(of(text: question) ^ 2)
        case .next(let question): return mix((question.map { of(text: $0) } ?? 0) ^ 3)
        case .back: return mix(4)
        case .goto(let question): return mix(of(text: question) ^ 5)
        case .submit: return mix(6)
        case .hostCondition(let key, let outcome): return mix(of(text: key) ^ (outcome ? 7 : 8))
        case .add(let group): return mix(of(text: group) ^ 9)
        case .remove(let instance): return mix(of(text: instance) ^ 10)
        case .skip(let question): return mix((question.map { of(text: $0) } ?? 0) ^ 11)
        case .app(let event): return mix(of(event) ^ 12)
        }
    }

    /// An answer's hash from its value's (`of(value)`): for walks, which keep their candidate values' hashes.
    public static func answer(_ question: String, valueHash: UInt64) -> UInt64 {
        mix(mix(of(text: question) ^ 1) ^ valueHash)
    }

    static func of(_ event: AppEvent) -> UInt64 {
        switch event {
        case .launch: 1
        case .foreground: 2
        case .wait(let seconds): mix(UInt64(bitPattern: Int64(seconds)) ^ 3)
        case .consent(let choice): of(text: choice.rawValue) ^ 4
        case .quit: 5
        case .resume: 6
        }
    }

    /// One text, as `of([text])` hashes it: `of(_:)` under a label a string literal cannot take for a JSON
    /// value or an action.
    static func of(text: String) -> UInt64 {
        of(text)
    }
}
