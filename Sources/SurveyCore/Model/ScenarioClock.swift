/// The time a session is at: the start of the scenario's `today` (00:00 UTC) plus the seconds its `wait`
/// steps added. Formats that stamp results or server rows take their timestamps from it, never from the
/// machine's clock, so that a replay gives the same bytes on every run.
public struct ScenarioClock: Sendable, Hashable {
    public let today: CalendarDate
    /// Seconds since 00:00 UTC of `today`.
    public private(set) var elapsed: Int

    public init(today: CalendarDate, elapsed: Int = 0) {
        self.today = today
        self.elapsed = elapsed
    }

    public mutating func advance(seconds: Int) {
        elapsed += max(0, seconds)
    }

    /// `2026-01-01T00:00:00.000Z`, or with `offset` the zone written as `+00:00` (as Foundation's ISO 8601
    /// formatters with fractional seconds write them).
    public func timestamp(zulu: Bool = true) -> String {
        let days = elapsed / 86_400
        let rest = elapsed % 86_400
        let date = today.adding(days: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)).000"
        return "\(date)T\(time)\(zulu ? "Z" : "+00:00")"
    }
}
