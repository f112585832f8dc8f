import Foundation

/// Where a command writes: standard output and error, or buffers in tests. It also knows whether output
/// goes to a terminal, which decides colour and progress lines.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal.
    public let isTerminal: Bool

    public init(isTerminal: Bool, out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.writeOut = out
        self.writeError = error
    }

    public static func standard() -> Console {
        Console(
            isTerminal: isatty(STDOUT_FILENO) == 1,
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            error: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    public func out(_ text: String) {
        lock.withLock { writeOut(text) }
    }

    public func error(_ text: String) {
        lock.withLock { writeError(text) }
    }
}

/// A console that keeps what was written, for tests and for callers that embed the CLI.
public final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errorText = ""

    public init() {}

    public func console(isTerminal: Bool = false) -> Console {
        Console(
            isTerminal: isTerminal,
            out: { [self] text in lock.withLock { outText += text } },
            error: { [self] text in lock.withLock { errorText += text } })
    }

    public var standardOutput: String { lock.withLock { outText } }
    public var standardError: String { lock.withLock { errorText } }
}
