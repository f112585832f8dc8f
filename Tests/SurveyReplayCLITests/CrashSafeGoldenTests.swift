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
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("survey-replay")
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("killing 'test --record all' at 60 random moments leaves every golden old or new, and the next run clears the debris")
    func killedRuns() throws {
        // The new goldens, from an uninterrupted run on a copy of the suite.
        let reference = try Self.makeSuite(old: false)
        let clean = try runBinary(Self.arguments(reference))
        #expect(clean.status == 0, "\(clean.out)\(clean.error)")
        let new = try Self.snapshotFiles(reference)
        #expect(new.count == Self.scenarioCount)

        let folder = try Self.makeSuite(old: true)
        var random = SplitMix64(seed: 20261122)
        let started = Date()
        let probe = try Self.start(Self.arguments(folder))
        probe.waitUntilExit()
        let runTime = max(0.05, Date().timeIntervalSince(started))
        try Self.resetToOld(folder)

        var killedWhileRunning = 0
        for attempt in 0..<60 {
            let process = try Self.start(Self.arguments(folder))
            // A moment anywhere in a run, from its start to past its usual end.
            usleep(useconds_t(Double(random.next(below: 1_000)) / 1_000 * runTime * 1.2 * 1_000_000))
            if process.isRunning { killedWhileRunning += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            for (path, text) in try Self.snapshotFiles(folder) {
                let name = (path as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    #expect(name.contains(".tmp-"), "attempt \(attempt): unexpected file \(path)")
                    continue
                }
                let stem = (name as NSString).deletingPathExtension
                #expect(text == new[path] || text == Self.oldText(stem), "attempt \(attempt): \(path) holds neither its old nor its new golden: \(text.prefix(200))")
            }
            // Now and then the goldens go back to old, so that writes keep happening.
            if attempt.isMultiple(of: 10) { try Self.resetToOld(folder) }
        }
        #expect(killedWhileRunning >= 30, "only \(killedWhileRunning) kills landed while the run was going")

        let normal = try runBinary(Self.arguments(folder))
        #expect(normal.status == 0, "\(normal.out)\(normal.error)")
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
