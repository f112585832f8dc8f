/// A collection: the value of every FHIRPath expression.
public typealias FHIRPathCollection = [FHIRPathItem]

/// What one evaluation carries besides the collection in scope: the environment, the iteration variables
/// of the function whose argument is being evaluated, and variables `defineVariable()` introduced.
struct EvaluationState {
    let environment: FHIRPathEnvironment
    let model: FHIRModel
    var index: Int?
    var total: FHIRPathCollection?
    var defined: [String: FHIRPathCollection] = [:]
    /// The values of the expression's invariant pieces worked out so far, by slot (`InvariantEvaluator`).
    var kept: [FHIRPathCollection?]

    init(environment: FHIRPathEnvironment, model: FHIRModel, invariants: Int = 0) {
        self.environment = environment
        self.model = model
        kept = invariants == 0 ? [] : Array(repeating: nil, count: invariants)
    }

    func variable(_ name: FHIRPathVariableName) -> FHIRPathCollection? {
        if !defined.isEmpty, let value = defined[name.text] { return value }
        return environment.variable(name)
    }
}

/// A compiled piece of an expression. `evaluate` gets the collection `$this` stands for at this point
/// (the context at the top, one item inside `where()`…) and returns the piece's value.
class Evaluator: @unchecked Sendable {
    let range: Range<Int>

    init(range: Range<Int>) {
        self.range = range
    }

    func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        fatalError("Evaluator.evaluate is abstract")
    }

    /// The value as node numbers of one tree when the piece can give it so without making items (a path
    /// of members); other pieces give their items. Functions that only need nodes (`weight()`, `count()`,
    /// `exists()`) ask for this.
    func evaluateNodes(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> NodesOrItems {
        .items(try evaluate(scope, &state))
    }

    /// An execution error located at this piece.
    func failure(_ message: String) -> FHIRPathError {
        FHIRPathError(.execution, message, at: range)
    }
}

/// A literal (or a constant subexpression folded at compile time).
final class ConstantEvaluator: Evaluator, @unchecked Sendable {
    let value: FHIRPathCollection

    init(_ value: FHIRPathCollection, range: Range<Int>) {
        self.value = value
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        value
    }
}

/// `$this`, `$index`, `$total`.
final class SpecialVariableEvaluator: Evaluator, @unchecked Sendable {
    enum Variable {
        case this, index, total
    }

    let variable: Variable

    init(_ variable: Variable, range: Range<Int>) {
        self.variable = variable
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        switch variable {
        case .this: scope
        case .index: state.index.map { [.integer($0)] } ?? []
        case .total: state.total ?? []
        }
    }
}

/// `%name`.
final class VariableEvaluator: Evaluator, @unchecked Sendable {
    let name: FHIRPathVariableName

    init(_ name: String, range: Range<Int>) {
        self.name = FHIRPathVariableName(name)
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        guard let value = state.variable(name) else { throw failure("the variable %\(name.text) is not defined") }
        return value
    }
}

/// `(expression)` inside a path keeps its own range for messages; evaluates its inner piece.
final class ParenthesizedEvaluator: Evaluator, @unchecked Sendable {
    let inner: Evaluator

    init(_ inner: Evaluator, range: Range<Int>) {
        self.inner = inner
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        try inner.evaluate(scope, &state)
    }
}

/// The first name of a path, which may be the type of the context (`Patient.name`): items of that type
/// (or a subtype) pass through; other items are navigated by the name as an element.
final class TypeOrMemberEvaluator: Evaluator, @unchecked Sendable {
    let typeName: String
    let type: FHIRType?
    let member: MemberEvaluator

    init(typeName: String, type: FHIRType?, member: MemberEvaluator, range: Range<Int>) {
        self.typeName = typeName
        self.type = type
        self.member = member
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        var rest: FHIRPathCollection = []
        for item in scope {
            if case .node(let node) = item, node.type.kind == .resource, type.map({ node.type.conforms(to: $0) }) ?? (node.type.name == typeName) {
                result.append(item)
            } else {
                rest.append(item)
            }
        }
        if rest.isEmpty { return result }
        return result + (try member.evaluate(rest, &state))
    }
}

/// `target.name` or `name` (on `$this`): the children of each node labelled `name`; `value` and `unit` of
/// a System Quantity; `name` and `namespace` of a type.
final class MemberEvaluator: Evaluator, @unchecked Sendable {
    let target: Evaluator?
    let name: String
    /// The name's number in the model, when the model has it.
    let modelNameID: Int32?
    /// Whether `valueCoding` finds the `value` of type Coding (fhirpath.js) rather than nothing.
    let navigatesPolymorphicNames: Bool

    init(target: Evaluator?, name: String, model: FHIRModel, navigatesPolymorphicNames: Bool, range: Range<Int>) {
        self.target = target
        self.name = name
        self.modelNameID = model.nameIDs[name]
        self.navigatesPolymorphicNames = navigatesPolymorphicNames
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        let input = try target?.evaluate(scope, &state) ?? scope
        if input.isEmpty { return [] }
        // Count first, so the result is allocated once.
        var count = 0
        for item in input {
            guard case .node(let node) = item else { count += 1; continue }
            guard let id = modelNameID ?? node.tree.localNameIDs[name] else { continue }
            count += Self.countChildren(of: node, named: id)
        }
        var result: FHIRPathCollection = []
        result.reserveCapacity(count)
        for item in input {
            switch item {
            case .node(let node):
                guard let id = modelNameID ?? node.tree.localNameIDs[name] else { continue }
                Self.appendChildren(of: node, named: id, to: &result)
            case .quantity(let quantity):
                if name == "value" { result.append(.decimal(quantity.value)) }
                if name == "unit" { result.append(.string(quantity.unit)) }
            case .typeInfo(let type):
                if name == "name" { result.append(.string(type.name)) }
                if name == "namespace" { result.append(.string(type.namespace.rawValue)) }
            default:
                break
            }
        }
        if result.isEmpty { return fallback(input) }
        return result
    }

    static func countChildren(of node: FHIRNode, named id: Int32) -> Int {
        node.tree.nodes.withUnsafeBufferPointer { nodes in
            let record = nodes[Int(node.index)]
            var count = 0
            var child = Int(record.firstChild)
            let end = child + Int(record.childCount)
            while child < end {
                if nodes[child].name == id { count += 1 }
                child += 1
            }
            return count
        }
    }

    static func appendChildren(of node: FHIRNode, named id: Int32, to result: inout FHIRPathCollection) {
        let tree = node.tree
        tree.nodes.withUnsafeBufferPointer { nodes in
            let record = nodes[Int(node.index)]
            var child = Int(record.firstChild)
            let end = child + Int(record.childCount)
            while child < end {
                if nodes[child].name == id { result.append(.node(FHIRNode(tree: tree, index: Int32(child)))) }
                child += 1
            }
        }
    }

    /// Nothing found by the exact name: a choice element the model does not describe is found by its base
    /// name among keys like `valueString` (their type from the suffix); with `navigatesPolymorphicNames`, a
    /// full choice name (`valueCoding`) finds the `value` of that type.
    private func fallback(_ input: FHIRPathCollection) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        for item in input {
            guard case .node(let node) = item else { continue }
            for child in node.children {
                guard let childName = child.name else { continue }
                if !node.type.isModeled, childName.count > name.count, childName.hasPrefix(name),
                    node.tree.model.datatype(choiceSuffix: childName.dropFirst(name.count)) != nil
                {
                    result.append(.node(child))
                } else if navigatesPolymorphicNames, name.count > childName.count, name.hasPrefix(childName),
                    let suffixType = node.tree.model.datatype(choiceSuffix: name.dropFirst(childName.count)), child.type === suffixType
                {
                    result.append(.node(child))
                }
            }
        }
        return result
    }
}

/// A chain of member steps (`%resource.item.answer.value`) walked on node numbers: when every input item is
/// a node of one tree, each step scans child records and only the last step's nodes become items. Any
/// other input, or a step that finds nothing (where the fallbacks of `MemberEvaluator` may apply), goes on
/// item by item through the steps' own evaluators.
final class PathEvaluator: Evaluator, @unchecked Sendable {
    let source: Evaluator?
    /// Each step as a member access on its input (no target of its own).
    let steps: [MemberEvaluator]

    init(source: Evaluator?, steps: [MemberEvaluator], range: Range<Int>) {
        self.source = source
        self.steps = steps
        super.init(range: range)
    }

    /// How many nodes a step may reach in the stack buffers before the walk uses the general path (two
    /// buffers of this many node numbers stay under the standard library's 1 KB limit for stack buffers).
    private static let bufferCapacity = 120

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        switch try evaluateNodes(scope, &state) {
        case .items(let items): return items
        case .nodes(let tree, let indexes):
            var result: FHIRPathCollection = []
            result.reserveCapacity(indexes.count)
            for index in indexes { result.append(.node(FHIRNode(tree: tree, index: index))) }
            return result
        }
    }

    override func evaluateNodes(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> NodesOrItems {
        let input = try source?.evaluate(scope, &state) ?? scope
        guard case .node(let first)? = input.first, input.count <= Self.bufferCapacity else { return .items(try generic(input, from: 0, &state)) }
        let tree = first.tree
        // The walk on node numbers, in two stack buffers; items from some step on when it must go item by item.
        let walked: (NodesOrItems?, Int) = withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * Self.bufferCapacity) { buffer in
            var current = buffer.baseAddress!
            var next = current + Self.bufferCapacity
            var count = 0
            for position in input.indices {
                guard case .node(let node) = input[position], node.tree === tree else { return (nil, 0) }
                current[count] = node.index
                count += 1
            }
            for (position, step) in steps.enumerated() {
                guard let id = step.modelNameID ?? tree.localNameIDs[step.name] else { return (materialize(current, count, tree), position) }
                var found = 0
                let fits: Bool = tree.nodes.withUnsafeBufferPointer { nodes in
                    for offset in 0..<count {
                        let record = nodes[Int(current[offset])]
                        var child = Int(record.firstChild)
                        let end = child + Int(record.childCount)
                        while child < end {
                            if nodes[child].name == id {
                                guard found < Self.bufferCapacity else { return false }
                                next[found] = Int32(child)
                                found += 1
                            }
                            child += 1
                        }
                    }
                    return true
                }
                if !fits || found == 0 { return (materialize(current, count, tree), position) }
                swap(&current, &next)
                count = found
            }
            return (.nodes(tree, Array(UnsafeBufferPointer(start: current, count: count))), steps.count)
        }
        switch walked {
        case (nil, _): return .items(try generic(input, from: 0, &state))
        case (let value?, steps.count): return value
        case (.items(let items)?, let position): return .items(try generic(items, from: position, &state))
        case (.nodes?, _): return walked.0!
        }
    }

    private func materialize(_ indexes: UnsafeMutablePointer<Int32>, _ count: Int, _ tree: FHIRTree) -> NodesOrItems {
        var result: FHIRPathCollection = []
        result.reserveCapacity(count)
        for offset in 0..<count { result.append(.node(FHIRNode(tree: tree, index: indexes[offset]))) }
        return .items(result)
    }

    /// The steps from `position` on, item by item.
    private func generic(_ input: FHIRPathCollection, from position: Int, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        var items = input
        for step in steps[position...] {
            if items.isEmpty { return [] }
            items = try step.evaluate(items, &state)
        }
        return items
    }
}

/// A piece's value as node numbers of one tree, or as items.
enum NodesOrItems {
    case nodes(FHIRTree, [Int32])
    case items(FHIRPathCollection)

    var count: Int {
        switch self {
        case .nodes(_, let indexes): indexes.count
        case .items(let items): items.count
        }
    }
}
