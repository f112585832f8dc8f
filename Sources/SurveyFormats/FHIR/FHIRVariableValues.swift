import FHIRPath

/// The values of a Questionnaire's SDC variables worked out so far: each variable node's values by the id of
/// the instance defining it ("" for one on the Questionnaire, or read outside its item). A pass finds the value
/// of a variable it read before without hashing an id: the last one looked up for each node is kept with the
/// position of its scope in the pass's tree (`recent`), until a pass reads other instances.
struct FHIRVariableValues: Sendable {
    /// By variable node, then by the defining instance's id.
    private var byID: [[String: FHIRPathCollection]] = []
    /// By variable node: the value last found or stored, and the tree position of its scope (-1: none).
    private var recent: [(scope: Int, value: FHIRPathCollection)?] = []

    /// The value of `node` this pass found or stored last, when it was for the scope at this position of the
    /// pass's tree (-1: none).
    func recentValue(of node: Int, scope: Int) -> FHIRPathCollection? {
        guard node < recent.count, let last = recent[node], last.scope == scope else { return nil }
        return last.value
    }

    /// The value of `node` for the instance `id`, whose position in this pass's tree is `scope`; found, it
    /// is the recent one.
    mutating func lookUp(_ node: Int, id: String, scope: Int) -> FHIRPathCollection? {
        guard node < byID.count, let value = byID[node][id] else { return nil }
        recent[node] = (scope, value)
        return value
    }

    mutating func set(_ value: FHIRPathCollection, of node: Int, id: String, scope: Int) {
        grow(to: node)
        byID[node][id] = value
        recent[node] = (scope, value)
    }

    /// Drops every value of a variable node.
    mutating func forget(_ node: Int) {
        guard node < byID.count, !byID[node].isEmpty else { return }
        byID[node] = [:]
        recent[node] = nil
    }

    mutating func forgetAll() {
        byID = []
        recent = []
    }

    /// The same values for passes over other instances: positions in another tree say nothing.
    mutating func startPass() {
        for node in recent.indices { recent[node] = nil }
    }

    private mutating func grow(to node: Int) {
        guard node >= byID.count else { return }
        byID += Array(repeating: [:], count: node + 1 - byID.count)
        recent += Array(repeating: nil, count: node + 1 - recent.count)
    }
}
