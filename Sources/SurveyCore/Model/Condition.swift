/// A skip-logic condition as written in a survey file, in a form every format shares: leaves that compare
/// one question's answer with a literal, `all`/`any` trees, conditions the host app decides, and constants
/// (what a real engine does with a condition it cannot read). Each format gives leaves their meaning; the
/// tree shape and the locations are what coverage, lint and generation work on.
public struct Condition: Sendable {
    public indirect enum Kind: Sendable {
        case leaf(ConditionLeaf)
        case all([Condition])
        case any([Condition])
        case host(HostCondition)
        /// A condition the engine does not understand and treats as a fixed value (with why). `ignored`
        /// keeps the conditions under it that are never evaluated, because an engine may still read their
        /// ids (SurveyNative collects dependency ids through every tree).
        case constant(Bool, reason: String, ignored: [Condition])
    }

    public let kind: Kind
    public let location: SourceLocation

    public init(_ kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// Every question id the condition reads, in first-use order without repeats.
    public var dependencies: [String] {
        var seen: Set<String> = []
        var result: [String] = []
        visit { node in
            switch node.kind {
            case .leaf(let leaf): if seen.insert(leaf.question).inserted { result.append(leaf.question) }
            case .host(let host): for id in host.inputs where seen.insert(id).inserted { result.append(id) }
            case .all, .any, .constant: break
            }
        }
        return result
    }

    /// The leaves, host conditions and constants that are evaluated (not trees, not what a constant
    /// ignores), in document order.
    public var atoms: [Condition] {
        switch kind {
        case .all(let children), .any(let children): children.flatMap(\.atoms)
        case .leaf, .host, .constant: [self]
        }
    }

    /// Calls `body` on this node and every node below it, parents before children, including the conditions
    /// a constant ignores.
    public func visit(_ body: (Condition) -> Void) {
        body(self)
        switch kind {
        case .all(let children), .any(let children), .constant(_, _, let children): for child in children { child.visit(body) }
        case .leaf, .host: break
        }
    }
}

/// One comparison: the answer to `question` (or the part of it under `key`) against `operand`.
public struct ConditionLeaf: Sendable, Hashable {
    public let question: String
    /// A part of a structured answer (SurveyNative's `subid`: a table row, a field label).
    public let key: String?
    /// The operation as written in the file (`equals`, `contains`, `>=`…): each format interprets it.
    public let operation: String
    /// The literal compared against; nil when the file gives none.
    public let operand: JSONValue?

    public init(question: String, key: String?, operation: String, operand: JSONValue?) {
        self.question = question
        self.key = key
        self.operation = operation
        self.operand = operand
    }
}

/// A condition the host app decides (SurveyNative's `custom`), identified by a key the scenario can set.
public struct HostCondition: Sendable, Hashable {
    public let key: String?
    /// The question ids the host is given when it decides.
    public let inputs: [String]
    public let extra: JSONValue?

    public init(key: String?, inputs: [String], extra: JSONValue?) {
        self.key = key
        self.inputs = inputs
        self.extra = extra
    }
}
