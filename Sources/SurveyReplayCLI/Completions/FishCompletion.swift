import Foundation

/// The fish completions, written from the command declarations.
enum FishCompletion {
    static func script(_ commands: [CommandSpec], defaultCommand: String) -> String {
        let tool = Help.toolName
        let names = commands.map(\.name)
        var lines = [
            "# fish completion for \(tool), made by '\(tool) completion fish' from its command declarations.",
            "# Install it as ~/.config/fish/completions/\(tool).fish, or load it with: \(tool) completion fish | source",
            "",
            "function __survey_replay_command --description 'The command being completed: the one named, else \(defaultCommand)'",
            "    set -l words (commandline -opc)",
            "    if set -q words[2]; and contains -- $words[2] \((names + ["help"]).joined(separator: " "))",
            "        echo $words[2]",
            "    else",
            "        echo \(defaultCommand)",
            "    end",
            "end",
            "",
            "function __survey_replay_at_start --description 'Whether no word follows the program name yet'",
            "    test (count (commandline -opc)) -eq 1",
            "end",
            "",
            "complete -c \(tool) -f",
        ]
        for command in commands {
            lines.append("complete -c \(tool) -n __survey_replay_at_start -a \(command.name) -d \(quote(command.summary))")
        }
        lines.append("complete -c \(tool) -n __survey_replay_at_start -a help -d \(quote("Show the options of a command."))")
        lines.append("complete -c \(tool) -n __survey_replay_at_start -l version -d \(quote("Print the version."))")
        lines.append("complete -c \(tool) -n 'test (__survey_replay_command) = help' -a \(quote(names.joined(separator: " ")))")
        for command in commands {
            lines.append("")
            let named = "'test (__survey_replay_command) = \(command.name)'"
            for option in command.options {
                let flag = option.name.hasPrefix("--") ? "-l \(option.name.dropFirst(2))" : "-s \(option.name.dropFirst())"
                let value = option.valueName == nil ? "" : " " + valueArguments(option.completion).trimmingCharacters(in: .whitespaces)
                lines.append("complete -c \(tool) -n \(named) \(flag)\(value) -d \(quote(option.help))")
            }
            lines.append("complete -c \(tool) -n \(named) -s h -l help -d \(quote("Show this help."))")
            // Operands once the command is named (at the start, the command names are offered instead).
            let kinds = command.operands.map(\.completion)
            if let kind = kinds.first, kinds.allSatisfy({ $0 == kind }), kind != .none {
                lines.append("complete -c \(tool) -n 'not __survey_replay_at_start; and test (__survey_replay_command) = \(command.name)' \(operandArguments(kind))")
            } else {
                for kind in kinds where kind != .none {
                    lines.append("complete -c \(tool) -n 'not __survey_replay_at_start; and test (__survey_replay_command) = \(command.name)' \(operandArguments(kind))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An option's value: required (`-r`), and only the candidates offered unless any file is (`-x` is
    /// `-r -f`).
    private static func valueArguments(_ completion: Completion) -> String {
        (completion == .file(extensions: []) ? "-r " : "-x ") + operandArguments(completion)
    }

    /// What is offered: files (`-F`), files with these extensions first, folders, the choices, or nothing.
    private static func operandArguments(_ completion: Completion) -> String {
        switch completion {
        case .none: ""
        case .file(let extensions) where extensions.isEmpty: "-F"
        case .file(let extensions): "-a \(quote(suffixes(extensions)))"
        case .folder: "-a '(__fish_complete_directories)'"
        case .choices(let values): "-a \(quote(values.joined(separator: " ")))"
        }
    }

    /// Files with these extensions first (fish's `__fish_complete_suffix` takes one at a time).
    private static func suffixes(_ extensions: [String]) -> String {
        "(" + extensions.map { "__fish_complete_suffix .\($0)" }.joined(separator: "; ") + ")"
    }

    /// A single-quoted fish word.
    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
