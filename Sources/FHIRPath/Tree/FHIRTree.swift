import SurveyCore

/// A FHIR resource (or any FHIR JSON value) as the tree of labelled nodes FHIRPath navigates, stored flat:
/// one array of nodes, each with its FHIR type, its label, its parent, and its children as one contiguous
/// run, so a step of a path is a scan of small integers with no allocation per node. Choice elements are
/// labelled by their base name with the type of their key's suffix (`valueQuantity` is a `value` of type
/// `Quantity`); a primitive's `_name` sibling gives its node children (`id`, `extension`); primitive
/// values are parsed once, by their FHIR type (decimals keep their written precision).
///
/// Immutable once built; build a new tree for a changed resource (`FHIRTree(json:)` is linear in its size).
public final class FHIRTree: Sendable {
    struct Node: Sendable {
        /// Index in `types`.
        var type: Int32
        /// The label: a number of `FHIRModel.nameIDs`, or `model.names.count` + an index of `localNames`.
        var name: Int32
        var parent: Int32
        var firstChild: Int32
        var childCount: Int32
        /// Index in `values`, or -1 for a node without a primitive value.
        var value: Int32
        /// Byte offset of the node's JSON in its source, or -1.
        var offset: Int32
    }

    let nodes: [Node]
    let types: [FHIRType]
    let values: [FHIRPrimitive]
    /// Labels the model does not know (keys of types it does not describe), numbered after its names.
    let localNames: [String]
    let localNameIDs: [String: Int32]
    public let model: FHIRModel
    /// The JSON file the tree was read from, when it was read from one (for locations).
    public let source: SourceFile?
    /// Facts computed when first needed (a questionnaire's scores for `weight()`).
    let cache = FHIRTreeCache()

    init(
        nodes: [Node], types: [FHIRType], values: [FHIRPrimitive], localNames: [String], model: FHIRModel, source: SourceFile?
    ) {
        self.nodes = nodes
        self.types = types
        self.values = values
        self.localNames = localNames
        self.localNameIDs = Dictionary(uniqueKeysWithValues: localNames.enumerated().map { ($1, Int32(model.names.count + $0)) })
        self.model = model
        self.source = source
    }

    /// The root node (the resource).
    public var root: FHIRNode { FHIRNode(tree: self, index: 0) }

    /// The number of a label in this tree (nil when no node has it).
    func nameID(_ name: String) -> Int32? {
        model.nameIDs[name] ?? localNameIDs[name]
    }

    func name(of id: Int32) -> String {
        let index = Int(id)
        return index < model.names.count ? model.names[index] : localNames[index - model.names.count]
    }
}

/// A primitive value of a node, parsed by the node's FHIR type.
enum FHIRPrimitive: Sendable {
    case boolean(Bool)
    case integer(Int)
    case decimal(FHIRPathDecimal)
    case string(String)
    case dateTime(FHIRPathDateTime)
}

/// One node of a tree: a handle of a tree and an index.
public struct FHIRNode: Sendable {
    public let tree: FHIRTree
    let index: Int32

    init(tree: FHIRTree, index: Int32) {
        self.tree = tree
        self.index = index
    }

    var record: FHIRTree.Node { tree.nodes[Int(index)] }

    /// The node's FHIR type (`HumanName`, `code`, `Questionnaire.item`, `Patient`).
    public var type: FHIRType { tree.types[Int(record.type)] }

    /// The element name the node was found under (nil for the root).
    public var name: String? {
        let record = record
        return record.parent < 0 ? nil : tree.name(of: record.name)
    }

    public var parent: FHIRNode? {
        let parent = record.parent
        return parent < 0 ? nil : FHIRNode(tree: tree, index: parent)
    }

    /// Byte offset of the node's JSON in the tree's source file, when known.
    public var sourceOffset: Int? {
        let offset = record.offset
        return offset < 0 ? nil : Int(offset)
    }

    var primitive: FHIRPrimitive? {
        let value = record.value
        return value < 0 ? nil : tree.values[Int(value)]
    }

    /// Whether a primitive node carries a value (false for one that has only extensions).
    public var hasValue: Bool { record.value >= 0 }

    /// The children, in document order.
    public var children: [FHIRNode] {
        let record = record
        return (0..<record.childCount).map { FHIRNode(tree: tree, index: record.firstChild + $0) }
    }

    /// The children labelled `name`.
    public func children(named name: String) -> [FHIRNode] {
        var result: [FHIRNode] = []
        forEachChild(named: name) { child in
            result.append(child)
            return true
        }
        return result
    }

    /// The first child labelled `name`, without building a list.
    func firstChild(named name: String) -> FHIRNode? {
        var found: FHIRNode?
        forEachChild(named: name) { child in
            found = child
            return false
        }
        return found
    }

    /// The value of the first child labelled `name` that is a string primitive.
    func string(_ name: String) -> String? {
        var found: String?
        forEachChild(named: name) { child in
            if case .string(let text)? = child.primitive { found = text }
            return found == nil
        }
        return found
    }

    /// Calls `body` with each child labelled `name`, in order, until it returns false.
    private func forEachChild(named name: String, _ body: (FHIRNode) -> Bool) {
        guard let id = tree.nameID(name) else { return }
        let record = record
        var child = record.firstChild
        while child < record.firstChild + record.childCount {
            if tree.nodes[Int(child)].name == id, !body(FHIRNode(tree: tree, index: child)) { return }
            child += 1
        }
    }

    /// The resource node this node belongs to (itself for a resource).
    var enclosingResource: FHIRNode? {
        var node: FHIRNode? = self
        while let current = node {
            if current.type.kind == .resource { return current }
            node = current.parent
        }
        return nil
    }

    /// Whether two handles are the same node of the same tree.
    func isSame(as other: FHIRNode) -> Bool { tree === other.tree && index == other.index }
}
