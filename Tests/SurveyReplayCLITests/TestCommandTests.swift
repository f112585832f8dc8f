import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import SurveyHarness
@testable import SurveyReplayCLI

/// A project folder with a Scenarios/ suite of two scenarios and an empty Snapshots/.
private final class Project {
    let folder: TemporaryFolder
    var scenarios: String { folder.path + "/Scenarios" }
    var snapshots: String { folder.path + "/Snapshots" }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("Scenarios/s/smoking.json", CLIFixtures.survey)
        try folder.write("Scenarios/s/yes.scenario", "survey smoking.json\nanswer smoker \"Yes\"\n")
        try folder.write("Scenarios/s/no.scenario", "survey smoking.json\nanswer smoker \"No\"\nanswer done \"Yes\"\nsubmit\n")
    }

    func test(_ extra: [String] = [], environment: [String: String] = [:]) -> CLIResult {
        runCLI(["test", "--scenarios", scenarios, "--snapshots", snapshots] + extra, environment: environment)
    }

    func read(_ relative: String) -> String? {
        FileManager.default.contents(atPath: folder.path + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: folder.path + "/" + relative) }

    /// Every file under the project, to prove nothing else (temporary files) was left behind.
    func allFiles() -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { !$0.hasSuffix("/") }.sorted()
    }
}

@Suite struct TestCommandTests {
    @Test("a scenario named as the suite prints it is not a path: exit 2, with the path it names and --filter")
    func aScenarioNameGetsItsPath() throws {
        let project = try Project()
        let result = project.test(["s/yes"])
        #expect(result.status == 2)
        #expect(result.error.contains("s/yes: error: no such file or folder"))
        #expect(result.error.contains("hint: did you mean \(project.scenarios)/s/yes.scenario? (--filter s/yes selects scenarios by name)"))
        #expect(!project.test(["s/nothing"]).error.contains("did you mean"))
    }

    @Test func missingModeRecordsNewGoldensAndPasses() throws {
        let project = try Project()
        let result = project.test()
        #expect(result.status == 0)
        #expect(result.out.contains("ok      s/no (golden recorded: \(project.snapshots)/s/no.snap)"))
        #expect(result.out.contains("2 scenarios: 2 passed, 0 failed; 2 goldens recorded (record mode missing)"))
        #expect(project.read("Snapshots/s/yes.snap")?.hasPrefix("# survey-replay golden of s/yes.scenario") == true)
        #expect(project.test().out.contains("2 scenarios: 2 passed, 0 failed (record mode missing)"))
    }

    @Test func aMismatchFailsWritesAPendingFileAndShowsTheFirstDivergenceAndDiff() throws {
        let project = try Project()
        _ = project.test()
        try project.folder.write("Scenarios/s/yes.scenario", "survey smoking.json\nanswer smoker \"No\"\n")
        let result = project.test()
        #expect(result.status == 1)
        #expect(result.out.contains("FAIL    s/yes: first divergence at step 1: answer smoker \"No\""))
        #expect(result.out.contains("        -step 1: answer smoker \"Yes\""))
        #expect(result.out.contains("        +step 1: answer smoker \"No\""))
        #expect(result.out.contains("pending: \(project.snapshots)/s/yes.snap.new; accept with 'survey-replay review --accept"))
        #expect(project.read("Snapshots/s/yes.snap.new")?.contains("answer smoker \"No\"") == true)
        #expect(project.read("Snapshots/s/yes.snap")?.contains("answer smoker \"Yes\"") == true)
    }

    @Test func reviewAcceptsOrRejectsPendingFiles() throws {
        let project = try Project()
        _ = project.test()
        try project.folder.write("Scenarios/s/yes.scenario", "survey smoking.json\nanswer smoker \"No\"\n")
        _ = project.test()
        let listing = runCLI(["review", project.snapshots])
        #expect(listing.out.contains("pending \(project.snapshots)/s/yes.snap.new"))
        #expect(listing.out.contains("1 pending;"))
        let rejected = runCLI(["review", "--reject", project.snapshots])
        #expect(rejected.status == 0)
        #expect(!project.exists("Snapshots/s/yes.snap.new"))
        #expect(project.test().status == 1)
        let accepted = runCLI(["review", "--accept", project.snapshots])
        #expect(accepted.out.contains("accepted \(project.snapshots)/s/yes.snap"))
        #expect(project.read("Snapshots/s/yes.snap")?.contains("answer smoker \"No\"") == true)
        #expect(project.test().status == 0)
        #expect(runCLI(["review", project.snapshots]).out == "nothing pending\n")
        #expect(runCLI(["review", "--accept", "--reject"]).status == 2)
    }

    @Test func failedModeRewritesOnlyWhatDiffersAndAllRewritesEverything() throws {
        let project = try Project()
        _ = project.test()
        try project.folder.write("Scenarios/s/yes.scenario", "survey smoking.json\nanswer smoker \"No\"\n")
        let failed = project.test(["--record", "failed"])
        #expect(failed.status == 0)
        #expect(failed.out.contains("ok      s/yes (golden updated; first divergence at step 1: answer smoker \"No\")"))
        #expect(failed.out.contains("ok      s/no\n"))
        let all = project.test(["--record", "all"])
        #expect(all.status == 0)
        #expect(project.test(["--record", "never"]).status == 0)
    }

    @Test func neverModeWritesNothingAndFailsOnAMissingGolden() throws {
        let project = try Project()
        let result = project.test(["--record", "never"])
        #expect(result.status == 1)
        #expect(result.out.contains("FAIL    s/no: no golden at \(project.snapshots)/s/no.snap, and record mode never writes none"))
        #expect(!project.exists("Snapshots"))
    }

    @Test func ciForcesNeverUnlessTheFlagSaysOtherwise() throws {
        let project = try Project()
        let onCI = project.test(environment: ["CI": "true", "SURVEY_REPLAY_RECORD": "all"])
        #expect(onCI.status == 1)
        #expect(onCI.error.contains("SURVEY_REPLAY_RECORD=all is ignored because CI is set"))
        #expect(!project.exists("Snapshots"))
        try project.folder.write("Scenarios/s/yes.scenario", "survey smoking.json\nanswer smoker \"Yes\"\n")
        let flagged = project.test(["--record", "missing"], environment: ["CI": "true"])
        #expect(flagged.status == 0)
        #expect(project.exists("Snapshots/s/yes.snap"))
        #expect(try RecordMode.resolve(flag: nil, environment: ["SURVEY_REPLAY_RECORD": "failed"]).mode == .failed)
        #expect(try RecordMode.resolve(flag: nil, environment: ["CI": "false"]).mode == .missing)
        #expect(try RecordMode.resolve(flag: nil, environment: ["CI": "1"]).mode == .never)
    }

    @Test func writesAreAtomicAndLeaveNoTemporaryFiles() throws {
        let project = try Project()
        _ = project.test(["--record", "all"])
        _ = project.test(["--record", "all"])
        #expect(project.allFiles() == ["Scenarios", "Scenarios/s", "Scenarios/s/no.scenario", "Scenarios/s/smoking.json", "Scenarios/s/yes.scenario", "Snapshots", "Snapshots/s", "Snapshots/s/no.snap", "Snapshots/s/yes.snap"])
        let path = project.folder.path + "/f.txt"
        try AtomicFile.write("old", to: path)
        try AtomicFile.write("new", to: path)
        #expect(project.read("f.txt") == "new")
    }

    @Test func goldensWithoutAScenarioAreObsoleteAndFailOnCI() throws {
        let project = try Project()
        _ = project.test()
        try FileManager.default.removeItem(atPath: project.scenarios + "/s/yes.scenario")
        let local = project.test()
        #expect(local.status == 0)
        #expect(local.out.contains("warn    obsolete snapshot \(project.snapshots)/s/yes.snap: no scenario for it"))
        #expect(project.test(["--fail-on-obsolete"]).status == 1)
        let onCI = project.test(environment: ["CI": "1"])
        #expect(onCI.status == 1)
        #expect(onCI.out.contains("FAIL    obsolete snapshot"))
        #expect(project.test(["--allow-obsolete"], environment: ["CI": "1"]).status == 0)
    }

    @Test func aStaleScenarioIsAnErrorWithExitTwo() throws {
        let project = try Project()
        try project.folder.write("Scenarios/s/stale.scenario", "survey smoking.json\nanswer smoker \"Yes\"\nanswer per_dya \"2\"\n")
        let result = project.test()
        #expect(result.status == 2)
        #expect(result.out.contains("ERROR   s/stale: stale at step 2: the survey has no question 'per_dya'; did you mean 'per_day'?"))
        #expect(result.out.contains("1 could not run"))
        #expect(!project.exists("Snapshots/s/stale.snap"))
    }

    @Test func outputIsTheSameWhateverTheNumberOfJobs() throws {
        let project = try Project()
        for index in 0..<12 {
            try project.folder.write("Scenarios/s/extra\(index).scenario", "survey smoking.json\nanswer smoker \"\(index % 2 == 0 ? "Yes" : "No")\"\n")
        }
        _ = project.test()
        let one = project.test(["--jobs", "1"])
        let four = project.test(["--jobs", "4"])
        #expect(one.out == four.out)
        #expect(one.status == 0)
        #expect(project.test(["--jobs", "0"]).status == 2)
    }

    @Test func filterSelectsScenariosByName() throws {
        let project = try Project()
        let result = project.test(["--filter", "yes"])
        #expect(result.out.contains("1 scenario: 1 passed"))
        #expect(!project.exists("Snapshots/s/no.snap"))
    }

    @Test func writesAJUnitReportThatParses() throws {
        let project = try Project()
        _ = project.test()
        try project.folder.write("Scenarios/s/yes.scenario", "survey smoking.json\nanswer smoker \"No\"\n")
        try project.folder.write("Scenarios/s/bad.scenario", "survey smoking.json\nanswr smoker \"No\"\n")
        let junit = project.folder.path + "/report.xml"
        let result = project.test(["--junit", junit])
        #expect(result.status == 2)
        let data = try #require(FileManager.default.contents(atPath: junit))
        let reader = JUnitReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        #expect(parser.parse())
        #expect(reader.suiteAttributes["tests"] == "3")
        #expect(reader.suiteAttributes["failures"] == "1")
        #expect(reader.suiteAttributes["errors"] == "1")
        #expect(reader.testcases == ["bad", "no", "yes"])
        #expect(reader.failureMessages == ["first divergence at step 1: answer smoker \"No\""])
        #expect(reader.errorTypes == ["InvalidInput"])
        // The same run writes the same bytes.
        _ = project.test(["--junit", junit])
        #expect(FileManager.default.contents(atPath: junit) == data)
    }

    @Test func withNoArgumentsTheBinaryRunsTheProjectSuite() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try runBinary([], folder: root, environment: ["CI": "true", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.out.contains("ok      checkin/happy-path\n"))
        #expect(result.out.contains(" passed, 0 failed (record mode never)"))
    }
}

/// Reads the parts of a JUnit report the tests check.
private final class JUnitReader: NSObject, XMLParserDelegate {
    var suiteAttributes: [String: String] = [:]
    var testcases: [String] = []
    var failureMessages: [String] = []
    var errorTypes: [String] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        switch name {
        case "testsuites": suiteAttributes = attributes
        case "testcase": testcases.append(attributes["name"] ?? "")
        case "failure": failureMessages.append(attributes["message"] ?? "")
        case "error": errorTypes.append(attributes["type"] ?? "")
        default: break
        }
    }
}
