/// Which pieces of an expression give the same value every time they are evaluated in one evaluation,
/// whatever `$this` is: a piece inside an iterated argument (`where(…)`, `select(…)`) that reads nothing of
/// the item in hand is worked out for the first item and kept for the others (`InvariantEvaluator`). In
/// `answerOption.where(valueCoding.code = %resource.item.where(linkId = 'q1').answer.valueCoding.code)`
/// the right side is evaluated once, not once per option.
///
/// A piece is invariant when it starts from no input (no `$this`, `$index`, `$total`, leading identifier
/// or function without a target), every argument it evaluates on the call's scope is invariant too (an
/// iterated argument sees the items of its invariant target), and it calls nothing whose effect is seen
/// per call (`iif` reports its branches to coverage). An expression that defines variables
/// (`defineVariable`) or traces (`trace`) is left as written: a `%name` may then change between items,
/// and a trace is written once per evaluation.
enum FHIRPathInvariants {
    /// Whether any piece of the expression may be kept.
    static func allowsKeeping(_ syntax: FHIRPathSyntax) -> Bool {
        var allowed = true
        syntax.forEachNode { node in
            if case .function(_, let name, _) = node.kind, name == "defineVariable" || name == "trace" { allowed = false }
        }
        return allowed
    }

    /// Whether keeping the piece's value saves work: not for a literal or a variable alone.
    static func isWorthKeeping(_ syntax: FHIRPathSyntax) -> Bool {
        switch syntax.kind {
        case .literal, .constant: false
        case .parenthesized(let inner): isWorthKeeping(inner)
        default: true
        }
    }

    /// Whether the piece's value does not depend on `$this` (nor on `$index`, `$total`).
    static func isInvariant(_ syntax: FHIRPathSyntax) -> Bool {
        switch syntax.kind {
        case .literal, .constant:
            return true
        case .this, .index, .total, .identifier:
            return false
        case .parenthesized(let inner), .polarity(_, let inner), .typeTest(_, let inner, _), .member(let inner, _):
            return isInvariant(inner)
        case .indexer(let target, let index):
            return isInvariant(target) && isInvariant(index)
        case .binary(_, let left, let right):
            return isInvariant(left) && isInvariant(right)
        case .function(let target, let name, let arguments):
            guard let target, let function = FHIRPathFunction(rawValue: name), function != .iif, isInvariant(target) else { return false }
            if function.takesType { return true }
            return arguments.indices.allSatisfy { function.isIterated(argument: $0) || isInvariant(arguments[$0]) }
        }
    }
}

/// A piece whose value is the same for every item an iterated argument sees (`FHIRPathInvariants`):
/// evaluated when first needed in an evaluation, then read from the evaluation's state.
final class InvariantEvaluator: Evaluator, @unchecked Sendable {
    let inner: Evaluator
    /// Its place among the kept values of the expression.
    let slot: Int

    init(_ inner: Evaluator, slot: Int, range: Range<Int>) {
        self.inner = inner
        self.slot = slot
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        if let kept = state.kept[slot] { return kept }
        let value = try inner.evaluate(scope, &state)
        state.kept[slot] = value
        return value
    }
}
