/// The zsh completion function, written from the command declarations.
enum ZshCompletion {
    static func script(_ commands: [CommandSpec], defaultCommand: String) -> String {
        var lines = [
            "#compdef \(Help.toolName)",
            "# zsh completion for \(Help.toolName), made by '\(Help.toolName) completion zsh' from its command declarations.",
            "# Install it as _\(Help.toolName) in a folder of $fpath, or load it with: source <(\(Help.toolName) completion zsh)",
            "",
            "_\(Help.toolName)() {",
            "    local -a commands root",
            "    commands=(",
        ]
        lines += commands.map { "        \(quote($0.name + ":" + escape($0.summary)))" }
        lines += [
            "        \(quote("help:Show the options of a command."))",
            "    )",
            "    if (( CURRENT == 2 )) && [[ ${words[2]} != -* ]]; then",
            "        _describe -t commands '\(Help.toolName) command' commands",
            "        return",
            "    fi",
            "    local command=\(defaultCommand)",
            "    if (( ${commands[(I)${words[2]}:*]} )); then",
            "        command=${words[2]}",
            "        shift words",
            "        (( CURRENT-- ))",
            "    else",
            "        root=(\(quote("(- *)--version[Print the version.]")))",
            "    fi",
            "    case $command in",
        ]
        for command in commands {
            lines.append("        (\(command.name))")
            var specs = ["$root"]
            specs += command.options.map(optionSpec)
            specs.append("'(- *)'{-h,--help}'[Show this help.]'")
            specs += command.operands.map(operandSpec)
            lines.append("            _arguments -S \\")
            lines += specs.enumerated().map { index, spec in "                \(spec)\(index == specs.count - 1 ? "" : " \\")" }
            lines.append("            ;;")
        }
        lines += [
            "        (help)",
            "            _describe -t commands '\(Help.toolName) command' commands",
            "            ;;",
            "    esac",
            "}",
            "",
            "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then",
            "    _\(Help.toolName) \"$@\"",
            "else",
            "    compdef _\(Help.toolName) \(Help.toolName)",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func optionSpec(_ option: OptionSpec) -> String {
        let head = "\(option.name)[\(escape(option.help))]"
        guard let valueName = option.valueName else { return quote(head) }
        return quote("\(head):\(valueName):\(action(option.completion))")
    }

    private static func operandSpec(_ operand: CommandSpec.Operand) -> String {
        let prefix = operand.isRepeated ? "*:" : operand.isOptional ? "::" : ":"
        return quote("\(prefix)\(operand.name):\(action(operand.completion))")
    }

    private static func action(_ completion: Completion) -> String {
        switch completion {
        case .none: " "
        case .file(let extensions) where extensions.isEmpty: "_files"
        case .file(let extensions) where extensions.count == 1: "_files -g \"*.\(extensions[0])\""
        case .file(let extensions): "_files -g \"*.(\(extensions.joined(separator: "|")))\""
        case .folder: "_files -/"
        case .choices(let values): "(\(values.joined(separator: " ")))"
        }
    }

    /// Help text inside a spec: brackets and colons are syntax there.
    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "[]:\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// A single-quoted word.
    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
