extension CoveragePlan {
    /// A stable hash of the survey's logic as the plan lays it out: its questions' ids, each decision (what
    /// it decides, its tree, its leaf conditions), validations, options and end states, but not where they
    /// are in the file. Saved coverage carries it, so that `coverage merge` refuses counts of a survey whose
    /// logic changed (a question renamed keeps every count's shape, so the shape alone cannot tell).
    public var fingerprint: String {
        var parts = questions.map { "question \($0.id) \($0.decisions)" }
        parts += decisions.map { "decision \($0.question) \($0.kind) \(Self.text(of: $0.tree))" }
        for (kind, points) in [("leaf", leaves), ("validation", validations), ("choice", choices), ("end", terminals)] {
            parts += points.map { "\(kind) \($0.question) \($0.description)" }
        }
        let hash = StableHash.of(parts)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func text(of node: Node) -> String {
        switch node {
        case .leaf(let index): "\(index)"
        case .all(let children): "all(" + children.map(text).joined(separator: ",") + ")"
        case .any(let children): "any(" + children.map(text).joined(separator: ",") + ")"
        case .constant(let value): "\(value)"
        }
    }
}
