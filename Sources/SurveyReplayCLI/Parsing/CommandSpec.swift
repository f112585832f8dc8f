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
        /// What a shell offers for it; by default any file (`Completion.inferred(from:)`).
        public let completion: Completion

        public init(_ name: String, help: String, optional: Bool = false, repeated: Bool = false, completion: Completion? = nil) {
            self.name = name
            self.help = help
            self.isOptional = optional
            self.isRepeated = repeated
            self.completion = completion ?? Completion.inferred(from: name) ?? .file()
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
    /// What a shell offers for the value: the choices, files, folders or nothing (free text).
    public let completion: Completion

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, choices: nil, completion: .none)
    }

    /// An option with a value. Without `completion`, the choices are offered, or what the value's name says
    /// (`FILE` and `SURVEY` a file, `DIR` a folder), or nothing.
    public static func value(
        _ name: String, _ valueName: String, help: String, choices: [String]? = nil, completion: Completion? = nil
    ) -> OptionSpec {
        let completion = completion ?? choices.map(Completion.choices) ?? Completion.inferred(from: valueName) ?? .none
        return OptionSpec(name: name, valueName: valueName, help: help, choices: choices, completion: completion)
    }
}

/// What shell completion offers for an option's value or an operand.
public enum Completion: Sendable, Equatable {
    /// Free text (a number, a name): nothing to offer.
    case none
    /// Files, those with one of these extensions when any are given (folders always, to walk into).
    case file(extensions: [String] = [])
    case folder
    case choices([String])

    /// The completion a value's name implies: `FILE.scenario` a scenario file, `FILE` and `PATH` any file,
    /// `SURVEY` (and a survey's versions) a JSON file, `DIR` a folder; nil when the name says nothing.
    static func inferred(from valueName: String) -> Completion? {
        if let dot = valueName.firstIndex(of: ".") { return .file(extensions: [String(valueName[valueName.index(after: dot)...])]) }
        switch valueName {
        case "FILE", "PATH": return .file()
        case "SURVEY", "OLD", "NEW", "PAYLOAD": return .file(extensions: ["json"])
        case "DIR": return .folder
        default: return nil
        }
    }
}

/// A bad command line: exit code 2, with the usage of the command.
public struct UsageError: Error, Sendable {
    public let message: String
    public let command: String?
}
