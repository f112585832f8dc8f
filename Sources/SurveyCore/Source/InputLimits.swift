/// How large an input may be. Past a limit the harness stops with a located error that names the limit,
/// instead of running out of stack, memory or patience on a file that was generated wrong or merged badly.
/// The standard limits sit far above any real survey (the largest the bench loads has 100,000 questions).
public struct InputLimits: Sendable, Hashable {
    /// Bytes in one file: surveys, scenarios, properties, goldens, coverage files and payloads.
    public var fileSize = 64 << 20
    /// Levels of JSON nesting, which bounds condition trees and nested items: every format writes both as
    /// nested JSON, so a 10,000-deep `and` tree or 10,000 nested groups stop at the parser.
    public var nestingDepth = 256
    /// Questions (items, steps) in one survey.
    public var questions = 1_000_000
    /// Characters in one question id.
    public var idLength = 1_024
    /// Lines in one scenario file (a walk of a million steps still fits).
    public var scenarioLines = 1_000_000

    public init() {}

    public static let standard = InputLimits()

    /// `count` bytes in words: "64 MiB".
    public static func describe(bytes count: Int) -> String {
        count >= 1 << 20 && count % (1 << 20) == 0 ? "\(count >> 20) MiB" : "\(count) bytes"
    }
}
