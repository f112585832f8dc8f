import SurveyCore

/// Shrinks a failing walk to a minimal one that fails the same way (Hypothesis's idea: shrink the choices,
/// not the values, so every candidate is a valid walk). First on the recorded choices (cut the walk after
/// the step that failed, delete runs of steps, lower choices), then on the actions themselves, until no
/// single action can be removed without losing the finding.
public struct Shrinker {
    /// Whether a recording still fails the same way.
    let failsWithChoices: ([[Int]]) -> Bool
    /// Whether a list of actions still fails the same way.
    let failsWithActions: ([Action]) -> Bool
    /// The actions a recording replays to.
    let actionsOf: ([[Int]]) -> [Action]
    /// At most this many replays.
    var budget = 4_000
    /// What each recording tried so far gave: passes after an improvement try many of the same candidates
    /// again, and a walk replays the same way each time (a tried one still counts against the budget).
    var tried: [[[Int]]: Bool] = [:]

    public mutating func shrink(_ choices: [[Int]], failedAt step: Int) -> (choices: [[Int]], actions: [Action]) {
        var best = Array(choices.prefix(step + 1))
        if !attempt(best) { best = choices }
        var improved = true
        while improved, budget > 0 {
            improved = false
            for size in [8, 4, 2, 1] {
                var start = 0
                while start + size <= best.count, budget > 0 {
                    var candidate = best
                    candidate.removeSubrange(start..<(start + size))
                    if attempt(candidate) {
                        best = candidate
                        improved = true
                    } else {
                        start += 1
                    }
                }
            }
            for stepIndex in best.indices {
                for drawIndex in best[stepIndex].indices where best[stepIndex][drawIndex] > 0 {
                    let value = best[stepIndex][drawIndex]
                    for lower in Set([0, value / 2, value - 1]).sorted() where lower < value {
                        var candidate = best
                        candidate[stepIndex][drawIndex] = lower
                        if attempt(candidate) {
                            best = candidate
                            improved = true
                            break
                        }
                    }
                }
            }
        }
        var actions = actionsOf(best)
        var removed = true
        while removed, budget > 0 {
            removed = false
            for index in actions.indices.reversed() where budget > 0 {
                var candidate = actions
                candidate.remove(at: index)
                budget -= 1
                if failsWithActions(candidate) {
                    actions = candidate
                    removed = true
                }
            }
        }
        return (best, actions)
    }

    private mutating func attempt(_ candidate: [[Int]]) -> Bool {
        budget -= 1
        if let known = tried[candidate] { return known }
        let fails = failsWithChoices(candidate)
        tried[candidate] = fails
        return fails
    }
}

/// A compact token that reproduces one walk exactly: the seed, the walk's index, the step limit and the
/// clock, as base64url varints behind a version prefix (`sr1-…`).
public struct ReplayToken: Equatable, Sendable {
    public var seed: UInt64
    public var walk: Int
    public var maxSteps: Int
    public var today: CalendarDate

    public init(seed: UInt64, walk: Int, maxSteps: Int, today: CalendarDate) {
        self.seed = seed
        self.walk = walk
        self.maxSteps = maxSteps
        self.today = today
    }

    private static let prefix = "sr1-"
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    public var text: String {
        var bytes: [UInt8] = []
        for value in [seed, UInt64(walk), UInt64(maxSteps), UInt64(bitPattern: Int64(today.dayNumber))] {
            var rest = value
            repeat {
                let low = UInt8(rest & 0x7F)
                rest >>= 7
                bytes.append(rest == 0 ? low : low | 0x80)
            } while rest != 0
        }
        var output = Self.prefix
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(Self.alphabet[Int((buffer >> UInt32(bits)) & 0x3F)])
            }
        }
        if bits > 0 { output.append(Self.alphabet[Int((buffer << UInt32(6 - bits)) & 0x3F)]) }
        return output
    }

    public init?(text: String) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.dropFirst(Self.prefix.count) {
            guard let value = Self.alphabet.firstIndex(of: character) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        var values: [UInt64] = []
        var current: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            guard shift < 64 else { return nil }
            current |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                values.append(current)
                current = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        guard values.count == 4, values[1] < 1 << 40, values[2] < 1 << 40 else { return nil }
        self.init(
            seed: values[0], walk: Int(values[1]), maxSteps: Int(values[2]),
            today: CalendarDate(dayNumber: Int(Int64(bitPattern: values[3]))))
    }
}
