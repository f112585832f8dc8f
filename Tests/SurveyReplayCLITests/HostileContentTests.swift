import Foundation
import SurveyCore
import SurveyHarness
import Testing

/// Content that used to be taken the wrong way: malformed files linted as findings, goldens left by a bad
/// merge, ids that break the comments they are written into, counts of a changed survey merged, saved paths
/// that no longer replay, settings ignored, errors without a place.
@Suite("Hostile content: wrong results and unlocated errors")
struct HostileContentTests {
    /// A suite of two scenarios over the fixture survey, run once so its goldens exist.
    static func recordedSuite() throws -> (folder: TemporaryFolder, arguments: [String]) {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/s/s.json", CLIFixtures.survey)
        try folder.write("Scenarios/s/yes.scenario", "survey s.json\nanswer smoker \"Yes\"\nnext\nanswer per_day \"3\"\n")
        try folder.write("Scenarios/s/no.scenario", "survey s.json\nanswer smoker \"No\"\n")
        let arguments = ["test", "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"]
        #expect(runCLI(arguments).status == 0)
        return (folder, arguments)
    }

    // MARK: item 4

    @Test("lint exits 2 on a malformed file, each at its line and column, and 1 only for findings in a survey")
    func lintExitCodes() throws {
        let folder = try TemporaryFolder()
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let malformed: [(String, [UInt8])] = [
            ("empty", []), ("truncated", Array(#"{"questions": [{"id": "a""#.utf8)), ("bom", [0xEF, 0xBB, 0xBF] + Array(CLIFixtures.survey.utf8)),
            ("utf8", Array(#"{"questions": [], "submit": {"url": ""#.utf8) + [0xFF] + Array(#""}}"#.utf8)),
            ("nan", Array(#"{"questions": [], "x": NaN}"#.utf8)), ("duplicate", Array(#"{"questions": [], "questions": []}"#.utf8)),
            ("deep", Array(deep.utf8)), ("utf16", [0xFF, 0xFE] + Array(CLIFixtures.survey.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("prose", Array("this is not JSON\n".utf8)), ("nosurvey", Array(#"{"hello": "world"}"#.utf8)),
        ]
        for (name, bytes) in malformed {
            let path = folder.path + "/\(name).json"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = runCLI(["lint", path])
            #expect(result.status == 2, "\(name): exit \(result.status)")
            #expect(result.out.range(of: #"\#(path):\d+:\d+: error: "#, options: .regularExpression) != nil, "\(name): \(result.out)")
        }
        let dangling = try folder.write("dangling.json", CLIFixtures.survey.replacingOccurrences(of: #""id": "smoker", "operation""#, with: #""id": "smoker_x", "operation""#))
        #expect(runCLI(["lint", dangling]).status == 1)
        #expect(runCLI(["lint", try folder.write("fine.json", CLIFixtures.survey)]).status == 0)
    }

    // MARK: item 5

    @Test("a golden with git conflict markers is exit 2 at the first marker; --record failed leaves it, --record all replaces it")
    func conflictMarkers() throws {
        let (folder, arguments) = try Self.recordedSuite()
        let golden = folder.path + "/Snapshots/s/yes.snap"
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert(contentsOf: ["<<<<<<< HEAD", "  visible: smoker per_day", "=======", "  visible: smoker", ">>>>>>> theirs"], at: 3)
        let conflicted = lines.joined(separator: "\n")
        try conflicted.write(toFile: golden, atomically: true, encoding: .utf8)
        for mode in ["missing", "failed", "never"] {
            let result = runCLI(arguments + ["--record", mode])
            #expect(result.status == 2, "\(mode)")
            #expect(result.out.contains("\(golden):4:1: error: a git merge conflict: lines 4 to 8 hold two versions"), "\(mode): \(result.out)")
            #expect(try String(contentsOfFile: golden, encoding: .utf8) == conflicted, "\(mode) must not overwrite it")
        }
        #expect(runCLI(arguments + ["--record", "all"]).status == 0)
        #expect(try String(contentsOfFile: golden, encoding: .utf8) == text)
    }

    // MARK: item 6

    @Test("ids with newlines and control characters are escaped in generated comments: the files replay and inject nothing")
    func controlCharactersInIDs() throws {
        let folder = try TemporaryFolder()
        let injected = "x\\nsurvey /etc/passwd #"
        // The question whose hidden answer is submitted (a hazard fuzz saves) gets the id that injects a line.
        let survey = CLIFixtures.survey.replacingOccurrences(of: "\"per_day\"", with: "\"\(injected)\"").replacingOccurrences(of: "\"done\"", with: "\"d\\u0001\\r\"")
        let path = try folder.write("odd.json", survey)
        let generated = runCLI(["generate", path, "-o", folder.path + "/gen", "--walks", "200", "--patience", "200"])
        #expect(generated.status == 0, "\(generated.out)\(generated.error)")
        let fuzzed = runCLI(["fuzz", path, "--walks", "300", "--save-failures", folder.path + "/found", "--strict"])
        #expect(fuzzed.status == 1, "the hidden answer of per_day is a hazard: \(fuzzed.out)")
        let files = ScenarioDiscovery.find([folder.path + "/gen", folder.path + "/found"], extension: "scenario").files
        #expect(files.count >= 2)
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("survey /etc/passwd") }, "\(file):\n\(text)")
            #expect(!text.contains("\u{1}") && !text.contains("\r"), "\(file)")
            let replayed = runCLI(["replay", file])
            #expect(replayed.status != 2, "\(file): \(replayed.error)")
        }
    }

    // MARK: item 8

    @Test("coverage merge refuses counts of a survey whose question was renamed, at the fingerprint in the coverage file")
    func renamedQuestionIsRefused() throws {
        let (folder, _) = try Self.recordedSuite()
        let coverage = folder.path + "/c.json"
        #expect(runCLI(["coverage", folder.path + "/Scenarios", "--json", coverage]).status == 0)
        try folder.write("Scenarios/s/s.json", CLIFixtures.survey.replacingOccurrences(of: "per_day", with: "per_week"))
        let result = runCLI(["coverage", "merge", coverage])
        #expect(result.status == 2)
        #expect(result.error.range(of: #"c\.json:\d+:\d+: error: the survey .*s\.json has changed since these counts were recorded"#, options: .regularExpression) != nil, "\(result.error)")
    }

    @Test("counts follow one integer rule: up to 2^53 - 1 read and merged, past it refused on read and on merge")
    func countLimit() throws {
        let (folder, _) = try Self.recordedSuite()
        let coverage = folder.path + "/c.json"
        #expect(runCLI(["coverage", folder.path + "/Scenarios", "--json", coverage]).status == 0)
        let text = try String(contentsOfFile: coverage, encoding: .utf8)
        // The first count of "choices", set to the largest count, then one past it.
        let choices = try #require(text.range(of: "\"choices\": [\n"))
        let numberEnd = try #require(text[choices.upperBound...].firstIndex(of: ","))
        func with(_ count: String) -> String { text.replacingCharacters(in: choices.upperBound..<numberEnd, with: "        " + count) }
        let largest = try folder.write("largest.json", with("9007199254740991"))
        #expect(runCLI(["coverage", "merge", largest]).status == 0, "the largest count reads")
        let twice = runCLI(["coverage", "merge", largest, largest])
        #expect(twice.status == 2)
        #expect(twice.error.contains("adding these counts passes 9007199254740991, the largest count a coverage file holds"), "\(twice.error)")
        let past = runCLI(["coverage", "merge", try folder.write("past.json", with("9007199254740992"))])
        #expect(past.status == 2)
        #expect(past.error.contains("past.json:"), "\(past.error)")
        #expect(past.error.contains("is not a count; expected a whole number from 0 to 9007199254740991"), "\(past.error)")
        // What merge writes, merge reads.
        let merged = folder.path + "/merged.json"
        #expect(runCLI(["coverage", "merge", largest, "--json", merged]).status == 0)
        #expect(runCLI(["coverage", "merge", merged]).status == 0)
    }

    // MARK: item 9

    @Test("compare --save writes every path as a scenario of a version it replays on, when an option was renamed")
    func savedPathsReplay() throws {
        let folder = try TemporaryFolder()
        let old = try folder.write("old.json", CLIFixtures.survey)
        let new = try folder.write("new.json", CLIFixtures.survey.replacingOccurrences(of: #"["Yes", "No"]"#, with: #"["Yes", "Never"]"#))
        let result = runCLI(["compare", old, new, "--walks", "40", "--save", folder.path + "/saved"])
        #expect(result.status == 1)
        let files = ScenarioDiscovery.find([folder.path + "/saved"], extension: "scenario").files
        #expect(!files.isEmpty)
        var namesOld = false
        for file in files {
            let replayed = runCLI(["replay", file])
            #expect(replayed.status != 2, "\(file) does not replay on the version it names: \(replayed.error)")
            if try String(contentsOfFile: file, encoding: .utf8).contains("survey ../old.json") { namesOld = true }
        }
        #expect(namesOld, "the path that answers No can only be a scenario of the old version")
    }

    // MARK: item 10

    @Test("SURVEY_REPLAY_RECORD naming no mode is the same error as --record naming none, exit 2")
    func invalidRecordMode() throws {
        let (_, arguments) = try Self.recordedSuite()
        let flag = runCLI(arguments + ["--record", "sometimes"])
        let variable = runCLI(arguments, environment: ["SURVEY_REPLAY_RECORD": "sometimes"])
        #expect(flag.status == 2 && variable.status == 2)
        #expect(flag.error.contains("'sometimes' is not a valid MODE for --record; expected one of missing, all, failed, never"), "\(flag.error)")
        #expect(variable.error.contains("'sometimes' is not a valid MODE for SURVEY_REPLAY_RECORD; expected one of missing, all, failed, never"), "\(variable.error)")
        #expect(runCLI(arguments, environment: ["SURVEY_REPLAY_RECORD": "sometimes", "CI": "1"]).status == 2, "not silently ignored on CI either")
    }

    @Test("invalid UTF-8 in a properties file is an error at its line and column, not a question with a replacement character")
    func propertiesInvalidUTF8() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("s.json", CLIFixtures.survey)
        let properties = folder.path + "/p.properties"
        try Data(Array("# fine\nwhenever {\"id\":\"smoker\",\"operation\":\"equals\",\"value\":\"No\"} then hidden per".utf8) + [0xFF] + Array("day\n".utf8))
            .write(to: URL(fileURLWithPath: properties))
        let result = runCLI(["fuzz", survey, "--walks", "1", "--properties", properties])
        #expect(result.status == 2)
        #expect(result.error.contains("p.properties:2:75: error: invalid UTF-8; expected UTF-8 text"), "\(result.error)")
    }

    @Test("a golden checked out with CRLF line endings matches; goldens are written with LF")
    func crlfGoldens() throws {
        let (folder, arguments) = try Self.recordedSuite()
        let golden = folder.path + "/Snapshots/s/yes.snap"
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: golden, atomically: true, encoding: .utf8)
        let result = runCLI(arguments + ["--record", "never"])
        #expect(result.status == 0, "\(result.out)")
        #expect(runCLI(arguments + ["--record", "all"]).status == 0)
        #expect(try String(contentsOfFile: golden, encoding: .utf8) == text)
    }

    // MARK: item 11

    @Test("an empty survey path is an error at its line and column in the scenario")
    func emptySurveyPath() throws {
        let folder = try TemporaryFolder()
        let scenario = try folder.write("x.scenario", "# nothing\nsurvey \"\"\nnext\n")
        let result = runCLI(["replay", scenario])
        #expect(result.status == 2)
        #expect(result.error.contains("x.scenario:2:8: error: an empty survey path; expected the survey file's path"), "\(result.error)")
    }

    @Test("coverage merge of counts whose survey is gone names the coverage file, line and column, and the survey")
    func mergeWithSurveyGone() throws {
        let (folder, _) = try Self.recordedSuite()
        let coverage = folder.path + "/c.json"
        #expect(runCLI(["coverage", folder.path + "/Scenarios", "--json", coverage]).status == 0)
        try FileManager.default.removeItem(atPath: folder.path + "/Scenarios/s/s.json")
        let result = runCLI(["coverage", "merge", coverage])
        #expect(result.status == 2)
        #expect(result.error.range(of: #"c\.json:\d+:\d+: error: the survey this coverage was counted on cannot be loaded"#, options: .regularExpression) != nil, "\(result.error)")
        #expect(result.error.contains("s.json: error: no such file"), "\(result.error)")
    }
}
