/// A figure measured several times: its minimum, median and maximum.
public struct BenchFigure: Sendable {
    public let min: Double
    public let median: Double
    public let max: Double

    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        self.min = sorted.first ?? 0
        self.max = sorted.last ?? 0
        self.median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Runs `body` `runs` times; each run returns its figure.
    public static func of(runs: Int, _ body: () -> Double) -> BenchFigure {
        BenchFigure((0..<runs).map { _ in body() })
    }
}
