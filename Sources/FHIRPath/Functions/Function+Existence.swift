/// Existence (spec "Existence"), filtering and projection, subsetting and combining.
extension FunctionEvaluator {
    func existence(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        switch function {
        case .empty:
            return .truth(input.isEmpty)
        case .exists:
            if arguments.isEmpty { return .truth(!input.isEmpty) }
            for (position, item) in input.enumerated() where try criterion(item, position, &state) {
                return .truth(true)
            }
            return .truth(false)
        case .all:
            for (position, item) in input.enumerated() where try !criterion(item, position, &state) {
                return .truth(false)
            }
            return .truth(true)
        case .allTrue, .anyTrue, .allFalse, .anyFalse:
            var values: [Bool] = []
            for item in input {
                guard let value = item.booleanValue else {
                    throw failure("\(function.rawValue)() works on Booleans; found \(item.typeName) \(item.summary)")
                }
                values.append(value)
            }
            switch function {
            case .allTrue: return .truth(values.allSatisfy { $0 })
            case .anyTrue: return .truth(values.contains(true))
            case .allFalse: return .truth(values.allSatisfy { !$0 })
            default: return .truth(values.contains(false))
            }
        case .subsetOf, .supersetOf:
            let other = try argument(0, scope, &state)
            let (small, large) = function == .subsetOf ? (input, other) : (other, input)
            return .truth(small.allSatisfy { FHIRPathOperations.contains(large, $0) })
        case .count:
            return [.integer(input.count)]
        case .distinct:
            return FHIRPathOperations.distinct(input)
        default:
            return .truth(FHIRPathOperations.distinct(input).count == input.count)
        }
    }

    /// Argument 0 for one item, as a Boolean criterion: true only when it is true.
    func criterion(_ item: FHIRPathItem, _ position: Int, _ state: inout EvaluationState) throws(FHIRPathError) -> Bool {
        try iterate(0, item: item, position: position, &state).truthValue("the criteria of \(function.rawValue)()", at: arguments[0].range) == true
    }

    func filtering(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        switch function {
        case .where:
            var result: FHIRPathCollection = []
            result.reserveCapacity(input.count)
            for (position, item) in input.enumerated() where try criterion(item, position, &state) { result.append(item) }
            return result
        case .select:
            var result: FHIRPathCollection = []
            for (position, item) in input.enumerated() {
                result += try iterate(0, item: item, position: position, &state)
            }
            return result
        case .repeat, .repeatAll:
            return try repeated(input, keepingRepeats: function == .repeatAll, &state)
        case .coalesce:
            for index in arguments.indices {
                let value = try argument(index, scope, &state)
                if !value.isEmpty { return value }
            }
            return []
        case .single:
            return try singleInput(input).map { [$0] } ?? []
        case .first:
            return input.isEmpty ? [] : [input[0]]
        case .last:
            return input.isEmpty ? [] : [input[input.count - 1]]
        case .tail:
            return Array(input.dropFirst())
        case .skip, .take:
            guard let count = try integerArgument(0, scope, &state) else { return function == .skip ? input : [] }
            return function == .skip ? Array(input.dropFirst(max(0, count))) : Array(input.prefix(max(0, count)))
        case .intersect:
            let other = try argument(0, scope, &state)
            return FHIRPathOperations.distinct(input.filter { FHIRPathOperations.contains(other, $0) })
        case .exclude:
            let other = try argument(0, scope, &state)
            return input.filter { !FHIRPathOperations.contains(other, $0) }
        case .union:
            return FHIRPathOperations.distinct(input + (try argument(0, scope, &state)))
        default:
            return input + (try argument(0, scope, &state))
        }
    }

    /// `repeat(projection)`: the projection applied to the input, then to each new result, until nothing new
    /// appears. Nodes count as seen by identity (two equal elements in different places are both kept),
    /// other values by equality; `repeatAll` keeps every result (a projection that never ends is stopped
    /// with an error).
    private func repeated(_ input: FHIRPathCollection, keepingRepeats: Bool, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        var result: FHIRPathCollection = []
        var seenNodes: Set<NodeKey> = []
        var queue = input
        var position = 0
        var steps = 0
        while position < queue.count {
            let item = queue[position]
            position += 1
            for next in try iterate(0, item: item, position: position - 1, &state) {
                steps += 1
                // Nodes are checked in a set, values against the list: fewer of those are allowed.
                if steps > 1_000_000 || (!next.isNode && result.count > 1_000) {
                    throw failure("\(function.rawValue)() produced more items than it may (1,000,000 nodes, 1,000 values)")
                }
                if !keepingRepeats {
                    if case .node(let node) = next {
                        guard seenNodes.insert(NodeKey(node)).inserted else { continue }
                    } else if FHIRPathOperations.contains(result, next) {
                        continue
                    }
                }
                result.append(next)
                queue.append(next)
            }
        }
        return result
    }
}

/// A node's identity (its tree and index), for sets of visited nodes.
struct NodeKey: Hashable {
    let tree: ObjectIdentifier
    let index: Int32

    init(_ node: FHIRNode) {
        tree = ObjectIdentifier(node.tree)
        index = node.index
    }
}
