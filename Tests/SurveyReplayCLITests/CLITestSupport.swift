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
