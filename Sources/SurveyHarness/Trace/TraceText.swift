import SurveyCore

extension Trace {
    /// The golden text: a header, a block for the start and for each step, then the payload as canonical
    /// JSON. Each block says what changed on screen (`appears:`, `disappears:`), so that a diff of two
    /// goldens reads as what a respondent now sees differently.
    public var text: String {
        var lines = ["survey \(ScenarioSyntax.id(survey)) (\(format))", "", "start"]
        lines += startEvents.map(Self.describe)
        lines += Self.describe(start, after: nil)
        var previous = start
        for step in steps {
            lines.append("")
            lines.append("step \(step.number): \(step.actionText)")
            lines.append("  " + step.outcome.goldenText)
            lines += step.events.map(Self.describe)
            lines += Self.describe(step.view, after: previous)
            previous = step.view
        }
        lines.append("")
        if let payload {
            lines.append("payload")
            lines.append(CanonicalJSON.pretty(payload))
        } else {
            lines.append("payload: none")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ event: TraceEvent) -> String {
        "  event: \(event.name)" + (event.detail.map { " " + CanonicalJSON.compact($0) } ?? "")
    }

    private static func describe(_ view: View, after previous: View?) -> [String] {
        var lines: [String] = []
        if let previous {
            let before = Set(previous.visible)
            let after = Set(view.visible)
            let appeared = view.visible.filter { !before.contains($0) }
            let disappeared = previous.visible.filter { !after.contains($0) }
            if !appeared.isEmpty { lines.append("  appears: " + appeared.map(ScenarioSyntax.id).joined(separator: " ")) }
            if !disappeared.isEmpty { lines.append("  disappears: " + disappeared.map(ScenarioSyntax.id).joined(separator: " ")) }
        }
        lines.append("  current: " + (view.current.map(ScenarioSyntax.id) ?? "none"))
        lines.append("  visible: " + view.visible.map(ScenarioSyntax.id).joined(separator: " "))
        if view.submittable { lines.append("  submit: shown") }
        return lines
    }
}

extension Outcome {
    var goldenText: String {
        switch self {
        case .ok: "ok"
        case .rejected(let reason): "rejected: \(reason)"
        case .validationFailed(let message): "validation failed: \(message)"
        case .doesNotFit(let reason): "does not fit the survey: \(reason)"
        }
    }
}
