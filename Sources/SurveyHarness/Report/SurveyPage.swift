import SurveyCore

/// One survey as its author knows it: the questions in order with their text and conditions, each branch of
/// the skip logic coloured by coverage (taken, reached but not taken, never reached, impossible with the
/// reason) and linked to the scenario that first takes it, MC/DC pairs per `and`/`or` tree, the skip-logic
/// graph, how sessions end, and the lint findings.
struct SurveyPage {
    let entry: SurveyEntry
    let scenarios: [ScenarioEntry]
    let context: ReportContext

    private let depth = 1

    var html: String {
        let name = ReportBuilder.displayPath(entry.path)
        var body = HTML.text("h1", [], name) + " " + HTML.text("span", [("class", "badge status-obsolete")], entry.format)
        guard let survey = entry.survey, let report = entry.coverage else {
            body += HTML.text("p", [("class", "callout")], "This file does not load as a survey; the findings below say why.")
            body += lintSection
            return ReportPage(title: "\(name) — SurveyReplay", depth: depth, body: body).html
        }
        let (possible, taken, impossible) = report.totals
        let mcdc = report.mcdcTotals
        let users = scenarios.filter { $0.surveyPath == entry.path }
        body += HTML.element(
            "p", [("class", "lede")],
            HTML.escape("\(survey.questionIDs.count) questions · branches taken \(taken) of \(possible) that can happen")
                + (impossible > 0 ? HTML.escape(" (\(impossible) impossible, not counted)") : "") + " " + SuitePage.percentBar(report.percent)
                + HTML.escape(" · MC/DC \(mcdc.shown)/\(mcdc.leaves) leaves · \(users.count) scenario\(users.count == 1 ? "" : "s")") + " · lint " + SuitePage.lintCounts(entry.lint))
        body += legend
        let prompts = Dictionary(survey.questionIDs.map { ($0, survey.prompt(for: $0, settings: SessionSettings())) }, uniquingKeysWith: { first, _ in first })
        let graph = SkipLogicGraph(report: report) { prompts[$0]??.text }
        body += HTML.text("h2", [("id", "graph")], "Skip-logic graph")
        body += HTML.text(
            "p", [("class", "lede")],
            "Questions from top to bottom in survey order. Under each question, the conditions that decide it, all-of and any-of trees kept; each condition gets one edge from the question it reads. Hover for details.")
        body += HTML.element("div", [("class", "graph")], SkipLogicSVG(graph: graph).svg)
        body += HTML.text("h2", [("id", "questions")], "Questions and their branches, in survey order")
        let indexOf = Dictionary(report.branches.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let sections = Sections(report: report, indexOf: indexOf, page: self)
        for question in graph.questions {
            body += sections.card(question, prompt: prompts[question.id] ?? nil, graph: graph)
        }
        let terminals = report.branches.enumerated().filter { $0.element.kind == .terminal }
        if !terminals.isEmpty {
            body += HTML.text("h2", [("id", "endings")], "How sessions end")
            body += HTML.element("ul", [], terminals.map { index, branch in
                HTML.element("li", [], HTML.escape(branch.description) + " " + badge(branch, index: index, label: Self.status(branch.status)))
            }.joined())
        }
        body += lintSection
        return ReportPage(title: "\(name) — SurveyReplay", depth: depth, body: body).html
    }

    private var legend: String {
        let items: [(String, String, String)] = [
            ("cov-taken", "taken", "a scenario or walk took this branch; the link names the first scenario that did"),
            ("cov-not-taken", "reached, not taken", "its decision was evaluated, but never came out this way"),
            ("cov-not-reached", "never reached", "its decision was never evaluated"),
            ("cov-impossible", "impossible", "it can never happen, for the reason given (not counted)"),
        ]
        return HTML.element(
            "ul", [("class", "counts legend")],
            items.map { HTML.element("li", [], HTML.text("span", [("class", "badge \($0.0)")], $0.1) + " " + HTML.text("span", [("class", "muted")], $0.2)) }.joined())
    }

    static func status(_ status: CoverageReport.Status) -> String {
        switch status {
        case .taken(let count): "taken \(count)×"
        case .notTaken: "reached, not taken"
        case .notReached: "never reached"
        case .impossible(let reason): "impossible: \(reason)"
        }
    }

    static func statusClass(_ status: CoverageReport.Status) -> String {
        switch status {
        case .taken: "cov-taken"
        case .notTaken: "cov-not-taken"
        case .notReached: "cov-not-reached"
        case .impossible: "cov-impossible"
        }
    }

    /// A branch's mark: its outcome and status, with where it is and the scenario that first took it.
    func badge(_ branch: CoverageReport.Branch, index: Int, label: String) -> String {
        let place = "\(ReportBuilder.displayPath(entry.path)):\(branch.location.position)"
        var html = HTML.text(
            "span", [("class", "badge \(Self.statusClass(branch.status))"), ("title", "\(branch.description) — \(Self.status(branch.status)) — \(place)"), ("data-branch", branch.id)],
            label)
        switch entry.firstTaker[index] {
        case .scenario(let name)?:
            html += " " + HTML.link(ReportPage.href(context.scenarioPage(name), depth: depth), HTML.escape("first: \(name)"), class: "muted")
        case .walks(let count, let seed)?:
            html += " " + HTML.text("span", [("class", "muted")], "first: random walks (\(count), seed \(seed))")
        case nil:
            break
        }
        return html
    }

    private var lintSection: String {
        let html = HTML.text("h2", [("id", "lint")], "Lint")
        let findings = entry.loadErrors.isEmpty ? entry.lint : entry.loadErrors + entry.lint.filter { !entry.loadErrors.contains($0) }
        guard !findings.isEmpty else { return html + HTML.text("p", [("class", "muted")], "No findings.") }
        let head = HTML.element("tr", [], ["severity", "where", "rule", "finding"].map { HTML.text("th", [], $0) }.joined())
        let rows = findings.map { finding -> String in
            let tone = finding.severity == .error ? "status-failed" : finding.severity == .warning ? "status-pending" : "status-obsolete"
            let place = finding.position.map { "\($0)" } ?? ""
            var text = HTML.escape(finding.message)
            if let hint = finding.hint { text += HTML.element("div", [("class", "muted")], "hint: " + HTML.escape(hint)) }
            let cells = [HTML.text("span", [("class", "badge \(tone)")], finding.severity.rawValue), HTML.text("code", [], place), HTML.text("code", [], finding.rule ?? ""), text]
            return HTML.element("tr", [], cells.map { HTML.element("td", [], $0) }.joined())
        }
        return html + HTML.element("table", [], HTML.element("thead", [], head) + HTML.element("tbody", [], rows.joined()))
    }
}

/// The per-question cards of a survey page.
private struct Sections {
    let report: CoverageReport
    let indexOf: [String: Int]
    let page: SurveyPage

    func branch(_ id: String, label: String) -> String {
        guard let index = indexOf[id] else { return "" }
        let branch = report.branches[index]
        return page.badge(branch, index: index, label: (label.isEmpty ? "" : "\(label): ") + SurveyPage.status(branch.status))
    }

    func card(_ question: SkipLogicGraph.Question, prompt: QuestionPrompt?, graph: SkipLogicGraph) -> String {
        var html = HTML.text("h3", [], prompt?.text ?? question.id)
        var meta = [HTML.text("span", [("class", "id")], question.id)]
        if let kind = prompt?.kind { meta.append(HTML.escape(kind)) }
        if !question.isQuestion { meta.append(HTML.escape("decided by the app or the engine, not a question")) }
        html += HTML.element("div", [("class", "meta muted")], meta.joined(separator: " · "))
        if let choices = prompt?.choices, !choices.isEmpty {
            html += HTML.element("ul", [("class", "options")], choices.map { HTML.text("li", [], $0) }.joined())
        }
        if let planIndex = report.plan.questions.firstIndex(where: { $0.id == question.id }) {
            html += HTML.element("div", [("class", "branches")], branch("question:\(planIndex):shown", label: "shown") + branch("question:\(planIndex):answered", label: "answered"))
            if let reason = question.reason { html += HTML.text("p", [("class", "muted")], "Can never be shown: \(reason)") }
        }
        for decision in graph.decisions where decision.question == question.id {
            html += HTML.element(
                "div", [("class", "decision")],
                HTML.element("p", [], HTML.text("b", [], decision.kind) + " " + branch("decision:\(decision.index):true", label: "true") + " " + branch("decision:\(decision.index):false", label: "false"))
                    + HTML.element("ul", [("class", "tree")], tree(decision.root)) + mcdc(decision.index))
        }
        let validations = report.branches.filter { $0.kind == .validation && $0.question == question.id }
        if !validations.isEmpty {
            html += HTML.text("p", [], "Validations")
            html += HTML.element("ul", [], validations.map { branch in
                HTML.element("li", [], HTML.escape(branch.description) + " " + self.branch(branch.id, label: ""))
            }.joined())
        }
        let choices = report.branches.filter { $0.kind == .choice && $0.question == question.id }
        if !choices.isEmpty {
            html += HTML.element("div", [("class", "branches")], choices.map { branch in
                self.branch(branch.id, label: String(branch.description.dropLast(" picked".count)))
            }.joined(separator: " "))
        }
        return HTML.element("section", [("class", "survey-q"), ("id", "q-" + question.id)], html)
    }

    private func tree(_ node: SkipLogicGraph.Node) -> String {
        switch node {
        case .leaf(let leaf):
            return HTML.element(
                "li", [], HTML.text("code", [], leaf.description) + " " + branch("leaf:\(leaf.index):true", label: "true") + " " + branch("leaf:\(leaf.index):false", label: "false")
                    + notEvaluable(leaf.index))
        case .all(let children), .any(let children):
            let name = if case .all = node { "all of (and)" } else { "any of (or)" }
            return HTML.element("li", [], HTML.text("span", [("class", "op")], name) + HTML.element("ul", [], children.map(tree).joined()))
        case .constant(let value):
            return HTML.text("li", [], value ? "always true" : "always false")
        }
    }

    private func notEvaluable(_ leaf: Int) -> String {
        let count = report.notEvaluable[leaf]
        return count > 0 ? " " + HTML.text("span", [("class", "muted")], "(read unanswered \(count)×, counted apart)") : ""
    }

    /// For an and/or tree: per leaf, the pair of evaluations showing it decides on its own, or that none was seen.
    private func mcdc(_ decision: Int) -> String {
        guard let result = report.mcdc.first(where: { $0.decision == decision }) else { return "" }
        let leaves = result.leaves.map(\.leaf)
        let head = HTML.element("tr", [], (["MC/DC: leaf", "shown to decide on its own?"] + ["pair (leaf values → decision)"]).map { HTML.text("th", [], $0) }.joined())
        let rows = result.leaves.map { leaf, pair -> String in
            let description = report.plan.leaves[leaf].description
            let verdict = pair == nil
                ? HTML.text("span", [("class", "badge cov-not-taken")], "no pair yet")
                : HTML.text("span", [("class", "badge cov-taken")], "yes")
            let pairText = pair.map { "\(Self.row($0.first, leaves: leaves.count))  vs  \(Self.row($0.second, leaves: leaves.count))" } ?? "needs two evaluations that differ only in this leaf and in the decision"
            return HTML.element("tr", [], [HTML.text("code", [], description), verdict, HTML.text("code", [], pairText)].map { HTML.element("td", [], $0) }.joined())
        }
        let order = leaves.map { report.plan.leaves[$0].description }.enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "; ")
        return HTML.element("table", [("class", "mcdc")], HTML.element("thead", [], head) + HTML.element("tbody", [], rows.joined()))
            + HTML.text("p", [("class", "muted")], "Leaf order in the pairs: \(order). T true, F false, – not evaluated (short-circuit), ? read unanswered.")
    }

    private static func row(_ values: [UInt8], leaves: Int) -> String {
        let marks = values.prefix(leaves).map { value -> String in
            switch CoverageRecorder.LeafValue(rawValue: value) {
            case .true?: "T"
            case .false?: "F"
            case .skipped?: "–"
            case .unansweredTrue?, .unansweredFalse?, nil: "?"
            }
        }
        return marks.joined(separator: " ") + " → " + (values.last == 1 ? "true" : "false")
    }
}
