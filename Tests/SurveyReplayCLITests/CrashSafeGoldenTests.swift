import Foundation
import SurveyHarness
import Testing

/// Goldens are written by temporary file and rename: a run killed at any moment leaves each golden with
/// its old content or its new one, and two runs at once do not disturb each other.
@Suite("Crash-safe goldens", .serialized)
struct CrashSafeGoldenTests {
    static let scenarioCount = 40

    /// A suite of scenarios over the fixture survey, goldens of which hold `old` text before the run.
    static func makeSuite(old: Bool) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/demo/survey.json", CLIFixtures.survey)
        for index in 0..<scenarioCount {
            let name = String(format: "s%02d", index)
            let answer = index.isMultiple(of: 2) ? "\"Yes\"\nnext\nanswer per_day \"\(index)\"" : "\"No\""
            try folder.write("Scenarios/demo/\(name).scenario", "survey survey.json\nanswer smoker \(answer)\nnext\nanswer done \"Yes\"\nnext\nsubmit\n")
            if old { try folder.write("Snapshots/demo/\(name).snap", oldText(name)) }
        }
        return folder
    }

    static func oldText(_ name: String) -> String { "# an old golden of \(name)\n" }

    /// Puts the old text back in every golden.
    static func resetToOld(_ folder: TemporaryFolder) throws {
        for index in 0..<scenarioCount {
            let name = String(format: "s%02d", index)
            try folder.write("Snapshots/demo/\(name).snap", oldText(name))
        }
    }

    static func arguments(_ folder: TemporaryFolder) -> [String] {
        ["test", "--record", "all", "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"]
    }

    /// Every file under the snapshot folder, by path relative to it.
    static func snapshotFiles(_ folder: TemporaryFolder) throws -> [String: String] {
        let root = folder.path + "/Snapshots"
        var files: [String: String] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root) ?? FileManager.DirectoryEnumerator() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
        }
        return files
    }

    /// Starts the binary and returns the running process (output discarded).
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("survey-replay")
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until the process has stopped itself (SIGSTOP: state T in /proc) or has ended; whether it
    /// stopped.
    static func waitUntilStopped(_ process: Process) -> Bool {
        let statPath = "/proc/\(process.processIdentifier)/stat"
        while process.isRunning {
            if let text = try? String(contentsOfFile: statPath, encoding: .utf8), let close = text.lastIndex(of: ")") {
                let state = text[text.index(after: close)...].split(separator: " ").first
                if state == "T" || state == "t" { return true }
            }
            usleep(1_000)
        }
        return false
    }

    /// The kill points are chosen, not timed: the run stops itself (AtomicFile's SURVEY_REPLAY_STOP_AT) at a
    /// chosen byte of a chosen golden's temporary file, or just after its rename, and is killed there. So
    /// every kill lands in the middle of the run, at a known point of a write, however busy the machine.
    @Test("killing 'test --record all' at 60 chosen points of its writes leaves every golden old or new, and the next run clears the debris")
    func killedRuns() throws {
        // The new goldens, from an uninterrupted run on a copy of the suite.
        let reference = try Self.makeSuite(old: false)
        let clean = try runBinary(Self.arguments(reference))
        #expect(clean.status == 0, "\(clean.out)\(clean.error)")
        let new = try Self.snapshotFiles(reference)
        #expect(new.count == Self.scenarioCount)

        let folder = try Self.makeSuite(old: true)
        var random = SplitMix64(seed: 20261122)
        var debris = 0
        for attempt in 0..<60 {
            let name = String(format: "s%02d", random.next(below: Self.scenarioCount))
            let size = try #require(new["demo/\(name).snap"]).utf8.count
            // 0 to size: that many bytes of the temporary file written; size + 1: the rename done.
            let point = "\(name).snap@\(random.next(below: size + 2))"
            let process = try Self.start(Self.arguments(folder), environment: ["SURVEY_REPLAY_STOP_AT": point])
            let stopped = Self.waitUntilStopped(process)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(stopped, "attempt \(attempt): the run ended without reaching \(point)")
            #expect(process.terminationReason == .uncaughtSignal, "attempt \(attempt): the kill at \(point) did not end the run")
            for (path, text) in try Self.snapshotFiles(folder) {
                let name = InputFiles.name(of: path)
                if name.hasPrefix(".") {
                    #expect(name.contains(".tmp-"), "attempt \(attempt): unexpected file \(path)")
                    debris += 1
                    continue
                }
                let stem = String(name.dropLast(".snap".count))
                #expect(text == new[path] || text == Self.oldText(stem), "attempt \(attempt): \(path) holds neither its old nor its new golden: \(text.prefix(200))")
            }
            // Now and then the goldens go back to old, so that writes keep replacing something.
            if attempt.isMultiple(of: 10) { try Self.resetToOld(folder) }
        }
        #expect(debris > 0, "kills in the middle of writes leave temporary files for the next run to clear")

        let leftOver = try Self.snapshotFiles(folder).keys.filter { InputFiles.name(of: $0).hasPrefix(".") }
        let normal = try runBinary(Self.arguments(folder))
        #expect(normal.status == 0, "\(normal.out)\(normal.error)")
        for path in leftOver { #expect(normal.out.contains("removed \(folder.path)/Snapshots/\(path)"), "the run reports clearing \(path)") }
        let after = try Self.snapshotFiles(folder)
        #expect(after == new, "after a normal run only the new goldens remain: \(after.keys.sorted().filter { new[$0] == nil })")
    }

    @Test("two test runs on the same tree at once leave every golden whole and no temporary file")
    func concurrentRuns() throws {
        let reference = try Self.makeSuite(old: false)
        #expect(try runBinary(Self.arguments(reference)).status == 0)
        let new = try Self.snapshotFiles(reference)

        let folder = try Self.makeSuite(old: true)
        for _ in 0..<3 {
            let first = try Self.start(Self.arguments(folder))
            let second = try Self.start(Self.arguments(folder))
            first.waitUntilExit()
            second.waitUntilExit()
            #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
            #expect(try Self.snapshotFiles(folder) == new)
        }
    }
}
