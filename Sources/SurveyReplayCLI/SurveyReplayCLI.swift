import SurveyCore

/// The `survey-replay` command line: subcommands, help, and the mapping of errors to exit codes. Parsing,
/// `--help`, `--version` and the shell completion scripts all derive from `commands`: a command is part of
/// all of them by being listed here.
public enum SurveyReplayCLI {
    public static let commands: [CommandSpec] = [
        TestCommand.spec, ReplayCommand.spec, ReviewCommand.spec, RecordCommand.spec, ImportCommand.spec, FuzzCommand.spec,
        CompareCommand.spec, CoverageCommand.spec, GenerateCommand.spec, LintCommand.spec, ReportCommand.spec, BenchCommand.spec, FuzzParsersCommand.spec,
        FHIRPathCommand.spec, CompletionCommand.spec,
    ]
    public static let defaultCommand = "test"
    public static let version = "0.1.0"

    /// Runs one command line (without the program name) and returns its exit code.
    public static func run(_ arguments: [String], environment: [String: String], console: Console) -> Int32 {
        guard let first = arguments.first else {
            return run([defaultCommand], environment: environment, console: console)
        }
        if first == "--version" {
            console.out("\(Help.toolName) \(version)\n")
            return ExitCode.success
        }
        if ["-h", "--help"].contains(first) {
            console.out(Help.overview(commands, defaultCommand: defaultCommand))
            return ExitCode.success
        }
        if first == "help" {
            guard arguments.count > 1 else {
                console.out(Help.overview(commands, defaultCommand: defaultCommand))
                return ExitCode.success
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else { return unknownCommand(arguments[1], console: console) }
            console.out(Help.text(for: command))
            return ExitCode.success
        }
        // Options without a command are the default command's: `survey-replay --jobs 2` is `test --jobs 2`.
        if first.hasPrefix("-"), first != "-" {
            return run([defaultCommand] + arguments, environment: environment, console: console)
        }
        guard let command = commands.first(where: { $0.name == first }) else { return unknownCommand(first, console: console) }
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

    private static func unknownCommand(_ name: String, console: Console) -> Int32 {
        let suggestion = Spelling.suggestion(for: name, in: commands.map(\.name))
        console.error("error: unknown command '\(name)'\(suggestion)\nRun '\(Help.toolName) --help' for the list of commands.\n")
        return ExitCode.badInput
    }
}
