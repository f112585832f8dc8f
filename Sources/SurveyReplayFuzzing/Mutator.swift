import SurveyCore
import SurveyHarness

/// Makes fuzz inputs from seeds, deterministically: the same generator state gives the same input. Byte
/// mutations (flips, inserted tokens that parsers treat specially, deletions, duplications, truncation,
/// splices of two seeds) and, for JSON targets, structural ones on a parsed seed (a member removed, a value
/// of another type, a string moved where ids are read, a subtree nested into itself far past any limit).
public struct Mutator {
    public let seeds: [[UInt8]]
    public let isJSON: Bool
    /// Inputs are cut to this size, so a run stays quick.
    public static let maximumSize = 1 << 20

    public init(seeds: [[UInt8]], isJSON: Bool) {
        self.seeds = seeds.isEmpty ? [[]] : seeds
        self.isJSON = isJSON
    }

    /// Input number `run` of a campaign with this seed: independent of every other run, so any one can be
    /// made again on its own.
    public func input(seed: UInt64, run: Int) -> [UInt8] {
        var random = SplitMix64(seed: SplitMix64.walkSeed(seed, walk: run))
        var bytes = seeds[random.next(below: seeds.count)]
        // JSON inputs: mostly valid JSON changed in structure (which reaches the decoders' checks and the
        // sessions), sometimes with a byte change on top, sometimes bytes only (which tests the scanner).
        let mode = random.next(below: 10)
        var byteMutations = 1 + random.next(below: 4)
        if isJSON, mode < 6 {
            for _ in 0..<(1 + random.next(below: 3)) {
                if let structured = structural(bytes, &random) { bytes = structured }
            }
            byteMutations = mode < 4 ? 0 : 1
        }
        for _ in 0..<byteMutations {
            bytes = mutateBytes(bytes, &random)
        }
        return bytes.count > Self.maximumSize ? Array(bytes.prefix(Self.maximumSize)) : bytes
    }

    // MARK: bytes

    /// Byte sequences parsers treat specially.
    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ":", ",", "\\", "\\u", "\\ud800", "1e999", "-0", "NaN", "-", "0.", "1e", "null", "true",
        "\n", "\r\n", "\t", "#", "  #", "survey ", "answer ", "expect ", "today 2026-02-30", "\u{FEFF}", "\"#\"",
        "{\"id\":\"", "\"show_if\":", "\"enableWhen\":[", "\"item\":[", "\"questions\":[", "\"steps\":[",
    ].map { Array($0.utf8) } + [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80], [0x00], [0xF4, 0x90, 0x80, 0x80]]

    func mutateBytes(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        let position = bytes.isEmpty ? 0 : random.next(below: bytes.count + 1)
        switch random.next(below: 8) {
        case 0 where !bytes.isEmpty:
            let index = min(position, bytes.count - 1)
            bytes[index] ^= UInt8(1 << random.next(below: 8))
        case 1 where !bytes.isEmpty:
            bytes[min(position, bytes.count - 1)] = UInt8(random.next(below: 256))
        case 2:
            bytes.insert(contentsOf: Self.tokens[random.next(below: Self.tokens.count)], at: position)
        case 3 where !bytes.isEmpty:
            let length = 1 + random.next(below: min(64, bytes.count - min(position, bytes.count - 1)))
            let start = min(position, bytes.count - 1)
            bytes.removeSubrange(start..<min(bytes.count, start + length))
        case 4 where !bytes.isEmpty:
            let start = min(position, bytes.count - 1)
            let chunk = bytes[start..<min(bytes.count, start + 1 + random.next(below: 256))]
            bytes.insert(contentsOf: chunk, at: random.next(below: bytes.count + 1))
        case 5:
            bytes = Array(bytes.prefix(position))
        case 6:
            let other = seeds[random.next(below: seeds.count)]
            bytes = Array(bytes.prefix(position)) + Array(other.suffix(other.isEmpty ? 0 : random.next(below: other.count + 1)))
        default:
            // A line duplicated or dropped: what a bad merge does to a file.
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            guard !lines.isEmpty else { break }
            let line = random.next(below: lines.count)
            if random.next(below: 2) == 0 { lines.insert(lines[line], at: line) } else { lines.remove(at: line) }
            bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        }
        return bytes
    }

    // MARK: JSON structure

    func structural(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8]? {
        guard input.count <= Self.maximumSize, let value = try? JSONParser.parse(SourceFile(path: "seed.json", bytes: input)).plain else {
            return nil
        }
        let strings = Self.strings(in: value)
        let mutated = mutate(value, &random, strings: strings, depth: 0)
        let text = random.next(below: 2) == 0 ? CanonicalJSON.compact(mutated) : CanonicalJSON.pretty(mutated)
        return Array(text.utf8)
    }

    /// Walks down to one node at random and changes it.
    private func mutate(_ value: JSONValue, _ random: inout SplitMix64, strings: [String], depth: Int) -> JSONValue {
        let descend = random.next(below: 4) != 0
        switch value {
        case .object(var members) where descend && !members.isEmpty:
            let keys = members.keys.sorted()
            let key = keys[random.next(below: keys.count)]
            if random.next(below: 6) == 0 {
                members[key] = nil
            } else {
                members[key] = mutate(members[key]!, &random, strings: strings, depth: depth + 1)
            }
            return .object(members)
        case .array(var elements) where descend && !elements.isEmpty:
            let index = random.next(below: elements.count)
            switch random.next(below: 6) {
            case 0: elements.remove(at: index)
            case 1: elements.insert(elements[index], at: index)
            default: elements[index] = mutate(elements[index], &random, strings: strings, depth: depth + 1)
            }
            return .array(elements)
        default:
            return replacement(for: value, &random, strings: strings)
        }
    }

    private func replacement(for value: JSONValue, _ random: inout SplitMix64, strings: [String]) -> JSONValue {
        switch random.next(below: 9) {
        case 0: return .null
        case 1: return .bool(random.next(below: 2) == 0)
        case 2: return .number([0, -1, 1e300, -1e-300, 2_147_483_648, 0.5, 9_007_199_254_740_992][random.next(below: 7)])
        case 3: return .string(strings.isEmpty ? "" : strings[random.next(below: strings.count)])
        case 4: return .string(["", " ", "current_year", "9999-99-99", String(repeating: "x", count: 5_000)][random.next(below: 5)])
        case 5: return .array([])
        case 6: return .object([:])
        case 7:
            // The same subtree nested into itself, far deeper than the parser accepts.
            var nested = value
            for _ in 0..<(1 + random.next(below: 300)) { nested = random.next(below: 2) == 0 ? .array([nested]) : .object(["item": nested]) }
            return nested
        default:
            // Copies of the value, fewer of a large one, so that an input stays near `maximumSize`.
            let size = CanonicalJSON.compact(value).utf8.count
            return .array(Array(repeating: value, count: 1 + random.next(below: max(1, min(50, Self.maximumSize / 4 / max(1, size))))))
        }
    }

    /// Every string in a value (ids, keys and literals), in a fixed order, for moving them around.
    static func strings(in value: JSONValue) -> [String] {
        var found: [String] = []
        var seen: Set<String> = []
        func visit(_ value: JSONValue) {
            switch value {
            case .string(let text): if seen.insert(text).inserted { found.append(text) }
            case .array(let elements): elements.forEach(visit)
            case .object(let members):
                for key in members.keys.sorted() {
                    if seen.insert(key).inserted { found.append(key) }
                    visit(members[key]!)
                }
            default: break
            }
        }
        visit(value)
        return found
    }
}
