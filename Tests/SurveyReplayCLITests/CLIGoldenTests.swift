import Foundation
import SurveyHarness
import SurveyReplayCLI
import SurveyReplayTestSupport
import Testing

/// Each command's `--help`, the overview and each shell's completion script, as goldens in `Goldens/`:
/// all derive from the command declarations, so a change to an option shows here as a diff. A missing
/// golden is recorded and a different one fails, as for scenarios (`SURVEY_REPLAY_RECORD=failed swift test
/// --filter CLIGoldenTests` re-records; under CI nothing is written).
@Suite("CLI goldens: --help and completion scripts")
struct CLIGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens").path

    /// Golden file name and the command line whose output it holds.
    static let cases: [(name: String, arguments: [String])] =
        [("help.txt", ["--help"])] + SurveyReplayCLI.commands.map { ("help-\($0.name).txt", [$0.name, "--help"]) }
        + ["bash", "zsh", "fish"].map { ("completion.\($0)", ["completion", $0]) }

    @Test("the output matches its golden", arguments: cases.map(\.name))
    func matchesGolden(name: String) throws {
        let arguments = try #require(Self.cases.first { $0.name == name }?.arguments)
        let result = runCLI(arguments)
        #expect(result.status == 0, "\(result.error)")
        let path = Self.folder + "/" + name
        let mode = try RecordMode.resolve(flag: nil, environment: ProcessInfo.processInfo.environment).mode
        guard let golden = try GoldenFile.read(path) else {
            #expect(mode != .never, "no golden at \(path), and record mode never writes none")
            if mode != .never { try AtomicFile.write(result.out, to: path) }
            return
        }
        if golden != result.out, mode == .failed || mode == .all {
            try AtomicFile.write(result.out, to: path)
            return
        }
        #expect(
            golden == result.out,
            "\(name) differs from its golden; if the change is meant, re-record: SURVEY_REPLAY_RECORD=failed swift test --filter CLIGoldenTests\n\(LineDiff.unified(old: golden, new: result.out, oldName: path, newName: "this run"))"
        )
    }

    @Test("every golden belongs to a command or a shell (none left from a removed command)")
    func noObsoleteGoldens() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { !$0.hasPrefix(".") }
        #expect(Set(names).subtracting(Self.cases.map(\.name)).isEmpty, "\(names.sorted())")
    }
}

/// The completion scripts do what they say in real shells.
@Suite("shell completion")
struct CompletionTests {
    /// What bash's completion function offers for a command line whose last word is being typed, in a
    /// folder holding these files.
    static func bashOffers(_ words: [String], files: [String] = []) throws -> [String] {
        let folder = try TemporaryFolder()
        for file in files { try folder.write(file, "") }
        let scriptPath = try folder.write(".completion.bash", runCLI(["completion", "bash"]).out)
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = """
            source '\(scriptPath)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _survey_replay
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return try Program.run("bash", ["--norc", "-c", program], in: folder.path).out.split(separator: "\n").map(String.init).sorted()
    }

    @Test("bash offers commands, options, option values and operand files of the right kind", .requires(.tool("bash", debianPackage: "bash")))
    func bashCompletes() throws {
        #expect(try Self.bashOffers(["survey-replay", "co"]) == ["compare", "completion", "coverage"])
        #expect(try Self.bashOffers(["survey-replay", "test", "--record", ""]) == ["all", "failed", "missing", "never"])
        #expect(try Self.bashOffers(["survey-replay", "--jo"]) == ["--jobs"], "the default command's options, without naming it")
        #expect(try Self.bashOffers(["survey-replay", "--ver"]) == ["--version"])
        let files = ["a.json", "b.scenario", "c.properties", "sub/x.json"]
        #expect(try Self.bashOffers(["survey-replay", "lint", ""], files: files) == ["a.json", "sub"])
        #expect(try Self.bashOffers(["survey-replay", "replay", ""], files: files) == ["b.scenario", "sub"])
        #expect(try Self.bashOffers(["survey-replay", "fuzz", "a.json", "--properties", ""], files: files) == ["c.properties", "sub"])
        #expect(try Self.bashOffers(["survey-replay", "test", "--scenarios", ""], files: files) == ["sub"])
        #expect(try Self.bashOffers(["survey-replay", "completion", ""]) == ["bash", "fish", "zsh"])
        #expect(try Self.bashOffers(["survey-replay", "help", "rev"]) == ["review"])
    }

    /// Runs a shell's syntax check on the script.
    static func syntaxCheck(_ shell: String) throws -> CLIResult {
        let folder = try TemporaryFolder()
        let path = try folder.write("completion.\(shell)", runCLI(["completion", shell]).out)
        let result = try Program.run(shell, ["-n", path])
        return CLIResult(status: result.status, out: result.out, error: result.error)
    }

    @Test("the zsh script is valid zsh", .requires(.tool("zsh", debianPackage: "zsh")))
    func zshParses() throws {
        let result = try Self.syntaxCheck("zsh")
        #expect(result.status == 0, "\(result.error)")
    }

    @Test("the fish script is valid fish, and completes option values", .requires(.tool("fish", debianPackage: "fish")))
    func fishParses() throws {
        let result = try Self.syntaxCheck("fish")
        #expect(result.status == 0, "\(result.error)")
        let folder = try TemporaryFolder()
        let path = try folder.write("completion.fish", runCLI(["completion", "fish"]).out)
        let output = try Program.run("fish", ["--no-config", "-c", "source '\(path)'; complete -C 'survey-replay test --record '"]).out
        #expect(output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted() == ["all", "failed", "missing", "never"])
    }

    @Test("an unknown shell is exit 2 naming the ones there are")
    func unknownShell() {
        let result = runCLI(["completion", "tcsh"])
        #expect(result.status == 2)
        #expect(result.error.contains("no completion for 'tcsh'; expected one of bash, zsh, fish"), "\(result.error)")
    }
}
