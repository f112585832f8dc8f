import Foundation
import SurveyReplayCLI

/// A folder of files for one test, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("survey-replay-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file (creating folders) and returns its full path.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }
}

struct CLIResult {
    let status: Int32
    let out: String
    let error: String
}

/// Runs the CLI in-process with captured output.
func runCLI(_ arguments: [String], environment: [String: String] = [:], isTerminal: Bool = false) -> CLIResult {
    let captured = CapturedConsole()
    let status = SurveyReplayCLI.run(arguments, environment: environment, console: captured.console(isTerminal: isTerminal))
    return CLIResult(status: status, out: captured.standardOutput, error: captured.standardError)
}

enum CLIFixtures {
    static let survey = """
        {
          "questions": [
            {"id": "smoker", "question": "Do you smoke?", "question_type": "single_select", "options": ["Yes", "No"]},
            {"id": "per_day", "question": "How many a day?", "question_type": "single_text_field",
             "show_if": {"id": "smoker", "operation": "equals", "value": "Yes"}},
            {"id": "done", "question": "Finished?", "question_type": "single_select", "options": ["Yes"]}
          ],
          "submit": {"button_title": "Send", "url": "https://example.org/r"}
        }
        """
}

/// Runs the built `survey-replay` beside the test bundle, as a user's shell would.
func runBinary(
    _ arguments: [String], input: String? = nil, folder: URL? = nil, environment: [String: String]? = nil
) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("survey-replay")
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Read both pipes before waiting, so a full pipe cannot block the process.
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let error = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus, out: out, error: error)
}
