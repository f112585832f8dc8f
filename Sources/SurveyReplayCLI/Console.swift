import Foundation

/// Where a command writes: standard output and error, or buffers in tests. It also knows whether output
/// goes to a terminal, which decides colour and progress lines.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal.
    public let isTerminal: Bool
    /// The regular file standard output is redirected to (`> file`), when it is one: a scenario written
    /// there names its survey relative to that file's folder.
    public let outputFile: String?

    public init(
        isTerminal: Bool, outputFile: String? = nil, out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void
    ) {
        self.isTerminal = isTerminal
        self.outputFile = outputFile
        self.writeOut = out
        self.writeError = error
    }

    public static func standard() -> Console {
        Console(
            isTerminal: isatty(STDOUT_FILENO) == 1, outputFile: redirectedFile(STDOUT_FILENO),
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            error: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// The path of the regular file a descriptor writes to, or nil (a terminal, a pipe, unknown).
    static func redirectedFile(_ descriptor: Int32) -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasPrefix("/") && !path.hasSuffix(" (deleted)") ? path : nil
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

    public func console(isTerminal: Bool = false, outputFile: String? = nil) -> Console {
        Console(
            isTerminal: isTerminal, outputFile: outputFile,
            out: { [self] text in lock.withLock { outText += text } },
            error: { [self] text in lock.withLock { errorText += text } })
    }

    public var standardOutput: String { lock.withLock { outText } }
    public var standardError: String { lock.withLock { errorText } }
}
