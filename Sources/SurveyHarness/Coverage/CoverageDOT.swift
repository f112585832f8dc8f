import Foundation
import SurveyCore

/// A Graphviz picture of the skip logic: questions as nodes (by whether they were shown), each leaf
/// condition as an edge from the question it reads to the question it decides, coloured by coverage:
/// green both ways, orange one way, red never reached or never taken, grey impossible.
public enum CoverageDOT {
    /// One graph, each survey a cluster of its own.
    public static func text(_ surveys: [(path: String, recorder: CoverageRecorder)]) -> String {
        var lines = ["digraph \"skip logic\" {", "  rankdir=TB;", "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];"]
        for (number, survey) in surveys.enumerated() {
            lines.append("  subgraph \"cluster_\(number)\" {")
            lines.append("    label=\"\(escape(survey.path))\";")
            lines += cluster(number, path: survey.path, survey.recorder).map { "  " + $0 }
            lines.append("  }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func cluster(_ number: Int, path: String, _ recorder: CoverageRecorder) -> [String] {
        let plan = recorder.plan
        let report = CoverageReport(recorder)
        func node(_ id: String) -> String { "\"\(number):\(escape(id))\"" }
        var lines: [String] = []
        for (index, question) in plan.questions.enumerated() {
            let shown = recorder.counts.questions[index][0] > 0
            let answered = recorder.counts.questions[index][2] > 0
            let color = answered ? "#c8f7c5" : shown ? "#fff3b0" : "#f7c5c5"
            lines.append("  \(node(question.id)) [label=\"\(escape(question.id))\", fillcolor=\"\(color)\", tooltip=\"\(escape(path)):\(question.location.position)\"];")
        }
        for decision in plan.decisions {
            for leaf in decision.leafIndices {
                let statuses = report.branches.filter { $0.id == "leaf:\(leaf):true" || $0.id == "leaf:\(leaf):false" }.map(\.status)
                let taken = statuses.filter(\.isTaken).count
                let impossible = statuses.contains(where: \.isImpossible)
                let color = taken == 2 ? "#2e7d32" : taken == 1 ? (impossible ? "#2e7d32" : "#ef6c00") : impossible ? "#9e9e9e" : "#c62828"
                let source = plan.leaves[leaf].question
                lines.append("  \(node(source)) -> \(node(decision.question)) [label=\"\(escape(plan.leaves[leaf].description))\", color=\"\(color)\", fontcolor=\"\(color)\"];")
            }
        }
        return lines
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
