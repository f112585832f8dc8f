/// Tree navigation, `type()`, and FHIR's additions to FHIRPath (FHIR R4 "FHIRPath" section 2.1.9.1):
/// `extension()`, `hasValue()`, `getValue()`, `resolve()`, `memberOf()`, `conformsTo()`, `htmlChecks()`.
extension FunctionEvaluator {
    func fhir(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        switch function {
        case .children:
            return input.flatMap { item -> FHIRPathCollection in
                guard case .node(let node) = item else { return [] }
                return node.children.map(FHIRPathItem.node)
            }
        case .descendants:
            var result: FHIRPathCollection = []
            var queue = input.compactMap { item -> FHIRNode? in
                if case .node(let node) = item { return node }
                return nil
            }
            var position = 0
            while position < queue.count {
                let children = queue[position].children
                position += 1
                result += children.map(FHIRPathItem.node)
                queue += children
            }
            return result
        case .type:
            return input.map { .typeInfo($0.type(in: state.model)) }
        case .extension:
            guard let url = try stringArgument(0, scope, &state) else { return [] }
            guard let extensionID = state.model.nameIDs["extension"] else { return [] }
            var result: FHIRPathCollection = []
            for item in input {
                guard case .node(let node) = item else { continue }
                var found: FHIRPathCollection = []
                MemberEvaluator.appendChildren(of: node, named: extensionID, to: &found)
                result += found.filter { candidate in
                    guard case .node(let extensionNode) = candidate else { return false }
                    return extensionNode.string("url") == url
                }
            }
            return result
        case .hasValue:
            guard input.count == 1, case .node(let node) = input[0] else { return .truth(false) }
            return .truth(node.hasValue)
        case .getValue:
            guard input.count == 1, case .node(let node) = input[0], node.hasValue, let value = input[0].systemValue else { return [] }
            return [value]
        case .resolve:
            return input.compactMap { resolve($0, state.environment) }.map(FHIRPathItem.node)
        case .memberOf:
            guard let url = try stringArgument(0, scope, &state), let item = try singleInput(input) else { return [] }
            return memberOf(item, valueSet: url, state.environment.terminology).map { .truth($0) } ?? []
        case .conformsTo:
            guard let url = try stringArgument(0, scope, &state), let item = try singleInput(input) else { return [] }
            let prefix = "http://hl7.org/fhir/StructureDefinition/"
            guard url.hasPrefix(prefix), let type = state.model.fhirType(named: String(url.dropFirst(prefix.count))) else {
                throw failure("conformsTo() knows the profiles of the FHIR R4 types (\(prefix)Type); not '\(url)'")
            }
            return .truth(item.type(in: state.model).conforms(to: type))
        default:
            return input.isEmpty ? [] : .truth(true)
        }
    }

    /// The resource a Reference (or a reference string) points at: `#id` among the contained resources of
    /// the resource holding it; `Type/id` or a full URL among the entries of the bundle the node is in, then
    /// among the environment's resources. Nil when it is not found.
    private func resolve(_ item: FHIRPathItem, _ environment: FHIRPathEnvironment) -> FHIRNode? {
        var reference: String?
        var origin: FHIRNode?
        switch item {
        case .node(let node):
            origin = node
            if case .string(let text)? = node.primitive { reference = text } else { reference = node.string("reference") }
        case .string(let text):
            reference = text
        default:
            return nil
        }
        guard let reference, !reference.isEmpty else { return nil }
        if reference.hasPrefix("#") {
            // The outermost resource holds the contained ones.
            var container = origin?.enclosingResource
            while let parent = container?.parent?.enclosingResource { container = parent }
            guard let container else { return nil }
            if reference == "#" { return container }
            let id = String(reference.dropFirst())
            return container.children(named: "contained").first { $0.string("id") == id }
        }
        let parts = reference.split(separator: "/")
        let typeAndID = parts.count >= 2 ? (String(parts[parts.count - 2]), String(parts[parts.count - 1])) : nil
        func matches(_ resource: FHIRNode, fullUrl: String?) -> Bool {
            if fullUrl == reference { return true }
            guard let (type, id) = typeAndID else { return false }
            return resource.type.name == type && resource.string("id") == id
        }
        // The bundle the node is in.
        var node = origin
        while let current = node {
            if current.type.name == "Bundle" {
                for entry in current.children(named: "entry") {
                    if let resource = entry.children(named: "resource").first, matches(resource, fullUrl: entry.string("fullUrl")) { return resource }
                }
            }
            node = current.parent
        }
        for tree in environment.resources {
            let root = tree.root
            if matches(root, fullUrl: root.string("url")) { return root }
            if root.type.name == "Bundle" {
                for entry in root.children(named: "entry") {
                    if let resource = entry.children(named: "resource").first, matches(resource, fullUrl: entry.string("fullUrl")) { return resource }
                }
            }
        }
        return nil
    }

    /// Whether a code, Coding or CodeableConcept is in the value set; nil when the value set is unknown.
    private func memberOf(_ item: FHIRPathItem, valueSet url: String, _ terminology: FHIRPathTerminology) -> Bool? {
        switch item {
        case .node(let node):
            switch node.type.name {
            case "Coding":
                guard let code = node.string("code") else { return false }
                return terminology.contains(valueSet: url, system: node.string("system"), code: code)
            case "CodeableConcept":
                var unknown = false
                for coding in node.children(named: "coding") {
                    switch memberOf(.node(coding), valueSet: url, terminology) {
                    case true?: return true
                    case nil: unknown = true
                    case false?: break
                    }
                }
                return unknown ? nil : false
            default:
                guard let code = item.stringValue else { return false }
                return terminology.contains(valueSet: url, system: nil, code: code)
            }
        case .string(let code):
            return terminology.contains(valueSet: url, system: nil, code: code)
        default:
            return false
        }
    }
}
