import Foundation

/// A small project whose report shows every status: a scenario that passes, one whose golden differs, one
/// that is stale, one without a golden, and a golden whose scenario is gone.
struct ReportProject {
    let folder: TemporaryFolder
    var scenarios: String { folder.path + "/Scenarios" }
    var snapshots: String { folder.path + "/Snapshots" }
    var site: String { folder.path + "/site" }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("Scenarios/s/smoking.json", CLIFixtures.survey)
        try folder.write("Scenarios/s/non-smoker.scenario", "# Someone who does not smoke is not asked how much.\nsurvey smoking.json\nanswer smoker \"No\"\nanswer done \"Yes\"\nsubmit\n")
        try folder.write("Scenarios/s/smoker.scenario", "# A smoker is asked how many a day.\nsurvey smoking.json\nanswer smoker \"Yes\"\nanswer per_day \"3\"\n")
        _ = runCLI(["test", scenarios, "--scenarios", scenarios, "--snapshots", snapshots, "--record", "all"])
        // The smoker's golden from an older survey: per_day did not appear.
        let golden = snapshots + "/s/smoker.snap"
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        try text.replacingOccurrences(of: "visible: smoker per_day done", with: "visible: smoker done")
            .write(toFile: golden, atomically: true, encoding: .utf8)
        try folder.write("Scenarios/s/misspelt.scenario", "# An answer to a question the survey no longer has.\nsurvey smoking.json\nanswer smokes \"Yes\"\n")
        try folder.write("Scenarios/s/new.scenario", "# Not recorded yet.\nsurvey smoking.json\nanswer smoker \"No\"\n")
        try folder.write("Snapshots/s/removed.snap", "# survey-replay golden of s/removed.scenario\nsurvey smoking.json (surveynative)\n")
    }

    /// Writes the report of the project (with a few walks and fuzzing) and returns the CLI's result.
    func report(_ extra: [String] = []) -> CLIResult {
        runCLI(["report", scenarios, "--scenarios", scenarios, "--snapshots", snapshots, "-o", site, "--walks", "5", "--fuzz", "200"] + extra)
    }

    /// The survey's page (named after its path, which is absolute here).
    var surveyPage: String {
        "surveys/" + ((try? FileManager.default.contentsOfDirectory(atPath: site + "/surveys"))?.first { $0.hasSuffix("smoking.json.html") } ?? "missing.html")
    }

    func page(_ path: String) throws -> String {
        try String(contentsOfFile: site + "/" + path, encoding: .utf8)
    }

    /// Every page of the site, by its path.
    func pages() throws -> [String: String] {
        var result: [String: String] = [:]
        for path in FileManager.default.subpaths(atPath: site) ?? [] where path.hasSuffix(".html") {
            result[path] = try page(path)
        }
        return result
    }
}
