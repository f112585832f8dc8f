/// `survey-replay completion bash|zsh|fish`: the shell completion script, written from the same command
/// declarations as parsing and `--help`.
enum CompletionCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completion",
        summary: "Print the shell completion script for bash, zsh or fish.",
        operands: [.init("SHELL", help: "bash, zsh or fish.", completion: .choices(shells))],
        discussion: """
            The script completes commands, options, the values options take (record modes, files of the right
            kind, folders) and operands. Load it in the current shell:
              bash: source <(survey-replay completion bash)
              zsh:  source <(survey-replay completion zsh)
              fish: survey-replay completion fish | source
            or install it where the shell looks for completions.

            Exit codes: 0 printed; 2 an unknown shell.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let shell = invocation.arguments.operands[0]
        let commands = SurveyReplayCLI.commands
        let defaultCommand = SurveyReplayCLI.defaultCommand
        switch shell {
        case "bash": invocation.console.out(BashCompletion.script(commands, defaultCommand: defaultCommand))
        case "zsh": invocation.console.out(ZshCompletion.script(commands, defaultCommand: defaultCommand))
        case "fish": invocation.console.out(FishCompletion.script(commands, defaultCommand: defaultCommand))
        default:
            throw UsageError(message: "no completion for '\(shell)'; expected one of \(shells.joined(separator: ", "))", command: "completion")
        }
        return ExitCode.success
    }
}
