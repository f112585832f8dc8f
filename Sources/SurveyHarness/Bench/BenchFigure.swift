import Foundation

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

/// Monotonic time and this process's memory, for benchmarks.
public enum ProcessMeter {
    public static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    public static func seconds(since start: UInt64) -> Double {
        Double(now() - start) / 1e9
    }

    /// Resident memory now and at its peak, in bytes (Linux `/proc/self/status`; nil elsewhere).
    public static func memory() -> (resident: Int, peak: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        func kilobytes(_ key: String) -> Int? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return nil }
            return line.split(separator: " ").compactMap { Int($0) }.first
        }
        guard let resident = kilobytes("VmRSS:"), let peak = kilobytes("VmHWM:") else { return nil }
        return (resident * 1024, peak * 1024)
    }
}
