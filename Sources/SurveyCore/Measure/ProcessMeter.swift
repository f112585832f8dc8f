import Foundation

/// Monotonic time, the measuring thread's CPU time and this process's memory, for benchmarks.
public enum ProcessMeter {
    /// Wall-clock time, in nanoseconds.
    public static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    public static func seconds(since start: UInt64) -> Double {
        Double(now() - start) / 1e9
    }

    /// The calling thread's CPU time, in nanoseconds: what a single-threaded workload costs, whatever else
    /// shares the machine.
    public static func threadCPUNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    public static func threadCPUSeconds(since start: UInt64) -> Double {
        Double(threadCPUNow() - start) / 1e9
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
