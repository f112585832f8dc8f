import Foundation
import SurveyCore
import SurveyFormats
import SurveyReplayCLI
import Testing

/// Broken input of every kind, in every format: each is exit 2 with `file:line:col` and what was expected,
/// never a crash. The surveys are the team's own example surveys, one per format.
@Suite("Hostile input: every error path")
struct HostileInputTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One example survey of each format (and each SageResearch generation).
    static let surveys = [
        "Scenarios/checkin/checkin.json", "Scenarios/fhir-clinic/intake.json", "Scenarios/sage-legacy/wellbeing.json",
        "Scenarios/sage-v3/activity.json", "Scenarios/assessment/dinner.json", "Scenarios/owlmetry/feedback.json",
    ]

    static func text(of survey: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(survey), encoding: .utf8)
    }

    /// The survey's text with `insert` placed right after its opening brace, which is on line 1.
    static func injected(_ survey: String, _ insert: String) throws -> [UInt8] {
        let text = try text(of: survey)
        let brace = try #require(text.firstIndex(of: "{"))
        #expect(text[..<brace].isEmpty, "the opening brace is the first character")
        return Array(("{" + insert + text[text.index(after: brace)...]).utf8)
    }

    /// Runs `fuzz` (which loads the survey) on the bytes, and returns what it printed on error.
    static func load(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> CLIResult {
        let path = folder.path + "/survey.json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return runCLI(["fuzz", path, "--walks", "1"])
    }

    @Test("each fault in each format is exit 2 at its line and column, saying what was expected", arguments: surveys)
    func faultsAreLocated(survey: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/survey.json"
        let faults: [(name: String, bytes: [UInt8], at: String)] = [
            ("a byte-order mark", [0xEF, 0xBB, 0xBF] + Array(try Self.text(of: survey).utf8), "1:1"),
            ("invalid UTF-8 in a string", try Self.injected(survey, "\"x\": \"\u{1}\"").map { $0 == 1 ? 0xFF : $0 }, "1:8"),
            ("NaN", try Self.injected(survey, "\"x\": NaN, "), "1:7"),
            ("a number too large for a double", try Self.injected(survey, "\"x\": 1e400, "), "1:7"),
            ("a duplicate key", try Self.injected(survey, "\"x\": 1, \"x\": 2, "), "1:10"),
            ("a trailing comma", try Self.injected(survey, "\"x\": [1,], "), "1:10"),
            ("an empty file", [], "1:1"),
            ("only whitespace", Array("  \n ".utf8), "1:1"),
        ]
        for fault in faults {
            let result = try Self.load(fault.bytes, in: folder)
            #expect(result.status == 2, "\(survey): \(fault.name): exit \(result.status)")
            #expect(result.error.hasPrefix("\(path):\(fault.at): error: "), "\(survey): \(fault.name): \(result.error)")
            #expect(result.error.contains("expected"), "\(survey): \(fault.name): \(result.error)")
        }
    }

    @Test("a truncated survey is an error at or before its end, in every format", arguments: surveys)
    func truncatedSurveys(survey: String) throws {
        let folder = try TemporaryFolder()
        let text = Array(try Self.text(of: survey).utf8)
        for cut in [1, text.count / 3, text.count / 2, text.count - 2] {
            let bytes = Array(text.prefix(cut))
            let result = try Self.load(bytes, in: folder)
            let end = SourceFile(path: "", bytes: bytes).position(of: bytes.count)
            #expect(result.status == 2, "\(survey) cut at \(cut)")
            // Where the text stops making sense: the end, or the start of the string or value left open.
            let position = result.error.split(separator: ": error: ").first?.split(separator: ":").suffix(2).compactMap { Int($0) } ?? []
            #expect(position.count == 2, "\(survey) cut at \(cut): \(result.error)")
            if position.count == 2 {
                #expect(SourcePosition(line: position[0], column: position[1]) <= end, "\(survey) cut at \(cut): \(result.error)")
            }
            #expect(result.error.contains("expected"))
        }
    }

    /// Keys whose value steers the engine (the question list, ids, types, condition sources, jump targets):
    /// a wrong type there must stop the load.
    static let keysEveryEngineNeeds = [
        "Scenarios/checkin/checkin.json": ["/questions", "/questions/0/id", "/questions/0/question_type", "/questions/0/options"],
        // An item's type of another JSON type loads: LHC-Forms renders it as a text box (`_getDataType` falls
        // back to 'string', LHNCBC/lforms@24c71875 src/fhir/STU3R4-common/sdc-import.js:36-92).
        "Scenarios/fhir-clinic/intake.json": ["/item", "/item/0/linkId", "/item/2/enableWhen/0/question", "/item/2/enableWhen/0/operator"],
        "Scenarios/sage-legacy/wellbeing.json": ["/steps", "/steps/1/identifier", "/steps/1/inputFields/0/surveyRules/0/skipToIdentifier"],
        "Scenarios/sage-v3/activity.json": ["/steps", "/steps/1/identifier", "/steps/1/surveyRules/0/skipToIdentifier"],
        "Scenarios/assessment/dinner.json": ["/steps", "/steps/1/identifier", "/steps/1/surveyRules/0/skipToIdentifier"],
        "Scenarios/owlmetry/feedback.json": ["/questions", "/questions/0/id", "/questions/0/type", "/questions/1/options"],
    ]

    /// Every key of the survey, in turn, given a value of another JSON type: the load either succeeds (the
    /// real engine ignores that key or reads it with `as?`, as display texts are) or fails with errors that
    /// are all located inside the file and say what was expected; the keys that steer the engine fail.
    @Test("a wrong type at any key is accepted or a located error, never a crash", arguments: surveys)
    func wrongTypesAtEveryKey(survey: String) throws {
        let original = try JSONParser.parse(SourceFile(path: survey, bytes: Array(try Self.text(of: survey).utf8))).plain
        var pointers: [[PathPart]] = []
        Self.collectKeys(original, path: [], into: &pointers)
        #expect(pointers.count > 20, "\(survey) has \(pointers.count) keys")
        var rejected: [String] = []
        for pointer in pointers {
            let mutated = Self.replacing(original, at: pointer[...])
            let file = SourceFile(path: "mutated.json", bytes: Array(CanonicalJSON.pretty(mutated).utf8))
            let lineCount = file.bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
            do throws(InputError) {
                _ = try FormatRegistry.standard.load(file)
            } catch {
                rejected.append(Self.describe(pointer))
                for diagnostic in error.diagnostics {
                    let position = try #require(diagnostic.position, "\(survey) \(Self.describe(pointer)): \(diagnostic.message)")
                    #expect((1...lineCount).contains(position.line), "\(survey) \(Self.describe(pointer)): line \(position.line)")
                    #expect(diagnostic.message.contains("expected"), "\(survey) \(Self.describe(pointer)): \(diagnostic.message)")
                }
            }
        }
        for key in Self.keysEveryEngineNeeds[survey] ?? [] {
            #expect(rejected.contains(key), "\(survey): a wrong type at \(key) must be rejected")
        }
    }

    enum PathPart: Hashable {
        case key(String)
        case index(Int)
    }

    static func collectKeys(_ value: JSONValue, path: [PathPart], into pointers: inout [[PathPart]]) {
        switch value {
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                pointers.append(path + [.key(key)])
                collectKeys(member, path: path + [.key(key)], into: &pointers)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { collectKeys(element, path: path + [.index(index)], into: &pointers) }
        default:
            break
        }
    }

    /// The document with the value at `path` replaced by one of another type.
    static func replacing(_ value: JSONValue, at path: ArraySlice<PathPart>) -> JSONValue {
        guard let first = path.first else {
            switch value {
            case .string: return .number(42)
            case .number: return .string("7")
            case .bool: return .string("true")
            case .null: return .object([:])
            case .array: return .object(["x": .number(1)])
            case .object: return .array([.string("x")])
            }
        }
        switch (value, first) {
        case (.object(var members), .key(let key)):
            members[key] = replacing(members[key] ?? .null, at: path.dropFirst())
            return .object(members)
        case (.array(var elements), .index(let index)):
            elements[index] = replacing(elements[index], at: path.dropFirst())
            return .array(elements)
        default:
            return value
        }
    }

    static func describe(_ path: [PathPart]) -> String {
        path.map { part in
            switch part {
            case .key(let key): "/" + key
            case .index(let index): "/\(index)"
            }
        }.joined()
    }

    // MARK: Files that are not files

    @Test("a directory given as a survey, scenario or properties file is exit 2 naming it")
    func directoryAsFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("survey.json", CLIFixtures.survey)
        let directory = folder.path + "/folder.json"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for arguments in [["fuzz", directory], ["replay", directory], ["fuzz", folder.path + "/survey.json", "--properties", directory], ["lint", directory]] {
            let result = runCLI(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains("\(directory): error: is a directory; expected a file"), "\(arguments): \(result.error)")
        }
    }

    @Test("a file that cannot be read is exit 2 naming it")
    func unreadableFile() {
        // Reading the first page of this process's own memory fails (EIO) even for root, for whom no
        // permission bit makes a file unreadable.
        let result = runCLI(["lint", "/proc/self/mem"])
        #expect(result.status == 2)
        #expect(result.error.contains("/proc/self/mem: error: cannot be read"), "\(result.error)")
    }

    @Test("a missing file and a symbolic link loop are exit 2, each named for what it is")
    func missingAndLoopingFiles() throws {
        let folder = try TemporaryFolder()
        let first = folder.path + "/a.json"
        let second = folder.path + "/b.json"
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
        let loop = runCLI(["fuzz", first])
        #expect(loop.status == 2)
        #expect(loop.error.contains("\(first): error: is a symbolic link loop"), "\(loop.error)")
        let missing = runCLI(["fuzz", folder.path + "/absent.json"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("absent.json: error: no such file"), "\(missing.error)")
    }

    @Test("a symbolic link loop under Scenarios/ is exit 2 naming the loop, and the other scenarios still run")
    func symlinkLoopUnderScenarios() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/demo/survey.json", CLIFixtures.survey)
        try folder.write("Scenarios/demo/smoker.scenario", "survey survey.json\nanswer smoker \"No\"\nnext\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Scenarios/demo/again", withDestinationPath: folder.path + "/Scenarios")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Scenarios/self.scenario", withDestinationPath: folder.path + "/Scenarios/self.scenario")
        let result = runCLI(
            ["test", "--record", "missing", "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"])
        #expect(result.status == 2)
        #expect(result.error.contains("Scenarios/demo/again: error: a symbolic link loop"), "\(result.error)")
        #expect(result.error.contains("Scenarios/self.scenario: error: is a symbolic link loop"), "\(result.error)")
        #expect(result.out.contains("demo/smoker"), "\(result.out)")
    }

    @Test("an endless device is refused as a device before anything is read, not read forever")
    func endlessDevice() {
        let result = runCLI(["lint", "/dev/zero"])
        #expect(result.status == 2)
        #expect(result.error.contains("/dev/zero: error: is a character device; expected a regular file"), "\(result.error)")
    }

    // MARK: Scenarios

    @Test("bad scenario lines are exit 2 at their line and column, all reported, and binary junk stops after a hundred")
    func badScenarios() throws {
        let folder = try TemporaryFolder()
        try folder.write("survey.json", CLIFixtures.survey)
        let scenario = try folder.write("bad.scenario", "survey survey.json\nanswer smoker \"No\nfly away\nanswer smoker \u{1}\n")
        let result = runCLI(["replay", scenario])
        #expect(result.status == 2)
        #expect(result.error.contains("bad.scenario:2:15: error: "), "\(result.error)")
        #expect(result.error.contains("bad.scenario:3:1: error: unknown verb 'fly'"), "\(result.error)")
        #expect(result.error.contains("bad.scenario:4:15: error: "), "\(result.error)")

        let junk = folder.path + "/junk.scenario"
        var lines = "survey survey.json\n"
        for _ in 0..<500 { lines += "\u{7F}\u{7F}\n" }
        try Data(lines.utf8).write(to: URL(fileURLWithPath: junk))
        let stopped = runCLI(["replay", junk])
        #expect(stopped.status == 2)
        #expect(stopped.error.components(separatedBy: ": error: ").count - 1 == 101, "\(stopped.error.suffix(300))")
        #expect(stopped.error.contains("junk.scenario:102:1: error: stopped after 100 errors"), "\(stopped.error.suffix(300))")
    }

    @Test("a scenario that no longer fits its survey is exit 2, stale at the step that does not fit")
    func staleScenario() throws {
        let folder = try TemporaryFolder()
        try folder.write("survey.json", CLIFixtures.survey)
        let scenario = try folder.write("gone.scenario", "survey survey.json\nanswer smoker \"No\"\nnext\nanswer pets \"2\"\n")
        let result = runCLI(["replay", scenario])
        #expect(result.status == 2)
        #expect(result.error.contains("gone.scenario:4:1: error: stale at step 3"), "\(result.error)")
    }
}
