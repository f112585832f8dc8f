import SurveyCore

/// The site's first page: every scenario with its status and, for each failure, where it first parts from
/// its golden; obsolete goldens; every survey with its coverage and lint counts; the fuzz runs.
struct SuitePage {
    let input: ReportInput
    let scenarios: [ScenarioEntry]
    let surveys: [SurveyEntry]
    let notes: [Diagnostic]
    let context: ReportContext

    var html: String {
        var body = HTML.text("h1", [], input.title)
        let obsolete = input.suite?.obsolete ?? []
        var counts: [String] = []
        if input.suite != nil {
            body += HTML.text(
                "p", [("class", "lede")],
                "\(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") replayed against their goldens, \(surveys.count) survey\(surveys.count == 1 ? "" : "s") drawn with their skip-logic coverage.")
            for status in ScenarioEntry.Status.allCases {
                let number = status == .obsolete ? obsolete.count : scenarios.filter { $0.status == status }.count
                guard number > 0 || status == .passed || status == .failed else { continue }
                counts.append(HTML.element("li", [("class", "count-\(status.rawValue)")], HTML.text("b", [], String(number)) + status.badge))
            }
        } else {
            body += HTML.text("p", [("class", "lede")], "\(surveys.count) survey\(surveys.count == 1 ? "" : "s") drawn with their skip-logic coverage.")
        }
        if !counts.isEmpty { body += HTML.element("ul", [("class", "counts")], counts.joined()) }
        if input.suite != nil { body += scenarioTable + obsoleteList(obsolete) }
        body += surveyTable
        if !input.fuzz.isEmpty { body += fuzzSummary }
        let problems = (input.suite?.problems ?? []) + notes
        if !problems.isEmpty {
            body += HTML.text("h2", [], "Problems")
            body += HTML.element("ul", [], problems.map { HTML.text("li", [], $0.description) }.joined())
        }
        if !input.otherFiles.isEmpty {
            body += HTML.text("h2", [], "Other files (not surveys)")
            body += HTML.element("ul", [], input.otherFiles.map { HTML.text("li", [("class", "muted")], $0.description) }.joined())
        }
        return ReportPage(title: input.title, depth: 0, body: body).html
    }

    private var scenarioTable: String {
        var html = HTML.text("h2", [("id", "scenarios")], "Scenarios")
        let options = [HTML.text("option", [("value", "")], "every status")]
            + ScenarioEntry.Status.allCases.filter { $0 != .obsolete }.map { HTML.text("option", [("value", $0.rawValue)], $0.label) }
        html += HTML.element(
            "div", [("class", "filters"), ("id", "scenario-filter"), ("hidden", "hidden")],
            HTML.empty("input", [("type", "search"), ("placeholder", "Filter scenarios by name, survey or text"), ("aria-label", "filter")])
                + HTML.element("select", [("aria-label", "status")], options.joined()))
        let head = HTML.element("tr", [], ["status", "scenario", "survey", "steps", "what it checks", "first divergent step or problem"].map { HTML.text("th", [], $0) }.joined())
        let rows = scenarios.map { entry -> String in
            let page = ReportPage.href(context.scenarioPage(entry.report.name), depth: 0)
            let survey = entry.surveyPath.map { HTML.link(ReportPage.href(context.surveyPage($0), depth: 0), HTML.escape(ReportBuilder.displayPath($0))) } ?? ""
            var problem = entry.problem.map(HTML.escape) ?? ""
            if let divergence = entry.divergence {
                problem = HTML.link(page + "#" + Self.anchor(of: divergence), problem)
            }
            let cells = [
                entry.status.badge,
                HTML.link(page, HTML.escape(entry.report.name)),
                survey,
                entry.record.map { String($0.result.trace.steps.count) } ?? "",
                HTML.escape(entry.record?.purpose ?? ""),
                problem,
            ]
            return HTML.element("tr", [("data-status", entry.status.rawValue)], cells.map { HTML.element("td", [], $0) }.joined())
        }
        html += HTML.element("table", [("data-filterable", "scenario-filter"), ("id", "scenario-table")], HTML.element("thead", [], head) + HTML.element("tbody", [], rows.joined()))
        return html
    }

    static func anchor(of divergence: Divergence) -> String {
        SessionView.key(of: divergence).replacingOccurrences(of: " ", with: "-")
    }

    private func obsoleteList(_ obsolete: [String]) -> String {
        guard !obsolete.isEmpty else { return "" }
        return HTML.text("h2", [("id", "obsolete")], "Obsolete goldens")
            + HTML.text("p", [("class", "lede")], "These goldens (or pending .snap.new files) have no scenario any more: delete them, or restore their scenario.")
            + HTML.element("ul", [], obsolete.map { HTML.element("li", [("data-status", "obsolete")], ScenarioEntry.Status.obsolete.badge + " " + HTML.text("code", [], $0)) }.joined())
    }

    private var surveyTable: String {
        var html = HTML.text("h2", [("id", "surveys")], "Surveys")
        let head = HTML.element("tr", [], ["survey", "format", "questions", "branches taken", "MC/DC", "lint"].map { HTML.text("th", [], $0) }.joined())
        let rows = surveys.map { entry -> String in
            let link = HTML.link(ReportPage.href(context.surveyPage(entry.path), depth: 0), HTML.escape(ReportBuilder.displayPath(entry.path)))
            var cells = [link, HTML.escape(entry.format)]
            if let coverage = entry.coverage {
                let (possible, taken, impossible) = coverage.totals
                let mcdc = coverage.mcdcTotals
                cells.append(String(entry.survey?.questionIDs.count ?? 0))
                cells.append(Self.percentBar(coverage.percent) + HTML.escape(" \(taken)/\(possible)" + (impossible > 0 ? " (\(impossible) impossible)" : "")))
                cells.append(mcdc.leaves == 0 ? HTML.text("span", [("class", "muted")], "no and/or trees") : HTML.escape("\(mcdc.shown)/\(mcdc.leaves) leaves"))
            } else {
                cells.append("")
                cells.append(HTML.text("span", [("class", "badge status-error")], "does not load"))
                cells.append("")
            }
            cells.append(Self.lintCounts(entry.lint))
            return HTML.element("tr", [], cells.map { HTML.element("td", [], $0) }.joined())
        }
        html += HTML.element("table", [], HTML.element("thead", [], head) + HTML.element("tbody", [], rows.joined()))
        return html
    }

    static func percentBar(_ percent: Double) -> String {
        let width = Int(percent.rounded())
        let tone = percent >= 90 ? "cov-taken" : percent >= 60 ? "cov-not-taken" : "cov-not-reached"
        return HTML.element(
            "span", [("class", "badge \(tone)"), ("title", "branches taken of those that can happen")],
            HTML.escape(CoverageTable.format(percent) + "%")) + HTML.element("span", [("class", "bar"), ("style", "display:inline-block;width:60px;height:6px;background:#e5e5e5;margin:0 6px;vertical-align:middle")], HTML.element("span", [("style", "display:block;height:6px;width:\(width)%;background:currentColor"), ("class", tone)], ""))
    }

    static func lintCounts(_ findings: [Diagnostic]) -> String {
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        let notes = findings.filter { $0.severity == .note }.count
        var parts: [String] = []
        if errors > 0 { parts.append(HTML.text("span", [("class", "badge status-failed")], "\(errors) error\(errors == 1 ? "" : "s")")) }
        if warnings > 0 { parts.append(HTML.text("span", [("class", "badge status-pending")], "\(warnings) warning\(warnings == 1 ? "" : "s")")) }
        if notes > 0 { parts.append(HTML.text("span", [("class", "badge status-obsolete")], "\(notes) note\(notes == 1 ? "" : "s")")) }
        return parts.isEmpty ? HTML.text("span", [("class", "badge status-passed")], "clean") : parts.joined(separator: " ")
    }

    private var fuzzSummary: String {
        var html = HTML.text("h2", [("id", "fuzz")], "Random walks (fuzz)")
        let rows = input.fuzz.map { run -> String in
            let failing = run.findings.filter(\.fails).count
            let cells = [
                HTML.link(ReportPage.href("fuzz.html", depth: 0) + "#" + FuzzPage.anchor(run), HTML.escape(ReportBuilder.displayPath(run.surveyPath))),
                HTML.escape("\(run.walks) walks, seed \(run.seed)"),
                run.findings.isEmpty
                    ? HTML.text("span", [("class", "badge status-passed")], "no findings")
                    : HTML.escape("\(run.findings.count) finding\(run.findings.count == 1 ? "" : "s")") + (failing > 0 ? " " + HTML.text("span", [("class", "badge status-failed")], "\(failing) failing") : ""),
            ]
            return HTML.element("tr", [], cells.map { HTML.element("td", [], $0) }.joined())
        }
        html += HTML.element("table", [], HTML.element("tbody", [], rows.joined()))
        return html
    }
}
