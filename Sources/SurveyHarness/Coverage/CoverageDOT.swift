import Foundation
import SurveyCore

/// A Graphviz picture of the skip logic (the same model as the report's SVG): questions top to bottom in
/// survey order, filled by how far respondents got; each decision's `and`/`or` tree kept as nodes, with one
/// edge per leaf condition from the question it reads; edges coloured by which outcomes were taken; and a
/// legend. `dot -Tsvg` renders it; the HTML report draws its own and does not need Graphviz.
public enum CoverageDOT {
    /// One graph, each survey a cluster of its own, then the legend.
    public static func text(_ surveys: [(path: String, recorder: CoverageRecorder)]) -> String {
        var lines = [
            "digraph \"skip logic\" {", "  rankdir=TB;", "  newrank=true;",
            "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];", "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for (number, survey) in surveys.enumerated() {
            lines.append("  subgraph \"cluster_\(number)\" {")
            lines.append("    label=\"\(escape(survey.path))\";")
            lines += cluster(number, SkipLogicGraph(report: CoverageReport(survey.recorder))).map { "    " + $0 }
            lines.append("  }")
        }
        lines += legend.map { "  " + $0 }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func cluster(_ number: Int, _ graph: SkipLogicGraph) -> [String] {
        func question(_ id: String) -> String { "\"\(number):\(escape(id))\"" }
        var lines: [String] = []
        for node in graph.questions {
            let (fill, stroke) = SkipLogicGraph.color(node.reach)
            let status = node.isQuestion ? node.reach.label + (node.reason.map { ": \($0)" } ?? "") : "decided by the app or the engine, not a question"
            let style = node.isQuestion ? "rounded,filled" : "rounded,filled,dashed"
            lines.append("\(question(node.id)) [label=\"\(escape(node.id))\", fillcolor=\"\(fill)\", color=\"\(stroke)\", style=\"\(style)\", tooltip=\"\(escape(status))\"];")
        }
        // Survey order: consecutive questions joined by invisible, heavy edges, so ranks follow the file.
        for (upper, lower) in zip(graph.questions, graph.questions.dropFirst()) {
            lines.append("\(question(upper.id)) -> \(question(lower.id)) [style=invis, weight=100];")
        }
        for decision in graph.decisions {
            var counter = 0
            // Returns the node an edge into this part of the tree ends at (nil for a constant).
            func emit(_ node: SkipLogicGraph.Node, into target: String, label: String?, color: String) {
                switch node {
                case .leaf(let leaf):
                    let leafColor = SkipLogicGraph.color(leaf.outcomes)
                    let style = leaf.outcomes == .never || leaf.outcomes == .impossible ? ", style=dashed" : ""
                    let text = (label.map { "\($0): " } ?? "") + leaf.description
                    lines.append(
                        "\(question(leaf.source)) -> \(target) [label=\"\(escape(text))\", color=\"\(leafColor)\", fontcolor=\"\(leafColor)\"\(style), tooltip=\"\(escape(leaf.detail))\"];")
                case .all(let children), .any(let children):
                    let name = if case .all = node { "all of" } else { "any of" }
                    let id = "\"\(number):d\(decision.index).\(counter)\""
                    counter += 1
                    lines.append("\(id) [label=\"\((label.map { "\($0)\\n" } ?? "") + name)\", shape=ellipse, style=filled, fillcolor=\"#f4f4f4\", color=\"\(color)\"];")
                    lines.append("\(id) -> \(target) [color=\"\(color)\", penwidth=\(label == nil ? 1 : 2)];")
                    for child in children { emit(child, into: id, label: nil, color: "#555555") }
                case .constant(let value):
                    lines.append("\"\(number):d\(decision.index).c\" [label=\"\(value ? "always true" : "always false")\", shape=plaintext];")
                    lines.append("\"\(number):d\(decision.index).c\" -> \(target) [color=\"\(color)\"];")
                }
            }
            emit(decision.root, into: question(decision.question), label: decision.kind, color: SkipLogicGraph.color(decision.outcomes))
        }
        return lines
    }

    /// What the colours mean, as a cluster of its own.
    private static var legend: [String] {
        var lines = ["subgraph \"cluster_legend\" {", "  label=\"legend\";", "  fontname=\"Helvetica\";"]
        for reach in SkipLogicGraph.Reach.allCases {
            let (fill, stroke) = SkipLogicGraph.color(reach)
            lines.append("  \"legend:\(reach.rawValue)\" [label=\"question \(reach.label)\", fillcolor=\"\(fill)\", color=\"\(stroke)\"];")
        }
        for (index, outcome) in SkipLogicGraph.Outcomes.allCases.enumerated() {
            let color = SkipLogicGraph.color(outcome)
            let style = outcome == .never || outcome == .impossible ? ", style=dashed" : ""
            lines.append("  \"legend:from\(index)\" [label=\"reads\", shape=plaintext, style=\"\"];")
            lines.append("  \"legend:to\(index)\" [label=\"decides\", shape=plaintext, style=\"\"];")
            lines.append("  \"legend:from\(index)\" -> \"legend:to\(index)\" [label=\"condition: \(outcome.label)\", color=\"\(color)\", fontcolor=\"\(color)\"\(style)];")
        }
        lines.append("  \"legend:operator\" [label=\"all of / any of: an and / or tree\", shape=ellipse, style=filled, fillcolor=\"#f4f4f4\"];")
        lines.append("}")
        return lines
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
