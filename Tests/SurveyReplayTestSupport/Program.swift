import Foundation

/// A program on `PATH` run to its end, for tests that check what survey-replay writes with the real tool
/// (genhtml, dot, the shells, Chromium). Declare the tool with `.requires(.tool(…))` so that a missing one is
/// skipped locally and fails under `CI`.
public enum Program {
    public struct Result: Sendable {
        public let status: Int32
        public let out: String
        public let error: String
    }

    public struct NotInstalled: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "\(name) is not installed" }
    }

    /// Runs `name` with `arguments` (in `folder`, when given) and returns its status, standard output and
    /// standard error. Standard error is read on a thread of its own, so neither pipe can fill and block it.
    public static func run(_ name: String, _ arguments: [String], in folder: String? = nil) throws -> Result {
        guard let path = Requirement.executable(named: name) else { throw NotInstalled(name: name) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let error = PipeReader(errors.fileHandleForReading)
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, out: out, error: error.text)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    var text: String {
        done.wait()
        done.signal()
        return String(decoding: data, as: UTF8.self)
    }
}
