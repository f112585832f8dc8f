import SurveyCore

/// A session as a respondent saw it, step by step: the action in words, the engine's answer (refusals and
/// validation messages with their text), events, what appeared and disappeared, then every visible
/// question with its text, type, options and stored answer, and at the end the payload. For a scenario
/// whose golden differs, each step also shows the golden and this run side by side, the first divergence
/// marked.
struct SessionView {
    /// The golden text and this run's text, for a scenario that does not match its golden.
    struct Comparison {
        let golden: String
        let new: String
        let divergence: Divergence
    }

    let record: SessionRecord
    let comparison: Comparison?
    /// A prefix for element ids, so several sessions can share a page (the fuzz page).
    let anchor: String

    var html: String {
        var parts: [String] = []
        let trace = record.result.trace
        let goldenBlocks = comparison.map { Self.blocksByHeading($0.golden) } ?? [:]
        let newBlocks = comparison.map { Self.blocksByHeading($0.new) } ?? [:]
        let divergentKey = comparison.map { Self.key(of: $0.divergence) }

        func sideBySide(_ key: String) -> String {
            guard comparison != nil, goldenBlocks[key] != nil || newBlocks[key] != nil else { return "" }
            if goldenBlocks[key] == newBlocks[key] { return HTML.text("p", [("class", "muted")], "Same as the golden.") }
            return Self.sideBySide(golden: goldenBlocks[key] ?? [], new: newBlocks[key] ?? [])
        }

        parts.append(step(
            key: "start", heading: HTML.text("span", [("class", "n")], "Before the first action"), details: Self.events(trace.startEvents),
            screen: screen(record.screens.first ?? [], previous: nil, view: trace.start, before: []), extra: sideBySide("start"),
            diverges: divergentKey == "start"))
        var previous = trace.start
        for step in trace.steps {
            let screen = step.number < record.screens.count ? record.screens[step.number] : []
            let previousScreen = record.screens[step.number - 1]
            var details = ""
            if let message = step.outcome.message {
                details += HTML.text("p", [("class", "message")], message)
            }
            details += Self.events(step.events)
            details += changes(from: previous, to: step.view, previousScreen: previousScreen)
            let heading = HTML.text("span", [("class", "n")], "Step \(step.number)") + " "
                + HTML.text("span", [], Self.describe(step.action, in: previousScreen + screen)) + " "
                + HTML.text("code", [("class", "muted")], step.actionText) + " " + Self.outcomeBadge(step.outcome)
            parts.append(self.step(
                key: "step \(step.number)", heading: heading, details: details, screen: self.screen(screen, previous: previous, view: step.view, before: previousScreen),
                extra: sideBySide("step \(step.number)"), diverges: divergentKey == "step \(step.number)"))
            previous = step.view
        }
        if comparison != nil {
            let stepKeys = Set(goldenBlocks.keys).subtracting(newBlocks.keys).filter { $0.hasPrefix("step ") }
            for key in stepKeys.sorted(by: { Self.stepNumber($0) < Self.stepNumber($1) }) {
                parts.append(step(
                    key: key, heading: HTML.text("span", [("class", "n")], key.capitalizedFirst + " (only in the golden)"), details: "",
                    screen: "", extra: Self.sideBySide(golden: goldenBlocks[key] ?? [], new: []), diverges: divergentKey == key))
            }
        }
        var payload = HTML.text("h3", [("id", "\(anchor)payload")], "Payload")
        if let value = trace.payload {
            payload += HTML.text("pre", [("class", "payload")], CanonicalJSON.pretty(value))
        } else {
            payload += HTML.text("p", [("class", "muted")], "No payload: the session did not produce one (nothing was submitted).")
        }
        if comparison != nil, goldenBlocks["payload"] != newBlocks["payload"] {
            payload = HTML.element("div", [("class", divergentKey == "payload" ? "step diverges" : "step")], payload + sideBySide("payload"))
        }
        parts.append(payload)
        return parts.joined(separator: "\n")
    }

    /// The events of a step (or of the session's start, as C3-PRO's preparation errors), one a line.
    private static func events(_ events: [TraceEvent]) -> String {
        guard !events.isEmpty else { return "" }
        return HTML.element("ul", [("class", "events")], events.map { event in
            HTML.element("li", [], "event " + HTML.text("b", [], event.name) + (event.detail.map { " " + HTML.text("code", [], CanonicalJSON.compact($0)) } ?? ""))
        }.joined())
    }

    private func step(key: String, heading: String, details: String, screen: String, extra: String, diverges: Bool) -> String {
        let id = anchor + key.replacingOccurrences(of: " ", with: "-")
        let marker = diverges ? HTML.text("p", [("class", "callout")], "First divergence from the golden: this is where what the respondent sees first differs.") : ""
        return HTML.element(
            "section", [("class", diverges ? "step diverges" : "step"), ("id", id)],
            HTML.element("div", [("class", "step-head")], heading) + marker + details + screen + extra)
    }

    /// What appeared and disappeared, highlighted.
    private func changes(from previous: Trace.View, to view: Trace.View, previousScreen: [SessionRecord.ShownQuestion]) -> String {
        let before = Set(previous.visible)
        let after = Set(view.visible)
        let appeared = view.visible.filter { !before.contains($0) }
        let disappeared = previous.visible.filter { !after.contains($0) }
        var items: [String] = []
        let texts = Dictionary(previousScreen.map { ($0.id, $0.prompt?.text) }, uniquingKeysWith: { first, _ in first })
        for id in appeared { items.append(HTML.element("li", [("class", "appears")], "appears: " + HTML.text("span", [("class", "id")], id))) }
        for id in disappeared {
            let text = texts[id].flatMap { $0 }.map { " " + HTML.text("span", [], "(\($0))") } ?? ""
            items.append(HTML.element("li", [("class", "disappears")], "disappears: " + HTML.text("span", [("class", "id")], id) + text))
        }
        if view.submittable != previous.submittable {
            items.append(HTML.text("li", [("class", view.submittable ? "appears" : "disappears")], view.submittable ? "Submit appears" : "Submit disappears"))
        }
        return items.isEmpty ? "" : HTML.element("ul", [("class", "changes")], items.joined())
    }

    /// The visible questions in display order, the current one and those that just appeared marked; a
    /// question that was on screen before with the same answer, and is not current, takes one line.
    private func screen(_ questions: [SessionRecord.ShownQuestion], previous: Trace.View?, view: Trace.View, before earlier: [SessionRecord.ShownQuestion]) -> String {
        let before = previous.map { Set($0.visible) }
        let earlierAnswers = Dictionary(earlier.map { ($0.id, $0.answer) }, uniquingKeysWith: { first, _ in first })
        var items: [String] = []
        for question in questions {
            var classes = ["question"]
            let isCurrent = question.id == view.current
            if isCurrent { classes.append("current") }
            if let before, !before.contains(question.id) { classes.append("new") }
            let unchanged = !isCurrent && earlierAnswers[question.id].map { $0 == question.answer } == true
            if unchanged { classes.append("same") }
            let depth = question.id.split(separator: "/").count - 1
            let style = depth > 0 ? "margin-left: \(depth * 22)px" : nil
            let content = unchanged ? Self.compact(question) : Self.question(question, isCurrent: isCurrent)
            items.append(HTML.element("li", [("class", classes.joined(separator: " ")), ("style", style)], content))
        }
        var html = items.isEmpty
            ? HTML.text("p", [("class", "muted")], "Nothing is on screen.")
            : HTML.element("ol", [("class", "screen")], items.joined())
        if view.submittable { html += HTML.text("span", [("class", "submit")], "Submit is shown") }
        return html
    }

    /// A question unchanged since the step before: its text and answer on one line.
    static func compact(_ question: SessionRecord.ShownQuestion) -> String {
        var html = HTML.text("span", [("class", "text")], question.prompt?.text ?? question.id) + " " + HTML.text("span", [("class", "id muted")], question.id)
        if let answer = question.answer, answer != .null { html += " · " + HTML.text("code", [], CanonicalJSON.compact(answer)) }
        return html
    }

    static func question(_ question: SessionRecord.ShownQuestion, isCurrent: Bool) -> String {
        let prompt = question.prompt
        var html = HTML.text("div", [("class", "text")], prompt?.text ?? question.id)
        var meta = [HTML.text("span", [("class", "id")], question.id)]
        if let kind = prompt?.kind { meta.append(HTML.escape(kind)) }
        if isCurrent { meta.append(HTML.text("b", [], "current")) }
        html += HTML.element("div", [("class", "meta")], meta.joined(separator: " · "))
        let picked = question.answer.map(answerTokens) ?? []
        if let choices = prompt?.choices, !choices.isEmpty {
            html += HTML.element("ul", [("class", "options")], choices.map { choice in
                let isPicked = picked.contains { token in
                    choice == token || choice.hasPrefix(token + " ") || choice.hasPrefix(token + ":") || choice.hasSuffix("(\(token))")
                }
                return HTML.text("li", [("class", isPicked ? "picked" : nil)], choice)
            }.joined())
        }
        if let answer = question.answer, answer != .null {
            html += HTML.element("div", [("class", "answer")], "answer: " + HTML.text("code", [], CanonicalJSON.compact(answer)))
        }
        return html
    }

    /// The strings in an answer that can name an option: its strings and numbers, and the code, display,
    /// value or id of its objects.
    private static func answerTokens(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .number, .bool: [CanonicalJSON.compact(value)]
        case .array(let items): items.flatMap(answerTokens)
        case .object(let members):
            ["code", "display", "value", "id"].compactMap { members[$0] }.flatMap(answerTokens) + members.keys.sorted()
        case .null: []
        }
    }

    static func outcomeBadge(_ outcome: Outcome) -> String {
        switch outcome {
        case .ok: HTML.text("span", [("class", "badge outcome-ok")], "ok")
        case .rejected: HTML.text("span", [("class", "badge outcome-rejected")], "refused")
        case .validationFailed: HTML.text("span", [("class", "badge outcome-validation")], "validation failed")
        case .doesNotFit: HTML.text("span", [("class", "badge status-stale")], "does not fit the survey")
        }
    }

    /// The action as a sentence, naming questions by their text where the screen shows it.
    static func describe(_ action: Action, in screen: [SessionRecord.ShownQuestion]) -> String {
        func name(_ id: String) -> String {
            if let text = screen.first(where: { $0.id == id })?.prompt?.text, !text.isEmpty { return "“\(text)”" }
            return "'\(id)'"
        }
        switch action {
        case .answer(let question, let value): return "Answers \(name(question)) with \(CanonicalJSON.compact(value))"
        case .clear(let question): return "Clears the answer to \(name(question))"
        case .next(let question): return question.map { "Taps Next on \(name($0))" } ?? "Taps Next"
        case .back: return "Goes back"
        case .goto(let question): return "Scrolls to \(name(question))"
        case .submit: return "Taps Submit"
        case .hostCondition(let key, let outcome): return "The app answers the custom condition '\(key)' with \(outcome)"
        case .add(let group): return "Adds an instance of \(name(group))"
        case .remove(let instance): return "Removes \(name(instance))"
        case .skip(let question): return question.map { "Skips \(name($0))" } ?? "Skips the current step"
        case .app(let event):
            switch event {
            case .launch: return "Launches the app"
            case .foreground: return "Brings the app to the foreground"
            case .wait(let seconds): return "Waits \(ScenarioSyntax.duration(seconds))"
            case .consent(let choice): return "Answers the consent sheet: \(choice.rawValue)"
            case .quit: return "Leaves the questionnaire unfinished"
            case .resume: return "Opens the questionnaire again"
            }
        }
    }

    /// The golden's block at one place and this run's, line by line; lines only one side has are marked.
    static func sideBySide(golden: [String], new: [String]) -> String {
        func column(_ title: String, _ lines: [String], against other: [String]) -> String {
            let others = Set(other)
            let body = lines.map { line in
                others.contains(line) ? HTML.escape(line) + "\n" : HTML.text("span", [("class", "changed")], line)
            }.joined()
            return HTML.element("div", [], HTML.text("h4", [], title) + HTML.element("pre", [], lines.isEmpty ? HTML.escape("(nothing)") : body))
        }
        return HTML.element("div", [("class", "sidebyside")], column("golden", golden, against: new) + column("this run", new, against: golden))
    }

    /// A golden text's blocks by heading: `start`, `step N`, `payload`.
    static func blocksByHeading(_ text: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for block in Divergence.blocks(text) {
            guard let heading = block.first else { continue }
            if heading == "start" {
                result["start"] = block
            } else if heading.hasPrefix("step "), let colon = heading.firstIndex(of: ":") {
                result[String(heading[..<colon])] = block
            } else if heading.hasPrefix("payload") {
                result["payload"] = block
            }
        }
        return result
    }

    static func key(of divergence: Divergence) -> String {
        switch divergence.place {
        case .header: "header"
        case .start: "start"
        case .step(let number, _), .length(let number): "step \(number)"
        case .payload: "payload"
        }
    }

    private static func stepNumber(_ key: String) -> Int { Int(key.dropFirst(5)) ?? 0 }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
