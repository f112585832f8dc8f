import SurveyCore

/// One scenario: its status, what it checks, the survey and settings it runs with, and the session step by
/// step as the respondent saw it; for a scenario that differs from its golden, both side by side.
struct ScenarioPage {
    let entry: ScenarioEntry
    let context: ReportContext

    var html: String {
        let report = entry.report
        let depth = 1
        var body = HTML.text("h1", [], report.name) + " " + entry.status.badge
        if let purpose = entry.record?.purpose { body += HTML.text("p", [("class", "lede")], purpose) }
        var facts: [String] = [HTML.text("code", [], report.scenarioPath)]
        if let surveyPath = entry.surveyPath {
            let format = context.surveys[surveyPath]?.format ?? ""
            facts.append("survey " + HTML.link(ReportPage.href(context.surveyPage(surveyPath), depth: depth), HTML.escape(ReportBuilder.displayPath(surveyPath))) + HTML.escape(" (\(format))"))
        }
        if let settings = entry.record?.scenario.settings {
            facts.append(HTML.escape("today \(settings.today)"))
            if let profile = settings.profile { facts.append(HTML.escape("profile \(profile)")) }
            for (name, value) in settings.options.sorted(by: { $0.key < $1.key }) { facts.append(HTML.escape("option \(name) \(value)")) }
        }
        facts.append("golden " + HTML.text("code", [], report.goldenPath))
        body += HTML.element("p", [("class", "muted")], facts.joined(separator: " · "))

        if let divergence = entry.divergence {
            body += HTML.element(
                "div", [("class", "callout")],
                HTML.escape("This run differs from the golden: \(divergence.description). ")
                    + HTML.link("#" + SuitePage.anchor(of: divergence), "Go to the first divergence")
                    + HTML.escape(entry.status == .pending ? ". A .snap.new awaits review: survey-replay review --accept or --reject." : ". To accept this run: survey-replay test --record failed \(report.scenarioPath)"))
        }
        for problem in report.invalid {
            body += HTML.element("div", [("class", "callout")], HTML.text("code", [], problem.description))
        }
        if !report.expectationFailures.isEmpty {
            body += HTML.element(
                "div", [("class", "callout")],
                HTML.text("b", [], "Expectations that failed") + HTML.element("ul", [], report.expectationFailures.map { HTML.text("li", [], $0.description) }.joined()))
        }
        if entry.status == .noGolden {
            body += HTML.text("div", [("class", "callout note")], "No golden yet: record one with survey-replay test \(report.scenarioPath) (outside CI).")
        }
        if let record = entry.record {
            var comparison: SessionView.Comparison?
            if case .mismatched(let divergence, let golden, _)? = report.golden {
                comparison = SessionView.Comparison(golden: golden, new: report.newText ?? "", divergence: divergence)
            }
            body += HTML.text("h2", [], "The session, step by step")
            body += HTML.text(
                "p", [("class", "lede")],
                "Each step shows the action, how the engine took it, what appeared (green) and disappeared (red, struck through), then every question on screen with its text, type, options and stored answer; the current question is marked in blue."
                    + (comparison == nil ? "" : " Where the golden differs, it is shown beside this run, lines only one side has highlighted."))
            body += SessionView(record: record, comparison: comparison, anchor: "").html
        }
        return ReportPage(title: "\(report.name) — SurveyReplay", depth: depth, body: body).html
    }
}
