import FHIRPath
import Foundation
import SurveyCore

/// A response as FHIRPath reads it, with where each instance's item is in it (`%context`), and the results
/// of the expressions evaluated on it (kept with it: the sessions that find the response again find them).
struct FHIRExpressionResponse: Sendable {
    let tree: FHIRTree
    let results = FHIRExpressionResults()
    /// For each instance: its place among the response items written under its parent (nil: not written).
    private let slot: [Int?]

    init(_ input: FHIRResponseInput) {
        tree = FHIRTree(json: FHIRStandardResponse().response(of: input))
        // Which instances the response writes (the writer's rules: enabled questions with answers, groups
        // with a written descendant), and each one's place among its written siblings.
        let instances = input.tree.instances
        var written = [Bool](repeating: false, count: instances.count)
        for position in instances.indices.reversed() {
            let instance = instances[position]
            let item = input.survey.items[instance.item]
            if !input.enablement[position] || item.type == .display {
                written[position] = false
                continue
            }
            if item.type != .group {
                // A group is written when a child is (set below as each child is met); a question when it has answers.
                if case .lhcTextBox? = item.rendering { continue }
                written[position] = !input.answers(at: position).isEmpty
            }
            if written[position], let parent = instance.parent, input.survey.items[instances[parent].item].type == .group { written[parent] = true }
        }
        var counters: [String: Int] = [:]
        slot = instances.indices.map { position in
            guard written[position] else { return nil }
            let key = "\(instances[position].parent ?? -1)/\(instances[position].answerIndex ?? -1)"
            defer { counters[key, default: 0] += 1 }
            return counters[key, default: 0]
        }
    }

    /// The response item of an instance, walking from the top through its ancestors.
    func item(at position: Int, in instances: FHIRInstanceTree) -> FHIRNode? {
        var chain: [Int] = []
        var current: Int? = position
        while let index = current {
            chain.append(index)
            current = instances.instances[index].parent
        }
        var container = tree.root
        for index in chain.reversed() {
            guard let place = slot[index] else { return nil }
            if let answer = instances.instances[index].answerIndex {
                let answers = container.children(named: "answer")
                guard answer < answers.count else { return nil }
                container = answers[answer]
            }
            let items = container.children(named: "item")
            guard place < items.count else { return nil }
            container = items[place]
        }
        return container
    }
}

/// The results of expressions evaluated on one response, by expression node, each with the variable values
/// it was evaluated with; safe from any thread. A result is given again only for identical variable values
/// (`FHIRPathCollection.isIdentical(to:)`): with the response (and through its key, the settings: clock and
/// launch contexts) they are all an expression evaluated without its input or `%context` reads, so the
/// result is the one evaluating it again would give. One result a node, the last.
final class FHIRExpressionResults: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [Int: (variables: [FHIRPathBinding], result: Result<FHIRPathCollection, FHIRPathError>)] = [:]

    /// The result kept for `node` with these variables, or `evaluate()`'s, then kept (worked out outside the
    /// lock; two threads may both work it out, and get the same).
    func result(
        of node: Int, variables: ArraySlice<FHIRPathBinding>, _ evaluate: () -> Result<FHIRPathCollection, FHIRPathError>
    ) -> Result<FHIRPathCollection, FHIRPathError> {
        if let entry = lock.withLock({ kept[node] }), Self.identical(entry.variables[...], variables) { return entry.result }
        let result = evaluate()
        lock.withLock { kept[node] = (Array(variables), result) }
        return result
    }

    /// The same names in the same order (a node lists its variables in one order) with identical values.
    private static func identical(
        _ a: ArraySlice<FHIRPathBinding>, _ b: ArraySlice<FHIRPathBinding>
    ) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value.isIdentical(to: $1.value) }
    }
}
