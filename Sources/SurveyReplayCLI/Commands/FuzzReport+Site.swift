import SurveyHarness

extension FuzzReport {
    /// The run as the HTML report's fuzz page shows it: each finding with its shrunk scenario (whose survey
    /// line is the survey's path, so the report can replay it), seed and replay token.
    var reportRun: ReportInput.FuzzRun {
        ReportInput.FuzzRun(
            surveyPath: surveyPath, format: survey.format, seed: configuration.seed, walks: result.walks, steps: result.steps,
            maxSteps: configuration.maxSteps, settings: configuration.settings,
            findings: result.findings.map { report in
                ReportInput.FuzzFinding(
                    finding: report.finding, fails: fails(report.finding), walks: report.walks, firstWalk: report.firstWalk,
                    token: report.token.text, replayCommand: replayCommand(report), scenario: scenario(for: report, writtenTo: nil))
            })
    }
}
