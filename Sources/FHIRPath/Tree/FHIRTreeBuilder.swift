import SurveyCore

/// JSON a tree can be built from: the project's located `JSONNode` (decimals read from the file's own
/// digits) or a plain `JSONValue` (numbers as doubles; decimals from their shortest text).
protocol FHIRJSONInput {
    var kind: JSONNode.Kind { get }
    var boolValue: Bool? { get }
    var stringValue: String? { get }
    /// The number as written (`185`, `1.50`).
    var numberText: String? { get }
    var elementList: [Self]? { get }
    /// Members in file order.
    var memberList: [(key: String, value: Self)]? { get }
    var sourceOffset: Int? { get }
}

extension JSONNode: FHIRJSONInput {
    var elementList: [JSONNode]? { elements }
    var memberList: [(key: String, value: JSONNode)]? { members?.map { ($0.key, $0.value) } }
    var sourceOffset: Int? { offset }

    var numberText: String? {
        guard kind == .number else { return nil }
        let bytes = document.file.bytes
        var end = offset
        while end < bytes.count {
            let byte = bytes[end]
            guard (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            else { break }
            end += 1
        }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
}

extension JSONValue: FHIRJSONInput {
    var kind: JSONNode.Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    var numberText: String? {
        guard case .number(let value) = self else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    var elementList: [JSONValue]? { arrayValue }
    /// Keys sorted (a `JSONValue` object keeps no order).
    var memberList: [(key: String, value: JSONValue)]? { objectValue?.sorted { $0.key < $1.key } }
    var sourceOffset: Int? { nil }
}

extension FHIRTree {
    /// The tree of a FHIR resource (or datatype value) read from a located JSON node. Elements the model
    /// does not know are kept under their JSON key with a type inferred from the JSON.
    public convenience init(json: JSONNode, model: FHIRModel = .r4) {
        var builder = FHIRTreeBuilder<JSONNode>(model: model)
        builder.build(json, type: nil)
        self.init(
            nodes: builder.nodes, types: builder.types, values: builder.values, localNames: builder.localNames, model: model,
            source: json.document.file)
    }

    /// The tree of a plain JSON value.
    public convenience init(json: JSONValue, model: FHIRModel = .r4) {
        var builder = FHIRTreeBuilder<JSONValue>(model: model)
        builder.build(json, type: nil)
        self.init(nodes: builder.nodes, types: builder.types, values: builder.values, localNames: builder.localNames, model: model, source: nil)
    }

    /// The tree of a value of a known FHIR type that is not a resource (a `Coding`, a `Quantity`…).
    public convenience init(json: JSONValue, type: FHIRType, model: FHIRModel = .r4) {
        var builder = FHIRTreeBuilder<JSONValue>(model: model)
        builder.build(json, type: type)
        self.init(nodes: builder.nodes, types: builder.types, values: builder.values, localNames: builder.localNames, model: model, source: nil)
    }
}

/// Fills the flat node array depth-first: a node's children are appended as one block, then each child's
/// own block after it.
struct FHIRTreeBuilder<Input: FHIRJSONInput> {
    let model: FHIRModel
    var nodes: [FHIRTree.Node] = []
    var types: [FHIRType] = []
    private var typeIndexes: [ObjectIdentifier: Int32] = [:]
    var values: [FHIRPrimitive] = []
    var localNames: [String] = []
    private var localNameIDs: [String: Int32] = [:]
    /// The children of the nodes being filled, deepest last.
    private var pending: [Child] = []
    /// The label number and type of each member key met, by the type of the object it is in.
    private var labels: [LabelKey: (name: Int32, type: FHIRType?)] = [:]

    private struct LabelKey: Hashable {
        let type: ObjectIdentifier
        let key: String
    }

    init(model: FHIRModel) {
        self.model = model
    }

    /// One child to be: its label, its type (nil: infer from the JSON), its JSON, and its `_name` sibling.
    private struct Child {
        var name: Int32
        var type: FHIRType?
        var json: Input?
        var extras: Input?
    }

    mutating func build(_ json: Input, type: FHIRType?) {
        nodes.append(FHIRTree.Node(type: 0, name: -1, parent: -1, firstChild: 0, childCount: 0, value: -1, offset: Int32(json.sourceOffset ?? -1)))
        fill(0, json: json, extras: nil, declared: type)
    }

    private mutating func typeIndex(_ type: FHIRType) -> Int32 {
        let key = ObjectIdentifier(type)
        if let index = typeIndexes[key] { return index }
        types.append(type)
        let index = Int32(types.count - 1)
        typeIndexes[key] = index
        return index
    }

    private mutating func nameID(_ name: String) -> Int32 {
        if let id = model.nameIDs[name] { return id }
        if let id = localNameIDs[name] { return id }
        localNames.append(name)
        let id = Int32(model.names.count + localNames.count - 1)
        localNameIDs[name] = id
        return id
    }

    /// The resource type a JSON object names, from the model or made up for a name it does not know.
    private func resourceType(of json: Input) -> FHIRType? {
        guard let name = json.memberList?.first(where: { $0.key == "resourceType" })?.value.stringValue else { return nil }
        return model.fhirType(named: name)
            ?? FHIRType(namespace: .fhir, name: name, kind: .resource, base: model.fhirType(named: "DomainResource"), isModeled: false)
    }

    /// Sets the type, value and children of node `index` from its JSON.
    private mutating func fill(_ index: Int, json: Input?, extras: Input?, declared: FHIRType?) {
        var type = declared
        if let json, json.kind == .object, type == nil || type!.kind == .resource, let named = resourceType(of: json) {
            type = named
        }
        let resolved = type ?? inferredType(json)
        nodes[index].type = typeIndex(resolved)
        if let json, json.kind != .object, json.kind != .null {
            if let value = primitive(json, type: resolved) {
                values.append(value)
                nodes[index].value = Int32(values.count - 1)
            }
        }
        // The children are collected on top of `pending` (the children of the nodes being filled above this
        // one stay below), so no array is made per node.
        let start = pending.count
        if let json, json.kind == .object { collectChildren(of: json, in: resolved) }
        if let extras, extras.kind == .object { collectChildren(of: extras, in: model.element) }
        let count = pending.count - start
        guard count > 0 else { return }
        let first = nodes.count
        nodes[index].firstChild = Int32(first)
        nodes[index].childCount = Int32(count)
        for child in pending[start...] {
            nodes.append(
                FHIRTree.Node(
                    type: 0, name: child.name, parent: Int32(index), firstChild: 0, childCount: 0, value: -1,
                    offset: Int32(child.json?.sourceOffset ?? child.extras?.sourceOffset ?? -1)))
        }
        for offset in 0..<count {
            let child = pending[start + offset]
            fill(first + offset, json: child.json, extras: child.extras, declared: child.type)
        }
        pending.removeLast(count)
    }

    /// Appends to `pending` the children an object's members make, in member order; `_name` members join
    /// the primitives of `name` (element by element for arrays) or stand alone when there is no `name`.
    private mutating func collectChildren(of object: Input, in type: FHIRType) {
        guard let members = object.memberList else { return }
        func isUnderscored(_ key: String) -> Bool { key.utf8.first == UInt8(ascii: "_") }
        // Most objects have no `_name` member: then no lookup of one is needed.
        var underscored: [String: Input] = [:]
        var plainKeys: Set<String> = []
        if members.contains(where: { isUnderscored($0.key) }) {
            for member in members where isUnderscored(member.key) { underscored[String(member.key.dropFirst())] = member.value }
            plainKeys = Set(members.lazy.filter { !isUnderscored($0.key) }.map(\.key))
        }
        for (key, value) in members {
            if key == "resourceType" { continue }
            if isUnderscored(key) {
                let base = String(key.dropFirst())
                guard !plainKeys.contains(base) else { continue }
                let (id, childType) = labelNumber(base, in: type)
                if let list = value.elementList {
                    for element in list { pending.append(Child(name: id, type: childType, json: nil, extras: element)) }
                } else {
                    pending.append(Child(name: id, type: childType, json: nil, extras: value))
                }
                continue
            }
            let (id, childType) = labelNumber(key, in: type)
            let extras = underscored.isEmpty ? nil : underscored[key]
            if let list = value.elementList {
                let extraList = extras?.elementList
                for (position, element) in list.enumerated() {
                    let extra = extraList.flatMap { position < $0.count ? $0[position] : nil }
                    if element.kind == .null, extra == nil || extra!.kind == .null { continue }
                    pending.append(Child(name: id, type: childType, json: element.kind == .null ? nil : element, extras: extra))
                }
            } else if value.kind != .null {
                pending.append(Child(name: id, type: childType, json: value, extras: extras))
            }
        }
    }

    /// The number of a member's label and its type (`label`), worked out once per key and object type.
    private mutating func labelNumber(_ key: String, in type: FHIRType) -> (name: Int32, type: FHIRType?) {
        let cacheKey = LabelKey(type: ObjectIdentifier(type), key: key)
        if let known = labels[cacheKey] { return known }
        let (name, childType) = label(key, in: type)
        let found = (name: nameID(name), type: childType)
        labels[cacheKey] = found
        return found
    }

    /// The label and type of a member: a modeled element by name, a choice element by its base name and
    /// suffix type (`valueQuantity`), else the key itself with the datatype its suffix names, if any
    /// (`billablePeriod` is a Period) or a type inferred from the JSON.
    private func label(_ key: String, in type: FHIRType) -> (String, FHIRType?) {
        // Type names are ASCII, so a suffix naming one starts at an ASCII capital: the key is scanned as bytes.
        let bytes = key.utf8
        func isCapital(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        if type.isModeled {
            if let element = type.element(named: key), !element.isChoice {
                return (key, element.types.first)
            }
            var index = bytes.startIndex
            while let upper = bytes[index...].firstIndex(where: isCapital) {
                let base = String(key[..<upper])
                if let element = type.element(named: base), element.isChoice, let choice = element.choiceType(suffix: key[upper...]) {
                    return (base, choice)
                }
                index = bytes.index(after: upper)
            }
        }
        if let upper = bytes.lastIndex(where: isCapital), upper != bytes.startIndex, let datatype = model.datatype(choiceSuffix: key[upper...]) {
            return (key, datatype)
        }
        return (key, nil)
    }

    /// The type of a value the model does not describe: its resource type, or the FHIR primitive its JSON
    /// kind suggests, or an element of unknown structure.
    private func inferredType(_ json: Input?) -> FHIRType {
        guard let json else { return model.fhirType(named: "string")! }
        switch json.kind {
        case .bool: return model.fhirType(named: "boolean")!
        case .number:
            let text = json.numberText ?? ""
            return model.fhirType(named: text.utf8.contains(UInt8(ascii: ".")) || text.utf8.contains(UInt8(ascii: "e")) || text.utf8.contains(UInt8(ascii: "E")) ? "decimal" : "integer")!
        case .string: return model.fhirType(named: "string")!
        case .object: return resourceType(of: json) ?? model.unknownComplex
        case .null, .array: return model.fhirType(named: "string")!
        }
    }

    /// The value of a primitive by its FHIR type; a JSON value of the wrong kind keeps its own kind.
    private func primitive(_ json: Input, type: FHIRType) -> FHIRPrimitive? {
        switch json.kind {
        case .bool:
            return json.boolValue.map(FHIRPrimitive.boolean)
        case .number:
            guard let text = json.numberText else { return nil }
            if type.systemType == .integer || (type.systemType != .decimal && !text.utf8.contains(UInt8(ascii: ".")) && !text.utf8.contains(UInt8(ascii: "e")) && !text.utf8.contains(UInt8(ascii: "E"))),
                let integer = Int(text)
            {
                return .integer(integer)
            }
            return FHIRPathDecimal(text, exponent: true).map(FHIRPrimitive.decimal)
        case .string:
            guard let text = json.stringValue else { return nil }
            switch type.systemType {
            case .date: return FHIRPathDateTime.parse(Substring(text), kind: .date).map(FHIRPrimitive.dateTime) ?? .string(text)
            case .dateTime: return FHIRPathDateTime.parse(Substring(text), kind: .dateTime).map(FHIRPrimitive.dateTime) ?? .string(text)
            case .time: return FHIRPathDateTime.parse(Substring(text), kind: .time).map(FHIRPrimitive.dateTime) ?? .string(text)
            default: return .string(text)
            }
        default:
            return nil
        }
    }
}
