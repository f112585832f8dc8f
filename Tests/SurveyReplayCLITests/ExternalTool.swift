import Foundation
import Testing

/// A program some tests need that the Swift toolchain does not bring (`.ci/run` installs it). Missing
/// locally, the test is skipped with the command that installs it; missing under `CI`, it fails, because CI
/// must run every test. Self-contained so it can fold into a shared test-support helper for the same rule.
struct ExternalTool {
    let name: String
    /// Other names the program goes by.
    let aliases: [String]
    let install: String

    static let chromium = ExternalTool(name: "chromium", aliases: ["chromium-browser"], install: "apt-get install chromium")

    /// The program's path on PATH, if installed.
    var path: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for program in [name] + aliases {
            if let found = folders.map({ "\($0)/\(program)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        }
        return nil
    }

    /// The program's path; when it is missing, a failure under CI and otherwise a skipped test.
    func required(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        if let path { return path }
        let message = "\(name) is not installed; install it with: \(install) (.ci/run does)"
        if ProcessInfo.processInfo.environment["CI"] != nil { throw MissingTool(message: message + "; CI must run this test") }
        try Test.cancel(Comment(rawValue: "skipped: " + message), sourceLocation: sourceLocation)
    }

    struct MissingTool: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Runs the program and returns its exit status, standard output and standard error.
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try required())
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read standard error on its own thread, so neither pipe can fill and block the program.
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, out, errorData.text)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorCollector: @unchecked Sendable {
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
