import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@Suite struct CoverageCommandTests {
    /// A project with the CLI fixture survey and one scenario answering No.
    private func project() throws -> (folder: TemporaryFolder, scenarios: String) {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/s/smoking.json", CLIFixtures.survey)
        try folder.write("Scenarios/s/no.scenario", "survey smoking.json\nanswer smoker \"No\"\nanswer done \"Yes\"\nsubmit\n")
        return (folder, folder.path + "/Scenarios")
    }

    @Test func printsTheTableAndWritesEveryFormat() throws {
        let (folder, scenarios) = try project()
        let files = ["--json", "c.json", "--lcov", "c.info", "--cobertura", "c.xml", "--dot", "c.dot"]
        let result = runCLI(["coverage", scenarios] + files.enumerated().map { $0.offset % 2 == 0 ? $0.element : folder.path + "/" + $0.element })
        #expect(result.status == 0, "\(result.error)")
        // 15 branches: show_if and its leaf (4), three options, three questions shown and answered, Submit shown
        // and submitted; answering No takes 10 of them.
        #expect(result.out.contains("branches: 10/15 taken (66.7%)"))
        #expect(result.out.contains("smoking.json:5:17: show_if of 'per_day' is true (reached, not taken)"))
        for name in ["c.json", "c.info", "c.xml", "c.dot"] {
            #expect(FileManager.default.fileExists(atPath: folder.path + "/" + name), "\(name) not written")
        }
    }

    @Test func belowMinimumFailsWithExitOne() throws {
        let (folder, scenarios) = try project()
        defer { withExtendedLifetime(folder) {} }
        let failing = runCLI(["coverage", scenarios, "--min", "80"])
        #expect(failing.status == 1)
        #expect(failing.error.contains("branch coverage 66.7% is below --min 80%"))
        #expect(runCLI(["coverage", scenarios, "--min", "60"]).status == 0)
        let bad = runCLI(["coverage", scenarios, "--min", "eighty"])
        #expect(bad.status == 2)
        #expect(bad.error.contains("--min needs a percentage from 0 to 100, not 'eighty'"))
    }

    @Test func walksAddCoverage() throws {
        let (folder, scenarios) = try project()
        defer { withExtendedLifetime(folder) {} }
        let result = runCLI(["coverage", scenarios, "--walks", "50", "--seed", "2"])
        #expect(result.status == 0)
        #expect(result.out.contains("branches: 15/15 taken (100.0%)"))
    }

    @Test func mergeAddsShardedRuns() throws {
        let (folder, scenarios) = try project()
        try folder.write("Scenarios/s/yes.scenario", "survey smoking.json\nanswer smoker \"Yes\"\nanswer per_day \"2\"\n")
        #expect(runCLI(["coverage", scenarios + "/s/no.scenario", "--json", folder.path + "/a.json"]).status == 0)
        #expect(runCLI(["coverage", scenarios + "/s/yes.scenario", "--json", folder.path + "/b.json"]).status == 0)
        let whole = runCLI(["coverage", scenarios, "--json", folder.path + "/whole.json"])
        let merged = runCLI(["coverage", "merge", folder.path + "/a.json", folder.path + "/b.json", "--json", folder.path + "/merged.json"])
        #expect(merged.status == 0, "\(merged.error)")
        #expect(merged.out == whole.out)
        #expect(FileManager.default.contents(atPath: folder.path + "/merged.json") == FileManager.default.contents(atPath: folder.path + "/whole.json"))
    }

    @Test func mergeRefusesCountsOfAChangedSurvey() throws {
        let (folder, scenarios) = try project()
        #expect(runCLI(["coverage", scenarios, "--json", folder.path + "/a.json"]).status == 0)
        try folder.write("Scenarios/s/smoking.json", CLIFixtures.survey.replacingOccurrences(of: #"["Yes", "No"]"#, with: #"["Yes", "No", "Sometimes"]"#))
        let result = runCLI(["coverage", "merge", folder.path + "/a.json"])
        #expect(result.status == 2)
        #expect(result.error.contains("a.json:"))
        #expect(result.error.contains("has changed since these counts were recorded"))
    }

    /// The team's consent form: an iif in a Questionnaire variable (9:23), in band's calculatedExpression
    /// (19:26), and two in guardian's enableWhenExpression (25:26, and 25:92 inside the first's true-result).
    static let consentForm = Corpus.packageRoot + "/Scenarios/fhir-sdc/consent.json"

    @Test("the iif branches of SDC expressions are in every output like the other decisions, at the iif in the file")
    func iifBranchesInEveryOutput() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/s/adult.scenario", "survey \(Self.consentForm)\nanswer age 30\n")
        let files = ["--json", "c.json", "--lcov", "c.info", "--cobertura", "c.xml", "--dot", "c.dot"]
        let result = runCLI(["coverage", folder.path + "/Scenarios"] + files.enumerated().map { $0.offset % 2 == 0 ? $0.element : folder.path + "/" + $0.element })
        #expect(result.status == 0, "\(result.error)")
        // An adult and no country: adultAge's criterion is empty (false, 18); band is 'minor' as the form opens and
        // 'adult' at 30, so both of its branches; guardian's outer iif both, its inner one only false.
        #expect(result.out.contains("band      shown           6/6\n"))
        #expect(result.out.contains("branches: 19/31 taken (61.3%); 1 impossible, not counted"))
        #expect(result.out.contains("consent.json:9:23: iif of '(questionnaire)' is true (reached, not taken)"))
        #expect(result.out.contains("consent.json:25:92: enableWhenExpression of 'guardian': iif(%resource.item.where(linkId='age').answer.value < %adultAge, …) is true (reached, not taken)"))
        let lcov = try String(contentsOfFile: folder.path + "/c.info", encoding: .utf8)
        for line in ["BRDA:19,2,0,1", "BRDA:19,2,1,1", "BRDA:25,4,0,0", "BRDA:25,4,1,1"] { #expect(lcov.contains(line + "\n"), "\(line)") }
        let json = try String(contentsOfFile: folder.path + "/c.json", encoding: .utf8)
        #expect(json.contains(#""description": "iif of 'band' is false""#))
        let cobertura = try String(contentsOfFile: folder.path + "/c.xml", encoding: .utf8)
        #expect(cobertura.contains(#"<line number="25" hits="6" branch="true" condition-coverage="75% (6/8)"/>"#))
        let dot = try String(contentsOfFile: folder.path + "/c.dot", encoding: .utf8)
        #expect(dot.contains(#"label="iif: calculatedExpression of 'band': iif(%resource.item.where(linkId='age').answer.value >= %adultAge, …)""#))
        #expect(dot.contains(#""0:(questionnaire)" [label="(questionnaire)""#))
        // The report's survey page draws them under their item.
        let site = folder.path + "/site"
        #expect(runCLI(["report", folder.path + "/Scenarios", "-o", site, "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"]).status == 0)
        let pages = try FileManager.default.contentsOfDirectory(atPath: site + "/surveys")
        let page = try String(contentsOfFile: site + "/surveys/" + (pages.first ?? ""), encoding: .utf8)
        #expect(page.contains("iif: variable &apos;adultAge&apos; of the Questionnaire"))
        // Walks, and generate, take every iif branch: the age's candidates include the literals of the variable
        // its readers compare it with (adultAge's 21 and 18).
        #expect(runCLI(["coverage", Self.consentForm, "--walks", "20"]).out.contains("branches: 31/31 taken (100.0%)"))
        let generated = runCLI(["generate", Self.consentForm, "-o", folder.path + "/generated"])
        #expect(generated.status == 0 && generated.out.contains("take 31/31 branches (100.0%)"))
    }

    @Test func aMalformedCoverageFileIsLocated() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("bad.json", "{\"version\": \"\(CoverageFile.version)\",\n \"surveys\": 3}\n")
        let result = runCLI(["coverage", "merge", file])
        #expect(result.status == 2)
        #expect(result.error.contains("bad.json:2:13:"))
    }
}

@Suite struct GenerateCommandTests {
    @Test func writesScenariosThatCoverEverythingAndReplay() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("Scenarios/smoking.json", CLIFixtures.survey)
        let output = folder.path + "/Scenarios/generated"
        let result = runCLI(["generate", survey, "-o", output])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.out.contains("take 15/15 branches (100.0%)"))
        let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(!names.isEmpty)
        #expect(names.allSatisfy { $0.hasPrefix("smoking-generated-0") && $0.hasSuffix(".scenario") })
        let first = try String(contentsOfFile: output + "/" + names[0], encoding: .utf8)
        #expect(first.hasPrefix("# Generated by survey-replay generate --seed 1: scenario 1 of \(names.count).\n# First to take:\n"))
        #expect(first.contains("\nsurvey ../smoking.json\ntoday 2026-01-01\n"))

        // The scenarios cover every branch when measured on their own, and record goldens like any other.
        #expect(runCLI(["coverage", output]).out.contains("branches: 15/15 taken (100.0%)"))
        let arguments = ["test", "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"]
        #expect(runCLI(arguments + ["--record", "missing"]).status == 0)
        let again = runCLI(arguments + ["--record", "never"])
        #expect(again.status == 0)
        #expect(again.out.contains(": \(names.count) passed, 0 failed"))
    }

    @Test func replacesItsOwnEarlierScenariosOnly() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("smoking.json", CLIFixtures.survey)
        let output = folder.path + "/out"
        try folder.write("out/smoking-generated-99.scenario", "survey ../smoking.json\n")
        try folder.write("out/smoking-kept.scenario", "survey ../smoking.json\n")
        #expect(runCLI(["generate", survey, "-o", output]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(!names.contains("smoking-generated-99.scenario"))
        #expect(names.contains("smoking-kept.scenario"))
    }

    @Test func explainsImpossibleBranches() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("maybe.json", CLIFixtures.survey.replacingOccurrences(of: #""value": "Yes""#, with: #""value": "Maybe""#))
        let result = runCLI(["generate", survey, "-o", folder.path + "/out"])
        #expect(result.status == 0)
        #expect(result.out.contains("impossible (not counted):"))
        #expect(result.out.contains(#"maybe.json:5:17: show_if of 'per_day' is true: "Maybe" is not a plain option of the question"#))
    }

    @Test func needsAnOutputFolder() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("smoking.json", CLIFixtures.survey)
        let result = runCLI(["generate", survey])
        #expect(result.status == 2)
        #expect(result.error.contains("generate needs -o DIR"))
    }
}
