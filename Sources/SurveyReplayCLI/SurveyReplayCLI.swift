import SurveyCore

/// The `survey-replay` command line: subcommands, help, and the mapping of errors to exit codes.
public enum SurveyReplayCLI {
    public static let commands: [CommandSpec] = [
        TestCommand.spec, ReplayCommand.spec, ReviewCommand.spec, RecordCommand.spec, ImportCommand.spec, FuzzCommand.spec,
        CompareCommand.spec, CoverageCommand.spec, GenerateCommand.spec, LintCommand.spec, BenchCommand.spec, FuzzParsersCommand.spec,
        FHIRPathCommand.spec,
    ]
    public static let defaultCommand = "test"

    /// Runs one command line (without the program name) and returns its exit code.
    public static func run(_ arguments: [String], environment: [String: String], console: Console) -> Int32 {
        guard let first = arguments.first else {
            return run([defaultCommand], environment: environment, console: console)
        }
        if ["-h", "--help", "help"].contains(first) {
            if first == "help", arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.out(Help.text(for: command))
            } else {
                console.out(Help.overview(commands, defaultCommand: defaultCommand))
            }
            return ExitCode.success
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let suggestion = Spelling.suggestion(for: first, in: commands.map(\.name))
            console.error("error: unknown command '\(first)'\(suggestion)\nRun '\(Help.toolName) --help' for the list of commands.\n")
            return ExitCode.badInput
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            console.out(Help.text(for: command))
            return ExitCode.success
        }
        do {
            let parsed = try command.parse(rest)
            return try command.run(Invocation(arguments: parsed, environment: environment, console: console))
        } catch let error as UsageError {
            console.error("error: \(error.message)\nUsage: \(Help.usageLine(command))\nRun '\(Help.toolName) \(command.name) --help' for more.\n")
            return ExitCode.badInput
        } catch let error as InputError {
            console.error(error.description + "\n")
            return ExitCode.badInput
        } catch {
            console.error("error: \(error)\n")
            return ExitCode.badInput
        }
    }
}
