/// What an expression reads, found from its syntax alone, so that a form engine recomputes an expression
/// only when something it reads changes:
///
/// - `variables`: the `%` names (without `%`), built-in ones included (`resource`, `questionnaire`);
/// - `paths`: per root (`%resource`, `%questionnaire`…, or `$this` for the context), the element paths
///   read from it, dotted (`item`, `item.linkId`, `item.answer.value`); `item.*` when a whole subtree is
///   read (`descendants()`, `children()`, `repeat()`, `resolve()`…);
/// - `linkIds`: the string literals compared with a `linkId` (`where(linkId = 'q1')`, `linkId in ('a' | 'b')`);
/// - `readsClock`: whether `now()`, `today()` or `timeOfDay()` is called;
/// - `readsInput`: whether the result may depend on the collection the expression is evaluated on (its
///   context): false when nothing in it starts from the input (`$this`, a leading identifier or type name,
///   a function without a target), so it may be evaluated on an empty input with the same result.
public struct FHIRPathDependencies: Sendable, Equatable {
    public var variables: Set<String> = []
    public var paths: [String: Set<String>] = [:]
    public var linkIds: Set<String> = []
    public var readsClock = false
    public var readsInput = false

    init(_ syntax: FHIRPathSyntax, model: FHIRModel) {
        var collector = Collector(model: model)
        _ = collector.visit(syntax, scope: [Path(root: "$this", steps: [])])
        variables = collector.variables
        paths = collector.paths
        linkIds = collector.linkIds
        readsClock = collector.readsClock
        readsInput = collector.readsInput
    }

    /// A place in a tree: a root and the element names from it.
    fileprivate struct Path: Hashable {
        var root: String
        var steps: [String]

        func appending(_ step: String) -> Path { Path(root: root, steps: steps + [step]) }
    }

    private struct Collector {
        let model: FHIRModel
        var variables: Set<String> = []
        var paths: [String: Set<String>] = [:]
        var linkIds: Set<String> = []
        var readsClock = false
        var readsInput = false

        mutating func record(_ path: Path) {
            guard !path.steps.isEmpty else { return }
            paths[path.root, default: []].insert(path.steps.joined(separator: "."))
        }

        /// The tree places the piece's value may be, recording every place read on the way.
        mutating func visit(_ syntax: FHIRPathSyntax, scope: [Path]) -> [Path] {
            switch syntax.kind {
            case .literal, .index, .total:
                return []
            case .this:
                noteInput(scope)
                return scope
            case .parenthesized(let inner):
                return visit(inner, scope: scope)
            case .constant(let name):
                variables.insert(name)
                return [Path(root: "%" + name, steps: [])]
            case .identifier(let name):
                noteInput(scope)
                // A type name at the start of a path stands for the context itself.
                if let first = name.first, first.isUppercase, model.fhirType(named: name) != nil { return scope }
                return step(scope, name)
            case .member(let target, let name):
                return step(visit(target, scope: scope), name)
            case .indexer(let target, let index):
                _ = visit(index, scope: scope)
                return visit(target, scope: scope)
            case .polarity(_, let operand):
                _ = visit(operand, scope: scope)
                return []
            case .typeTest(let isAs, let operand, _):
                let places = visit(operand, scope: scope)
                return isAs ? places : []
            case .binary(let op, let left, let right):
                noteLinkIds(op, left, right)
                let a = visit(left, scope: scope)
                let b = visit(right, scope: scope)
                return op == .union ? a + b : []
            case .function(let target, let name, let arguments):
                // Without a target a function works on the scope; `today()`, `now()` and `timeOfDay()` ignore
                // it, and `iif()` only requires it to hold one item at most (what its arguments read of it
                // as `$this` is noted as they are visited).
                if target == nil, !["today", "now", "timeOfDay", "iif"].contains(name) { noteInput(scope) }
                let input = target.map { visit($0, scope: scope) } ?? scope
                return call(FHIRPathFunction(rawValue: name), input, arguments, scope: scope)
            }
        }

        /// Notes that a piece reads the scope it is in, when that scope comes from the expression's input.
        private mutating func noteInput(_ scope: [Path]) {
            if scope.contains(where: { $0.root == "$this" }) { readsInput = true }
        }

        private mutating func step(_ places: [Path], _ name: String) -> [Path] {
            let next = places.map { $0.appending(name) }
            next.forEach { record($0) }
            return next
        }

        private mutating func wildcard(_ places: [Path]) -> [Path] {
            for place in places { record(place.appending("*")) }
            return places.map { $0.appending("*") }
        }

        private mutating func call(_ function: FHIRPathFunction?, _ input: [Path], _ arguments: [FHIRPathSyntax], scope: [Path]) -> [Path] {
            guard let function else {
                arguments.forEach { _ = visit($0, scope: scope) }
                return []
            }
            if function.readsClock { readsClock = true }
            var results: [[Path]] = []
            for (index, argument) in arguments.enumerated() {
                let argumentScope = function.isIterated(argument: index) || function == .iif ? input : scope
                results.append(visit(argument, scope: argumentScope))
            }
            switch function {
            case .where, .first, .last, .single, .tail, .skip, .take, .distinct, .intersect, .exclude, .trace, .sort, .ofType, .as,
                .defineVariable:
                return input
            case .select:
                return results.first ?? []
            case .iif:
                return results.dropFirst().flatMap { $0 }
            case .union, .combine, .coalesce:
                return input + results.flatMap { $0 }
            case .children, .descendants, .repeat, .repeatAll, .resolve:
                return wildcard(input)
            case .extension:
                return step(input, "extension")
            case .weight, .ordinal:
                // Scores come from the answer's value and its extensions, and from %questionnaire.
                variables.insert("questionnaire")
                _ = wildcard(input)
                _ = wildcard([Path(root: "%questionnaire", steps: ["item"])])
                return []
            default:
                return []
            }
        }

        /// `linkId = 'x'`, `'x' = linkId`, `linkId in ('x' | 'y')`, `linkId ~ 'x'`.
        private mutating func noteLinkIds(_ op: FHIRPathSyntax.BinaryOperator, _ left: FHIRPathSyntax, _ right: FHIRPathSyntax) {
            guard [.equal, .equivalent, .notEqual, .notEquivalent, .in].contains(op) else { return }
            func isLinkId(_ syntax: FHIRPathSyntax) -> Bool {
                switch syntax.unwrapped.kind {
                case .identifier("linkId"), .member(_, "linkId"): true
                default: false
                }
            }
            func strings(_ syntax: FHIRPathSyntax) -> [String] {
                switch syntax.unwrapped.kind {
                case .literal(.string(let text)): [text]
                case .binary(.union, let a, let b): strings(a) + strings(b)
                default: []
                }
            }
            if isLinkId(left) { linkIds.formUnion(strings(right)) }
            if isLinkId(right), op != .in { linkIds.formUnion(strings(left)) }
        }
    }
}
