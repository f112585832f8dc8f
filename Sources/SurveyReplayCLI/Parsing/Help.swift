import SurveyCore

/// `--help` text, generated from the command specs.
enum Help {
    static let toolName = "survey-replay"

    static func usageLine(_ command: CommandSpec) -> String {
        var parts = [toolName, command.name]
        if !command.options.isEmpty { parts.append("[options]") }
        parts += command.operands.map(\.usage)
        return parts.joined(separator: " ")
    }

    static func text(for command: CommandSpec) -> String {
        var lines = ["\(toolName) \(command.name): \(command.summary)", "", "Usage: \(usageLine(command))"]
        if !command.operands.isEmpty {
            lines += ["", "Arguments:"]
            lines += table(command.operands.map { ($0.usage, $0.help) })
        }
        lines += ["", "Options:"]
        let options = command.options.map { option -> (String, String) in
            let head = option.valueName.map { "\(option.name) \($0)" } ?? option.name
            let choices = option.choices.map { " (\($0.joined(separator: ", ")))" } ?? ""
            return (head, option.help + choices)
        }
        lines += table(options + [("-h, --help", "Show this help.")])
        if !command.discussion.isEmpty {
            lines += ["", command.discussion]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func overview(_ commands: [CommandSpec], defaultCommand: String) -> String {
        var lines = [
            "\(toolName): record/replay testing for survey definitions (SurveyNative and more).",
            "",
            "Usage: \(toolName) <command> [options] [arguments]",
            "       \(toolName) [options]    (runs '\(defaultCommand)' with its options)",
            "       \(toolName) --version",
            "",
            "Commands:",
        ]
        lines += table(commands.map { ($0.name, $0.summary) })
        lines += [
            "",
            "Run '\(toolName) <command> --help' (or '\(toolName) help <command>') for a command's options.",
            "Shell completion: source <(\(toolName) completion bash), or zsh or fish.",
            "Exit codes: 0 all held; 1 a test, expectation or check failed; 2 bad usage or unreadable/malformed input.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
        return rows.map { head, text in
            let padded = head.count + 2 > width ? head + "\n" + String(repeating: " ", count: width + 2) : head.padded(to: width)
            return "  " + padded + text
        }
    }
}
