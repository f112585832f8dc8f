import SurveyCore

/// The terminal report: per question whether it was seen shown and hidden and how many of its branches
/// were taken; then the totals, MC/DC, and every branch not taken with where it is.
public enum CoverageTable {
    public static func text(path: String, _ recorder: CoverageRecorder) -> String {
        let report = CoverageReport(recorder)
        let width = max(8, recorder.plan.questions.map(\.id.count).max() ?? 0)
        var lines = ["coverage of \(path)", "", "question".padded(to: width) + "  seen            branches"]
        for (index, question) in recorder.plan.questions.enumerated() {
            let counts = recorder.counts.questions[index]
            let seen = [counts[0] > 0 ? "shown" : nil, counts[1] > 0 ? "hidden" : nil].compactMap { $0 }.joined(separator: " + ")
            let mine = report.branches.filter { $0.question == question.id && !$0.status.isImpossible }
            let taken = mine.filter(\.status.isTaken).count
            lines.append(question.id.padded(to: width) + "  " + (seen.isEmpty ? "never" : seen).padded(to: 16) + "\(taken)/\(mine.count)")
        }
        let (possible, taken, impossible) = report.totals
        let mcdc = report.mcdcTotals
        lines.append("")
        lines.append("branches: \(taken)/\(possible) taken (\(format(report.percent))%)\(impossible > 0 ? "; \(impossible) impossible, not counted" : "")")
        lines.append("MC/DC: \(mcdc.shown)/\(mcdc.leaves) leaves of and/or trees shown to decide on their own")
        let notEvaluable = report.notEvaluable.reduce(0, +)
        if notEvaluable > 0 { lines.append("leaf evaluations on unanswered questions (not evaluable, counted apart): \(notEvaluable)") }
        let missed = report.branches.filter { !$0.status.isTaken }
        if !missed.isEmpty {
            lines.append("")
            lines.append("not taken:")
            for branch in missed {
                let why: String =
                    switch branch.status {
                    case .notReached: "never reached"
                    case .notTaken: "reached, not taken"
                    case .impossible(let reason): "impossible: \(reason)"
                    case .taken: ""
                    }
                lines.append("  \(path):\(branch.location.position): \(branch.description) (\(why))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func format(_ percent: Double) -> String {
        let tenths = Int((percent * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
