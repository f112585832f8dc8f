/// Draws a `SkipLogicGraph` as inline SVG with a layout of our own (no Graphviz needed): questions top to
/// bottom in survey order; under each question the trees of the decisions about it, `and`/`or` nodes kept,
/// one pill per leaf condition; and one edge per leaf from the question it reads, routed in its own lane
/// on the right so edges never run through questions. A legend explains the colours.
struct SkipLogicSVG {
    let graph: SkipLogicGraph

    private static let rowHeight = 28
    private static let left = 16
    private static let portX = 470
    private static let lanesStart = 492
    private static let laneGap = 9
    private static let legendHeight = 88

    private struct Row {
        enum Kind {
            case question(SkipLogicGraph.Question)
            case operatorNode(String, depth: Int, decision: SkipLogicGraph.Decision?)
            case leaf(SkipLogicGraph.Leaf, depth: Int, decision: SkipLogicGraph.Decision?)
        }
        let kind: Kind
        /// The row of the node this one hangs from (the question for a decision's root).
        let parent: Int?
    }

    var svg: String {
        var rows: [Row] = []
        var questionRow: [String: Int] = [:]
        for question in graph.questions {
            let row = rows.count
            questionRow[question.id] = questionRow[question.id] ?? row
            rows.append(Row(kind: .question(question), parent: nil))
            for decision in graph.decisions where decision.question == question.id {
                add(decision.root, depth: 0, parent: row, decision: decision, into: &rows)
            }
        }
        var edges: [(from: Int, to: Int, leaf: SkipLogicGraph.Leaf)] = []
        for (index, row) in rows.enumerated() {
            if case .leaf(let leaf, _, _) = row.kind, let source = questionRow[leaf.source] { edges.append((source, index, leaf)) }
        }
        let lanes = Self.lanes(edges.map { (min($0.from, $0.to), max($0.from, $0.to)) })
        let laneCount = (lanes.max() ?? -1) + 1
        let width = max(Self.lanesStart + laneCount * Self.laneGap + 16, 900)
        let height = Self.legendHeight + rows.count * Self.rowHeight + 12

        var parts: [String] = []
        parts.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"skip-logic graph\" font-family=\"system-ui, sans-serif\" font-size=\"12\">")
        parts.append("<defs>" + SkipLogicGraph.Outcomes.allCases.map { outcome in
            "<marker id=\"arrow-\(outcome.rawValue)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"\(SkipLogicGraph.color(outcome))\"/></marker>"
        }.joined() + "</defs>")
        parts.append(legend)
        // Edges first, so nodes are drawn over their ends.
        for (number, edge) in edges.enumerated() {
            let laneX = Self.lanesStart + lanes[number] * Self.laneGap
            let from = y(edge.from) - 4 + (number % 3) * 4
            let to = y(edge.to)
            let color = SkipLogicGraph.color(edge.leaf.outcomes)
            let dash = edge.leaf.outcomes == .never || edge.leaf.outcomes == .impossible ? " stroke-dasharray=\"5 3\"" : ""
            parts.append(
                "<path class=\"edge edge-\(edge.leaf.outcomes.rawValue)\" d=\"M\(Self.portX),\(from) H\(laneX) V\(to) H\(Self.portX + 2)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.6\"\(dash) marker-end=\"url(#arrow-\(edge.leaf.outcomes.rawValue))\">"
                    + title("\(edge.leaf.source) → \(edge.leaf.description): \(edge.leaf.detail)") + "</path>")
        }
        for (index, row) in rows.enumerated() {
            parts.append(draw(row, at: index, rows: rows))
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    private func add(_ node: SkipLogicGraph.Node, depth: Int, parent: Int, decision: SkipLogicGraph.Decision?, into rows: inout [Row]) {
        let row = rows.count
        switch node {
        case .leaf(let leaf):
            rows.append(Row(kind: .leaf(leaf, depth: depth, decision: decision), parent: parent))
        case .all(let children), .any(let children):
            let name = if case .all = node { "all of" } else { "any of" }
            rows.append(Row(kind: .operatorNode(name, depth: depth, decision: decision), parent: parent))
            for child in children { add(child, depth: depth + 1, parent: row, decision: nil, into: &rows) }
        case .constant(let value):
            rows.append(Row(kind: .operatorNode(value ? "always true" : "always false", depth: depth, decision: decision), parent: parent))
        }
    }

    private func y(_ row: Int) -> Int { Self.legendHeight + row * Self.rowHeight + Self.rowHeight / 2 }

    private func x(depth: Int) -> Int { Self.left + 26 + depth * 22 }

    private func draw(_ row: Row, at index: Int, rows: [Row]) -> String {
        let center = y(index)
        let top = center - 11
        switch row.kind {
        case .question(let question):
            let (fill, stroke) = SkipLogicGraph.color(question.reach)
            let dash = question.isQuestion ? "" : " stroke-dasharray=\"4 3\""
            let label = question.text.map { "\(question.id) — \($0)" } ?? question.id
            let status = question.isQuestion ? question.reach.label + (question.reason.map { ": \($0)" } ?? "") : "decided by the app or the engine, not a question"
            return "<g class=\"question reach-\(question.reach.rawValue)\">" + title("\(label) (\(status))")
                + "<rect x=\"\(Self.left)\" y=\"\(top)\" width=\"\(Self.portX - Self.left)\" height=\"22\" rx=\"5\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"1.5\"\(dash)/>"
                + text(label, x: Self.left + 8, y: center, width: Self.portX - Self.left - 16, bold: true) + "</g>"
        case .operatorNode(let name, let depth, let decision):
            let x = x(depth: depth)
            let label = decision.map { "\($0.kind): \(name)" } ?? name
            let stroke = decision.map { SkipLogicGraph.color($0.outcomes) } ?? "#555555"
            let width = min(Self.portX - x, 16 + label.count * 7)
            return connector(from: row.parent, to: index, x: x, decision: decision, rows: rows)
                + "<g class=\"operator\">" + title(decision.map { "\($0.kind) of '\($0.question)': \($0.detail)" } ?? name)
                + "<rect x=\"\(x)\" y=\"\(top + 2)\" width=\"\(width)\" height=\"18\" rx=\"9\" fill=\"#f4f4f4\" stroke=\"\(stroke)\" stroke-width=\"\(decision == nil ? 1 : 2)\"/>"
                + text(label, x: x + 8, y: center, width: width - 12, bold: true) + "</g>"
        case .leaf(let leaf, let depth, let decision):
            let x = x(depth: depth)
            let stroke = SkipLogicGraph.color(leaf.outcomes)
            let dash = leaf.outcomes == .never || leaf.outcomes == .impossible ? " stroke-dasharray=\"5 3\"" : ""
            let label = decision.map { "\($0.kind): \(leaf.description)" } ?? leaf.description
            return connector(from: row.parent, to: index, x: x, decision: decision, rows: rows)
                + "<g class=\"leaf leaf-\(leaf.outcomes.rawValue)\">" + title("\(leaf.description): \(leaf.detail)")
                + "<rect x=\"\(x)\" y=\"\(top + 2)\" width=\"\(Self.portX - x)\" height=\"18\" rx=\"3\" fill=\"#ffffff\" stroke=\"\(stroke)\" stroke-width=\"1.6\"\(dash)/>"
                + text(label, x: x + 6, y: center, width: Self.portX - x - 10, bold: false) + "</g>"
        }
    }

    /// The line from a node up to the node it hangs from: a decision's root points at its question.
    private func connector(from parent: Int?, to row: Int, x: Int, decision: SkipLogicGraph.Decision?, rows: [Row]) -> String {
        guard let parent else { return "" }
        let parentX: Int =
            switch rows[parent].kind {
            case .operatorNode(_, let depth, _), .leaf(_, let depth, _): self.x(depth: depth) + 8
            case .question: Self.left + 12
            }
        let top = y(parent) + 11
        if let decision {
            let color = SkipLogicGraph.color(decision.outcomes)
            return "<path d=\"M\(x),\(y(row)) H\(parentX) V\(top + 1)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" marker-end=\"url(#arrow-\(decision.outcomes.rawValue))\"/>"
        }
        return "<path d=\"M\(parentX),\(top - 2) V\(y(row)) H\(x)\" fill=\"none\" stroke=\"#888888\" stroke-width=\"1\"/>"
    }

    private var legend: String {
        var parts = [text("Questions:", x: Self.left, y: 18, width: 90, bold: true)]
        var x = Self.left + 84
        for reach in SkipLogicGraph.Reach.allCases {
            let (fill, stroke) = SkipLogicGraph.color(reach)
            parts.append("<rect x=\"\(x)\" y=\"10\" width=\"22\" height=\"16\" rx=\"4\" fill=\"\(fill)\" stroke=\"\(stroke)\"/>")
            parts.append(text(reach.label, x: x + 28, y: 18, width: 200, bold: false))
            x += 40 + reach.label.count * 7
        }
        parts.append(text("Conditions:", x: Self.left, y: 46, width: 90, bold: true))
        x = Self.left + 84
        for outcome in SkipLogicGraph.Outcomes.allCases {
            let color = SkipLogicGraph.color(outcome)
            let dash = outcome == .never || outcome == .impossible ? " stroke-dasharray=\"5 3\"" : ""
            parts.append("<path d=\"M\(x),46 H\(x + 26)\" stroke=\"\(color)\" stroke-width=\"2\"\(dash) marker-end=\"url(#arrow-\(outcome.rawValue))\"/>")
            parts.append(text(outcome.label, x: x + 32, y: 46, width: 200, bold: false))
            x += 44 + outcome.label.count * 7
        }
        parts.append(text("Arrows run from the question a condition reads to the condition; the tree under a question decides it.", x: Self.left, y: 70, width: 860, bold: false, muted: true))
        return "<g class=\"legend\">" + parts.joined() + "</g>"
    }

    private func title(_ text: String) -> String { "<title>\(HTML.escape(text))</title>" }

    /// One line of text, cut with an ellipsis to fit `width` (about 7 pixels a character at 12px).
    private func text(_ text: String, x: Int, y: Int, width: Int, bold: Bool, muted: Bool = false) -> String {
        let fits = max(4, width / 7)
        let shown = text.count > fits ? String(text.prefix(fits - 1)) + "…" : text
        let weight = bold ? " font-weight=\"600\"" : ""
        let fill = muted ? " fill=\"#666666\"" : ""
        return "<text x=\"\(x)\" y=\"\(y)\" dominant-baseline=\"middle\"\(weight)\(fill)>\(HTML.escape(shown))</text>"
    }

    /// A lane for each edge's span of rows, so that no two edges in one lane overlap: shorter spans take
    /// the inner lanes. Deterministic: ties keep the edges' order.
    static func lanes(_ spans: [(low: Int, high: Int)]) -> [Int] {
        let order = spans.indices.sorted { (spans[$0].high - spans[$0].low, spans[$0].low, $0) < (spans[$1].high - spans[$1].low, spans[$1].low, $1) }
        var occupied: [[(low: Int, high: Int)]] = []
        var result = Array(repeating: 0, count: spans.count)
        for index in order {
            let span = spans[index]
            var lane = 0
            while lane < occupied.count, occupied[lane].contains(where: { $0.low <= span.high && span.low <= $0.high }) { lane += 1 }
            if lane == occupied.count { occupied.append([]) }
            occupied[lane].append(span)
            result[index] = lane
        }
        return result
    }
}
