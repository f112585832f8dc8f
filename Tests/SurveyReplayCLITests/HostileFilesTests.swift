import Foundation
import SurveyCore
import SurveyHarness
import Testing

/// Files that are not what a command expects: one-character names, named pipes where a file is read,
/// devices and pipes where a file is written, link loops where a golden is. Each is a clear refusal or a
/// correct write, never a crash, a hang or a special file turned into a regular one.
@Suite("Hostile files: odd names, pipes, devices and links")
struct HostileFilesTests {
    /// A folder with the fixture survey, a scenario and a payload, for commands run in it.
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("s.json", CLIFixtures.survey)
        try folder.write("Scenarios/demo/s.json", CLIFixtures.survey)
        try folder.write("Scenarios/demo/yes.scenario", "survey s.json\nanswer smoker \"Yes\"\nnext\nanswer per_day \"3\"\n")
        try folder.write("payload.json", #"{"answers": {"smoker": "No", "done": "Yes"}}"#)
        return folder
    }

    func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    // MARK: one-character names (item 1)

    @Test("every output written to a one-character file name in the current folder is written, not a crash")
    func oneCharacterOutputNames() throws {
        let folder = try Self.project()
        let url = URL(fileURLWithPath: folder.path)
        let runs: [(arguments: [String], input: String?, files: [String])] = [
            (["record", "s.json", "-o", "a", "--today", "2026-01-01"], "1\n:quit\n", ["a"]),
            (["import", "payload.json", "--survey", "s.json", "-o", "b", "--today", "2026-01-01"], nil, ["b"]),
            (["coverage", "Scenarios", "--json", "j", "--lcov", "l", "--cobertura", "c", "--dot", "d"], nil, ["j", "l", "c", "d"]),
            (["coverage", "merge", "j", "--json", "m"], nil, ["m"]),
            (["test", "--junit", "t"], nil, ["t"]),
            (["fuzz", "s.json", "--walks", "3", "--junit", "f"], nil, ["f"]),
        ]
        for run in runs {
            let result = try runBinary(run.arguments, input: run.input, folder: url)
            #expect(result.status == 0 || result.status == 1, "\(run.arguments): exit \(result.status): \(result.error)")
            for file in run.files {
                #expect(FileManager.default.fileExists(atPath: folder.path + "/" + file), "\(run.arguments): no \(file)")
            }
        }
    }

    @Test("a survey file with a one-character name is generated for and linted, C3-PRO's ValueSet folder included")
    func oneCharacterSurveyNames() throws {
        let folder = try Self.project()
        let url = URL(fileURLWithPath: folder.path)
        try folder.write("q", CLIFixtures.survey)
        let generated = try runBinary(["generate", "q", "-o", "g", "--walks", "50", "--patience", "50"], folder: url)
        #expect(generated.status == 0 || generated.status == 1, "\(generated.error)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/g/q-generated-01.scenario"))
        try folder.write("f", #"{"resourceType": "Questionnaire", "status": "active", "item": [{"linkId": "a", "type": "choice", "options": {"reference": "ValueSet/x"}}]}"#)
        let linted = try runBinary(["lint", "f"], folder: url)
        #expect(linted.status == 0 || linted.status == 1, "\(linted.error)")
    }

    // MARK: named pipes where a file is read (item 2)

    @Test("a named pipe wherever a file is read is exit 2 naming it, never a wait")
    func pipesAreRefused() throws {
        let folder = try Self.project()
        let pipe = folder.path + "/pipe.json"
        #expect(mkfifo(pipe, 0o644) == 0)
        let survey = folder.path + "/s.json"
        try folder.write("c.scenario", "survey pipe.json\nnext\n")
        let runs: [[String]] = [
            ["fuzz", pipe, "--walks", "1"], ["lint", pipe], ["fuzz", survey, "--walks", "1", "--properties", pipe],
            ["coverage", "merge", pipe], ["import", pipe, "--survey", survey], ["import", survey, "--survey", pipe],
            ["compare", survey, pipe], ["replay", pipe],
        ]
        for arguments in runs {
            let result = runCLI(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains("\(pipe): error: is a named pipe (FIFO); expected a regular file"), "\(arguments): \(result.error)")
        }
        let viaScenario = runCLI(["replay", folder.path + "/c.scenario"])
        #expect(viaScenario.status == 2)
        #expect(viaScenario.error.contains("c.scenario:1:1: error: the survey file \(pipe)"), "\(viaScenario.error)")
        #expect(viaScenario.error.contains("is a named pipe (FIFO)"), "\(viaScenario.error)")
    }

    @Test("a named pipe among the scenarios under Scenarios/ is exit 2 naming it, and the others still run")
    func pipeUnderScenarios() throws {
        let folder = try Self.project()
        #expect(mkfifo(folder.path + "/Scenarios/demo/stuck.scenario", 0o644) == 0)
        let result = runCLI(["test", "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"])
        #expect(result.status == 2)
        #expect(result.out.contains("demo/yes"), "\(result.out)")
        #expect(result.out.contains("stuck.scenario: error: is a named pipe (FIFO)"), "\(result.out)")
    }

    // MARK: special files where a file is written (item 3)

    @Test("-o - writes to standard output, and a link to this process's standard output is written through, staying a link")
    func standardOutput() throws {
        let folder = try Self.project()
        let dash = runCLI(["import", folder.path + "/payload.json", "--survey", folder.path + "/s.json", "-o", "-", "--today", "2026-01-01"])
        #expect(dash.status == 0, "\(dash.error)")
        #expect(dash.out.contains("answer smoker \"No\""))
        #expect(!FileManager.default.fileExists(atPath: "-"))
        // What /dev/stdout is: a link to /proc/self/fd/1.
        let link = folder.path + "/out"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let through = try runBinary(["import", "payload.json", "--survey", "s.json", "-o", link, "--today", "2026-01-01"], folder: URL(fileURLWithPath: folder.path))
        #expect(through.status == 0, "\(through.error)")
        #expect(through.out.contains("answer smoker \"No\""), "nothing reached standard output: \(through.out)")
        #expect(kind(link) == S_IFLNK, "the link was replaced")
        let coverage = runCLI(["coverage", folder.path + "/Scenarios", "--json", "-"])
        #expect(coverage.status == 0)
        #expect(coverage.out.contains("\"version\": \"\(CoverageFile.version)\""))
        #expect((try? JSONParser.parse(SourceFile(path: "-", text: coverage.out))) != nil, "with --json -, standard output is the JSON alone: \(coverage.out)")
        #expect(coverage.error.contains("branches:"), "and the table goes to standard error")
    }

    @Test("a device and a named pipe with a reader are written in place, never replaced; a pipe nobody reads, a folder and a socket are refused")
    func specialOutputs() throws {
        let folder = try Self.project()
        let arguments = { (output: String) in ["import", folder.path + "/payload.json", "--survey", folder.path + "/s.json", "-o", output, "--today", "2026-01-01"] }
        // A link to /dev/null: a regression would replace the link in this folder, not the device.
        let device = folder.path + "/null"
        try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/null")
        #expect(runCLI(arguments(device)).status == 0)
        #expect(kind(device) == S_IFLNK)
        #expect(kind("/dev/null") == S_IFCHR)

        let pipe = folder.path + "/pipe"
        #expect(mkfifo(pipe, 0o644) == 0)
        let refused = runCLI(arguments(pipe))
        #expect(refused.status == 2)
        #expect(refused.error.contains("\(pipe): error: is a named pipe (FIFO) that no process reads"), "\(refused.error)")
        // With a reader (this process holds both ends), the scenario goes into the pipe.
        let reader = open(pipe, O_RDWR | O_NONBLOCK)
        defer { close(reader) }
        #expect(runCLI(arguments(pipe)).status == 0)
        #expect(kind(pipe) == S_IFIFO)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).contains("answer smoker \"No\""))

        let directory = folder.path + "/dir"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let onFolder = runCLI(arguments(directory))
        #expect(onFolder.status == 2)
        #expect(onFolder.error.contains("\(directory): error: is a directory; expected a file to write"), "\(onFolder.error)")
    }

    @Test("a link to a golden stays a link when the golden is rewritten")
    func linkedGoldenStaysALink() throws {
        let folder = try Self.project()
        let arguments = ["test", "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"]
        #expect(runCLI(arguments).status == 0)
        let golden = folder.path + "/Snapshots/demo/yes.snap"
        try FileManager.default.moveItem(atPath: golden, toPath: folder.path + "/kept.snap")
        try FileManager.default.createSymbolicLink(atPath: golden, withDestinationPath: folder.path + "/kept.snap")
        #expect(runCLI(arguments + ["--record", "all"]).status == 0)
        #expect(kind(golden) == S_IFLNK)
    }

    // MARK: a golden that is a link loop (item 7)

    @Test("a golden that is a symbolic link loop is exit 2 naming it and is left alone, even by --record all")
    func goldenLinkLoop() throws {
        let folder = try Self.project()
        let golden = folder.path + "/Snapshots/demo/yes.snap"
        try FileManager.default.createDirectory(atPath: folder.path + "/Snapshots/demo", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: golden, withDestinationPath: golden)
        for mode in ["missing", "all"] {
            let result = runCLI(["test", "--record", mode, "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"])
            #expect(result.status == 2, "\(mode)")
            #expect(result.out.contains("\(golden): error: is a symbolic link loop"), "\(mode): \(result.out)")
            #expect(kind(golden) == S_IFLNK, "\(mode)")
        }
    }
}
