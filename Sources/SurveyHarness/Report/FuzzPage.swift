import SurveyCore

/// The fuzz runs: per survey how it was walked, then each finding with the property or hazard it broke,
/// the seed and replay token, and its shrunk scenario shown as a session, step by step.
struct FuzzPage {
    let runs: [ReportInput.FuzzRun]
    let context: ReportContext

    static func anchor(_ run: ReportInput.FuzzRun) -> String {
        "fuzz-" + ReportBuilder.displayPath(run.surveyPath).map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    }

    var html: String {
        var body = HTML.text("h1", [], "Random walks")
        body += HTML.text(
            "p", [("class", "lede")],
            "Seeded random walks answer each survey the way respondents could, checking the engine's invariants, the survey's hazards and the author's properties after every step. Each finding is shrunk to the shortest session that still shows it.")
        for run in runs {
            let survey = context.surveys[InputFiles.normalize(run.surveyPath)]
            var section = HTML.element(
                "h2", [("id", Self.anchor(run))],
                HTML.link(ReportPage.href(context.surveyPage(InputFiles.normalize(run.surveyPath)), depth: 0), HTML.escape(ReportBuilder.displayPath(run.surveyPath))))
            var facts = ["\(run.format)", "\(run.walks) walks", "seed \(run.seed)", "at most \(run.maxSteps) steps a walk", "\(run.steps) steps in all", "today \(run.settings.today)"]
            if let profile = run.settings.profile { facts.append("profile \(profile)") }
            section += HTML.text("p", [("class", "muted")], facts.joined(separator: " · "))
            if run.findings.isEmpty {
                section += HTML.text("p", [], "No findings: every invariant, hazard check and property held on every walk.")
            }
            for (number, finding) in run.findings.enumerated() {
                section += findingHTML(finding, number: number + 1, run: run, survey: survey?.survey)
            }
            body += section
        }
        return ReportPage(title: "Random walks — SurveyReplay", depth: 0, body: body).html
    }

    private func findingHTML(_ item: ReportInput.FuzzFinding, number: Int, run: ReportInput.FuzzRun, survey: (any Survey)?) -> String {
        let finding = item.finding
        let tone = item.fails ? "status-failed" : "status-pending"
        var html = HTML.element(
            "h3", [],
            HTML.text("span", [("class", "badge \(tone)")], item.fails ? "fails" : "warning") + " "
                + HTML.escape("\(finding.kind.rawValue): \(finding.property)") + (finding.question.map { " " + HTML.text("code", [], $0) } ?? ""))
        html += HTML.text("p", [], finding.message)
        html += HTML.element(
            "p", [("class", "muted")],
            HTML.escape("found in \(item.walks) walk\(item.walks == 1 ? "" : "s"), first in walk \(item.firstWalk); shrunk to \(item.scenario.lines.filter { if case .action? = $0.statement { true } else { false } }.count) actions · replay token ")
                + HTML.text("code", [], item.token))
        html += HTML.element("p", [], "replay: " + HTML.text("code", [], item.replayCommand))
        html += HTML.element("details", [], HTML.text("summary", [], "The shrunk scenario as a file") + HTML.text("pre", [], item.scenario.text))
        if let survey {
            let record = SessionRecord.replay(item.scenario, survey: survey)
            html += SessionView(record: record, comparison: nil, anchor: "\(Self.anchor(run))-\(number)-").html
        }
        return HTML.element("section", [("class", "finding")], html)
    }
}
