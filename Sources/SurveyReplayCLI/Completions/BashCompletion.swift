/// The bash completion script, written from the command declarations: commands, each command's options
/// (with the values they take: choices, files, folders) and operands.
enum BashCompletion {
    static func script(_ commands: [CommandSpec], defaultCommand: String) -> String {
        let names = commands.map(\.name)
        let root = commands.first { $0.name == defaultCommand }.map(optionWords) ?? []
        var lines = [
            "# bash completion for \(Help.toolName), made by '\(Help.toolName) completion bash' from its command declarations.",
            "# Load it with: source <(\(Help.toolName) completion bash)",
            "",
            "_survey_replay_files() {",
            "    # Files with one of the extensions given (any file when none is), and folders to walk into.",
            "    local IFS=$'\\n' extension",
            "    if [[ $# -eq 0 ]]; then",
            "        COMPREPLY+=($(compgen -f -- \"$cur\"))",
            "        return",
            "    fi",
            "    for extension in \"$@\"; do COMPREPLY+=($(compgen -f -X \"!*.$extension\" -- \"$cur\")); done",
            "    COMPREPLY+=($(compgen -d -- \"$cur\"))",
            "}",
            "",
            "_survey_replay() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" command=\(defaultCommand) first=2 operand=0 i",
            "    COMPREPLY=()",
            "    case \"${COMP_WORDS[1]}\" in",
            "        \(names.joined(separator: "|"))) command=\"${COMP_WORDS[1]}\" ;;",
            "        help)",
            "            [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W \"\(names.joined(separator: " "))\" -- \"$cur\"))",
            "            return ;;",
            "        *)",
            "            first=1",
            "            if [[ $COMP_CWORD -eq 1 && $cur == -* ]]; then",
            "                COMPREPLY=($(compgen -W \"--version \(root.joined(separator: " "))\" -- \"$cur\"))",
            "                return",
            "            elif [[ $COMP_CWORD -eq 1 ]]; then",
            "                COMPREPLY=($(compgen -W \"\((names + ["help"]).joined(separator: " "))\" -- \"$cur\"))",
            "                return",
            "            fi ;;",
            "    esac",
            "    case \"$command\" in",
        ]
        for command in commands { lines += commandCase(command) }
        lines += [
            "    esac",
            "}",
            "",
            "complete -o filenames -F _survey_replay \(Help.toolName)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func optionWords(_ command: CommandSpec) -> [String] {
        command.options.map(\.name) + ["--help"]
    }

    private static func commandCase(_ command: CommandSpec) -> [String] {
        var lines = ["        \(command.name))"]
        let valued = command.options.filter { $0.valueName != nil }
        if !valued.isEmpty {
            lines.append("            case \"$prev\" in")
            for option in valued { lines.append("                \(option.name)) \(action(option.completion)); return ;;") }
            lines.append("            esac")
        }
        lines += [
            "            if [[ $cur == -* ]]; then",
            "                COMPREPLY=($(compgen -W \"\(optionWords(command).joined(separator: " "))\" -- \"$cur\"))",
            "                return",
            "            fi",
        ]
        guard !command.operands.isEmpty else { return lines + ["            ;;"] }
        // Which operand the word is: words before it that are neither options nor their values.
        lines.append("            for ((i = first; i < COMP_CWORD; i++)); do")
        lines.append("                case \"${COMP_WORDS[i]}\" in")
        if !valued.isEmpty { lines.append("                    \(valued.map(\.name).joined(separator: "|"))) ((i++)) ;;") }
        lines.append("                    -*) ;;")
        lines.append("                    *) ((operand++)) ;;")
        lines.append("                esac")
        lines.append("            done")
        lines.append("            case $operand in")
        for (index, operand) in command.operands.enumerated() {
            let pattern = index == command.operands.count - 1 ? "*" : "\(index)"
            lines.append("                \(pattern)) \(action(operand.completion)) ;;")
        }
        lines.append("            esac ;;")
        return lines
    }

    private static func action(_ completion: Completion) -> String {
        switch completion {
        case .none: ":"
        case .file(let extensions): (["_survey_replay_files"] + extensions).joined(separator: " ")
        case .folder: "COMPREPLY=($(compgen -d -- \"$cur\"))"
        case .choices(let values): "COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\"))"
        }
    }
}
