/// A subcommand described as data: its options and operands, from which the parser and `--help` are both
/// derived, so the help always matches what is accepted.
public struct CommandSpec: Sendable {
    public let name: String
    public let summary: String
    /// Operands, e.g. `FILE.scenario` or `[PATH...]`.
    public let operands: [Operand]
    public let options: [OptionSpec]
    /// Paragraphs after the option list: what the command does, exit codes, examples.
    public let discussion: String
    public let run: @Sendable (Invocation) throws -> Int32

    public init(
        name: String, summary: String, operands: [Operand] = [], options: [OptionSpec] = [], discussion: String = "",
        run: @escaping @Sendable (Invocation) throws -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.operands = operands
        self.options = options
        self.discussion = discussion
        self.run = run
    }

    public struct Operand: Sendable {
        public let name: String
        public let help: String
        public let isOptional: Bool
        public let isRepeated: Bool

        public init(_ name: String, help: String, optional: Bool = false, repeated: Bool = false) {
            self.name = name
            self.help = help
            self.isOptional = optional
            self.isRepeated = repeated
        }

        var usage: String {
            let base = isRepeated ? "\(name)..." : name
            return isOptional ? "[\(base)]" : base
        }
    }
}

public struct OptionSpec: Sendable {
    public let name: String
    /// Name of the value (`FILE`, `MODE`); nil for a flag.
    public let valueName: String?
    public let help: String
    /// Allowed values, checked by the parser and listed in help.
    public let choices: [String]?

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, choices: nil)
    }

    public static func value(_ name: String, _ valueName: String, help: String, choices: [String]? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, choices: choices)
    }
}

/// A bad command line: exit code 2, with the usage of the command.
public struct UsageError: Error, Sendable {
    public let message: String
    public let command: String?
}
