import SurveyCore
import SurveyHarness

/// Everything a command runs with: its parsed arguments, the environment and the console.
public struct Invocation: Sendable {
    public let arguments: ParsedArguments
    public let environment: [String: String]
    public let console: Console

    public init(arguments: ParsedArguments, environment: [String: String], console: Console) {
        self.arguments = arguments
        self.environment = environment
        self.console = console
    }

    /// Whether colour may be used: only on a terminal, never with `NO_COLOR` set.
    public var usesColor: Bool {
        console.isTerminal && environment["NO_COLOR"] == nil
    }
}

/// Exit codes of every command (DESIGN.md §8).
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let badInput: Int32 = 2
}

extension Invocation {
    /// Writes an output file a command was given: `-` is standard output; any other path is written as
    /// `AtomicFile` writes (regular files replaced in one step, devices and pipes written in place).
    /// Where a command's report for people goes: standard output, unless one of its file outputs is `-`;
    /// then that output is standard output, and the report goes to standard error so it stays whole.
    public func reportWriter(besides outputs: [String?]) -> @Sendable (String) -> Void {
        let console = self.console
        let toError = outputs.contains { $0 == "-" }
        return { text in toError ? console.error(text) : console.out(text) }
    }

    public func write(_ text: String, toFile path: String) throws(InputError) {
        if path == "-" {
            console.out(text)
        } else {
            try AtomicFile.write(text, to: path)
        }
    }
}
