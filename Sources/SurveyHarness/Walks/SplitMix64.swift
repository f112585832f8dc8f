/// Our own seeded generator (SplitMix64, Steele, Lea and Flood 2014): the same sequence on every platform
/// and Swift version. Bounded values come from our own arithmetic, never from the standard library's
/// `random(in:using:)`, whose mapping from a generator's output is not guaranteed to stay the same.
public struct SplitMix64: Sendable, Equatable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-and-reject method: no modulo bias).
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "a bound must be positive")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// The seed of walk `index` of a run seeded with `seed`: walks are independent, so any subset of them
    /// (a shard, a replay) runs exactly as in the whole run.
    public static func walkSeed(_ seed: UInt64, walk index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }
}

/// The choices of a walk: drawn from a generator and recorded, or read back from a recording. A walk is
/// a list of steps, each a short list of choice indices, so shrinking can delete steps and lower choices
/// and every edited recording still replays (an index too large for its bound wraps around).
public struct ChoiceStream {
    private var generator: SplitMix64?
    private let recorded: [[Int]]
    private var stepIndex = -1
    private var drawIndex = 0
    /// Every choice made, in order, and where each step's choices start.
    private var draws: [Int] = []
    private var stepStarts: [Int] = []

    public init(generator: SplitMix64) {
        self.generator = generator
        self.recorded = []
        // A walk of a hundred steps makes a few hundred choices: one allocation each, not one per doubling.
        draws.reserveCapacity(256)
        stepStarts.reserveCapacity(128)
    }

    /// Replays a recording; then, with a generator, goes on drawing from it (a walk that starts the way a
    /// known one did and then explores), and without one, ends.
    public init(recorded: [[Int]], continuingWith generator: SplitMix64? = nil) {
        self.generator = generator
        self.recorded = recorded
    }

    /// The choices made, one list a step.
    public var steps: [[Int]] { recording.steps }

    /// The choices made, kept flat (split into steps only when needed).
    public var recording: ChoiceRecording { ChoiceRecording(draws: draws, stepStarts: stepStarts) }

    /// Starts the next step; false when a recording has no more steps.
    public mutating func beginStep() -> Bool {
        stepIndex += 1
        drawIndex = 0
        if generator == nil, stepIndex >= recorded.count { return false }
        stepStarts.append(draws.count)
        return true
    }

    /// A choice in `0..<bound`.
    public mutating func draw(_ bound: Int) -> Int {
        let choice: Int
        if stepIndex < recorded.count {
            let step = recorded[stepIndex]
            choice = drawIndex < step.count ? step[drawIndex] % bound : 0
        } else {
            choice = generator!.next(below: bound)
        }
        drawIndex += 1
        draws.append(choice)
        return choice
    }
}

/// A walk's choices as one flat list and where each step's choices start.
public struct ChoiceRecording: Sendable {
    let draws: [Int]
    let stepStarts: [Int]

    public init(draws: [Int] = [], stepStarts: [Int] = []) {
        self.draws = draws
        self.stepStarts = stepStarts
    }

    /// The choices, one list a step.
    public var steps: [[Int]] {
        stepStarts.indices.map { index in
            Array(draws[stepStarts[index]..<(index + 1 < stepStarts.count ? stepStarts[index + 1] : draws.count)])
        }
    }
}
