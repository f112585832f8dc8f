import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayCLI
import SurveyReplayTestSupport
import Testing

/// A newcomer's first hour with the README: the obvious uses work, and the README's promises hold.
@Suite("A newcomer's first hour")
struct FirstHourTests {
    static let root = Corpus.packageRoot

    static func readme() throws -> String {
        try String(contentsOfFile: root + "/README.md", encoding: .utf8)
    }

    /// Runs the binary with its standard output going into a file, as `> FILE` does in a shell.
    static func runRedirected(_ arguments: [String], in folder: String, stdoutTo file: String) throws -> Int32 {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let output = try #require(FileHandle(forWritingAtPath: file))
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("survey-replay")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    // MARK: item 12

    @Test("import redirected into a scenario file names the survey relative to that file, so it replays")
    func importIntoARedirectedFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/coffee/coffee.json", CLIFixtures.survey)
        try folder.write("payload.json", #"{"answers": {"smoker": "No", "done": "Yes"}}"#)
        let scenario = folder.path + "/Scenarios/coffee/real.scenario"
        let status = try Self.runRedirected(["import", "payload.json", "--survey", "Scenarios/coffee/coffee.json", "--today", "2026-01-01"], in: folder.path, stdoutTo: scenario)
        #expect(status == 0)
        #expect(try String(contentsOfFile: scenario, encoding: .utf8).contains("\nsurvey coffee.json\n"))
        let replayed = runCLI(["replay", scenario])
        #expect(replayed.status == 0, "\(replayed.error)")
    }

    @Test("a survey path that does not resolve says what it was resolved against, and what it is from the scenario")
    func unresolvedSurveyPath() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/coffee/coffee.json", CLIFixtures.survey)
        try folder.write("Scenarios/coffee/real.scenario", "# written from the project folder\nsurvey Scenarios/coffee/coffee.json\nnext\n")
        let result = try runBinary(["replay", "Scenarios/coffee/real.scenario"], folder: URL(fileURLWithPath: folder.path))
        #expect(result.status == 2)
        #expect(
            result.error.contains(
                "Scenarios/coffee/real.scenario:2:1: error: the survey file Scenarios/coffee/Scenarios/coffee/coffee.json (the survey line's 'Scenarios/coffee/coffee.json' resolved against this scenario's folder Scenarios/coffee/) no such file"
            ), "\(result.error)")
        #expect(result.error.contains("hint: 'Scenarios/coffee/coffee.json' is a file relative to the current folder; from this scenario it is 'coffee.json'"), "\(result.error)")
    }

    // MARK: item 13

    @Test("a fuzz failure saved into the suite keeps failing test until the survey is fixed")
    func savedFailuresKeepFailing() throws {
        let folder = try TemporaryFolder()
        // The bug: per_day shows for non-smokers.
        let buggy = CLIFixtures.survey.replacingOccurrences(of: #""operation": "equals", "value": "Yes""#, with: #""operation": "equals", "value": "No""#)
        let survey = try folder.write("Scenarios/s/s.json", buggy)
        let property = #"whenever {"id":"smoker","operation":"equals","value":"No"} then hidden per_day"#
        let properties = try folder.write("s.properties", "# Non-smokers are not asked how many a day.\n\(property)\n")
        let fuzz = runCLI(["fuzz", survey, "--properties", properties, "--walks", "20", "--save-failures", folder.path + "/Scenarios/found"])
        #expect(fuzz.status == 1)
        let saved = try #require(ScenarioDiscovery.find([folder.path + "/Scenarios/found"], extension: "scenario").files.first)
        #expect(try String(contentsOfFile: saved, encoding: .utf8).contains("\ncheck \(property)\n"))
        let arguments = ["test", folder.path + "/Scenarios/found", "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"]
        let first = runCLI(arguments)
        #expect(first.status == 1, "recording its golden must not make it pass: \(first.out)")
        #expect(first.out.contains("error: check failed after step 1: the condition holds but 'per_day' is visible"), "\(first.out)")
        #expect(runCLI(arguments).status == 1, "and it fails again")
        // The survey fixed: the check holds (the golden, which showed the bug, is recorded again).
        try folder.write("Scenarios/s/s.json", CLIFixtures.survey)
        let fixed = runCLI(arguments + ["--record", "failed"])
        #expect(fixed.status == 0, "\(fixed.out)")
    }

    // MARK: item 14

    @Test("the README's library snippet is the one the consumer package under Tests/ builds with, for a path and a URL dependency")
    func readmeLibrarySnippet() throws {
        let readme = try Self.readme()
        let consumer = try String(contentsOfFile: Self.root + "/Tests/ConsumerPackage/Package.swift", encoding: .utf8)
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        let product = #".product(name: "SurveyReplayTesting", package: "SurveyReplay")"#
        #expect(readme.contains(product) && consumer.contains(product))
        #expect(readme.contains(#".package(name: "SurveyReplay", path: "#) && consumer.contains(#".package(name: "SurveyReplay", path: "../..")"#))
        #expect(readme.contains(#".package(url: "https://"#) && readme.contains("/SurveyReplay.git"), "a URL ending in SurveyReplay.git gives the package name the product names")
        #expect(manifest.contains(#"name: "SurveyReplay","#) && manifest.contains(#".library(name: "SurveyReplayTesting""#))
        #expect(try String(contentsOfFile: Self.root + "/Tests/ConsumerPackage/Tests/ConsumerTests/SurveyTests.swift", encoding: .utf8).contains("assertScenarios(in: \"Scenarios\")"))
        #expect(try String(contentsOfFile: Self.root + "/.ci/run", encoding: .utf8).contains("swift test --package-path Tests/ConsumerPackage"))
    }

    // MARK: items 15 and 16

    @Test("a missing tool is skipped with its install command, and fails under CI")
    func missingToolRequirement() async throws {
        let tool = Requirement.tool("survey-replay-no-such-tool", debianPackage: "no-such-package")
        #expect(!tool.isMet)
        #expect(tool.missing == "survey-replay-no-such-tool is not installed (apt-get install no-such-package)")
        #expect(try await ConditionTrait.requires(tool, environment: [:]).evaluate() == false)
        await #expect(throws: (any Error).self) { try await ConditionTrait.requires(tool, environment: ["CI": "true"]).evaluate() }
        #expect(try await ConditionTrait.requires(.tool("sh", debianPackage: "dash"), environment: ["CI": "true"]).evaluate())
        #expect(Requirement.corpus.missing.contains("../shared/corpus"))
    }

    @Test("the README says how tests that need the corpus or a tool behave without it")
    func readmeExplainsSkips() throws {
        let readme = try Self.readme()
        #expect(readme.contains("reported as skipped"))
        #expect(readme.contains("under `CI`"))
    }

    // MARK: item 17

    @Test("--version, help of an unknown command, the default command's options without its name, and a --filter matching nothing")
    func cliConventions() throws {
        let version = runCLI(["--version"])
        #expect(version.status == 0)
        #expect(version.out == "survey-replay \(SurveyReplayCLI.version)\n")
        let bogus = runCLI(["help", "bogus"])
        #expect(bogus.status == 2)
        #expect(bogus.error.contains("unknown command 'bogus'"))
        #expect(runCLI(["help", "lint"]).out.contains("Usage: survey-replay lint"))

        let folder = try TemporaryFolder()
        try folder.write("Scenarios/s/s.json", CLIFixtures.survey)
        try folder.write("Scenarios/s/no.scenario", "survey s.json\nanswer smoker \"No\"\n")
        let url = URL(fileURLWithPath: folder.path)
        // Outside CI, so the missing golden is recorded as it is on a developer's machine.
        let local = ProcessInfo.processInfo.environment.filter { $0.key != "CI" }
        let bare = try runBinary(["--jobs", "1"], folder: url, environment: local)
        #expect(bare.status == 0, "\(bare.error)")
        #expect(bare.out.contains("1 scenario: 1 passed"), "\(bare.out)")
        let filtered = try runBinary(["--filter", "nothing-like-it"], folder: url)
        #expect(filtered.status == 2)
        #expect(filtered.error.contains("--filter 'nothing-like-it' matches none of the 1 scenario; expected part of a name such as 's/no'"), "\(filtered.error)")
    }

    // MARK: item 18

    @Test("record on a multiple choice toggles options by their shown number, takes an Other text after its number, and says what each did")
    func recordToggles() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("coffee.json", """
            {"questions": [{"id": "milk", "question": "Milk?", "question_type": "multi_select",
                            "options": ["Whole", "Skim", "Soy", {"title": "Other", "type": "freeform"}]},
                           {"id": "end", "question": "Done?", "question_type": "single_select", "options": ["Yes"]}],
             "submit": {"button_title": "Send", "url": "https://example.org"}}
            """)
        let result = try runBinary(["record", survey, "--today", "2026-01-01"], input: "1,2\n2\n4 Oat milk\n4\n3\n:quit\n")
        #expect(result.status == 0)
        #expect(result.out.contains("""
            answer milk ["Whole","Skim"]
            answer milk ["Whole"]
            answer milk ["Whole","Oat milk"]
            answer milk ["Whole"]
            answer milk ["Whole","Soy"]
            """), "\(result.out)")
        #expect(result.error.contains("picked \"Whole\"; picked \"Skim\""))
        #expect(result.error.contains("unpicked \"Skim\""))
        #expect(result.error.contains("option 4: \"Oat milk\""))
        #expect(result.error.contains("cleared the text of option 4"))
        #expect(result.error.contains("'milk' is now [\"Whole\",\"Soy\"]"))
    }

    // MARK: item 19

    @Test("fuzz --replay reports the steps of the walk it replays")
    func replayStatistics() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("s.json", CLIFixtures.survey)
        let run = runCLI(["fuzz", survey, "--walks", "200", "--strict"])
        let token = try #require(run.out.split(separator: " ").first { $0.hasPrefix("sr1-") }.map { String($0.prefix { !$0.isWhitespace }) })
        let replayed = runCLI(["fuzz", survey, "--replay", token])
        #expect(replayed.out.contains("walks 1, steps "), "\(replayed.out)")
        #expect(!replayed.out.contains("steps 0,"), "\(replayed.out)")
    }

    @Test("with --today the record header never presents the --today clock as the day of the recording: it says the clock is set by --today")
    func recordHeader() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("s.json", CLIFixtures.survey)
        let withClock = try runBinary(["record", survey, "--today", "1999-12-31"], input: ":quit\n")
        #expect(!withClock.out.contains("on 1999-12-31"), "\(withClock.out)")
        #expect(withClock.out.contains("the clock is set by --today"))
        #expect(withClock.out.contains("\ntoday 1999-12-31\n"))
    }

    @Test("a FHIR item under a hidden group is never shown, said in a sentence")
    func hiddenGroupWording() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("q.json", """
            {"resourceType": "Questionnaire", "status": "active", "item": [
              {"linkId": "1.2.0", "type": "group", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}],
               "item": [{"linkId": "a", "type": "string"}]}]}
            """)
        let result = runCLI(["generate", survey, "-o", folder.path + "/g", "--walks", "20", "--patience", "20"])
        #expect(result.out.contains("it is under '1.2.0', which is never shown: it is hidden (questionnaire-hidden)"), "\(result.out)")
    }

    @Test("the README's verb table has every verb a scenario can use")
    func readmeVerbTable() throws {
        let readme = try Self.readme()
        let table = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.joined(separator: "\n")
        for verb in ["survey", "today", "profile", "option", "check", "answer", "clear", "next", "goto", "submit", "custom", "back", "skip", "add", "remove",
                     "launch", "foreground", "wait", "consent", "quit", "resume", "expect"] {
            #expect(table.contains("`\(verb)"), "the verb table lacks \(verb)")
        }
    }

    // MARK: the README's promises

    /// A command line that reads `survey` (and, for replay, a scenario naming it).
    static func readers(of survey: String, in folder: TemporaryFolder) throws -> [[String]] {
        let scenario = try folder.write("x.scenario", "survey bad.json\nnext\n")
        let payload = try folder.write("p.json", #"{"answers": {}}"#)
        return [
            ["replay", scenario], ["fuzz", survey], ["compare", survey, survey], ["generate", survey, "-o", folder.path + "/g"], ["lint", survey],
            ["import", payload, "--survey", survey], ["record", survey], ["coverage", survey], ["test", scenario, "--scenarios", folder.path],
        ]
    }

    @Test("every command exits 2 on a malformed survey, with the file, line and column and what was expected")
    func malformedSurveyOnEveryCommand() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("bad.json", "{\"questions\": [\n  {\"id\": \"a\",, }\n]}\n")
        for arguments in try Self.readers(of: survey, in: folder) {
            let result = runCLI(arguments)
            #expect(result.status == 2, "\(arguments): exit \(result.status)")
            let text = result.out + result.error
            #expect(text.contains("bad.json:2:14: error: "), "\(arguments): \(text)")
            #expect(text.contains("expected"), "\(arguments)")
        }
    }

    @Test("every command exits 2 on an unknown option, naming it, with its usage")
    func unknownOptionOnEveryCommand() {
        for command in SurveyReplayCLI.commands {
            let result = runCLI([command.name, "--no-such-option"])
            #expect(result.status == 2, "\(command.name)")
            #expect(result.error.contains("unknown option '--no-such-option'"), "\(command.name): \(result.error)")
            #expect(result.error.contains("Usage: survey-replay \(command.name)"), "\(command.name)")
        }
    }
}
