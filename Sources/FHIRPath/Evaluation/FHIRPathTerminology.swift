/// The ValueSets `memberOf()` can check codes against, by canonical URL (and `url|version`). A code is in
/// a value set when its expansion lists it (system and code), or when its compose includes it: a listed
/// concept, or a whole system without filters; excludes take codes out. Value sets it does not have give
/// an empty result, as a terminology server that cannot answer would.
public struct FHIRPathTerminology: Sendable {
    struct Membership: Sendable {
        /// Codes listed, as "system|code".
        var codes: Set<String> = []
        /// Systems included whole.
        var systems: Set<String> = []
        var excluded: Set<String> = []
        var excludedSystems: Set<String> = []
        /// Other value sets this one includes.
        var includedValueSets: [String] = []

        func contains(system: String?, code: String, in terminology: FHIRPathTerminology, depth: Int) -> Bool {
            let key = (system ?? "") + "|" + code
            if excluded.contains(key) || system.map(excludedSystems.contains) == true { return false }
            if codes.contains(key) || system.map(systems.contains) == true { return true }
            // A code without a system matches a listed code of any system.
            if system == nil, codes.contains(where: { $0.hasSuffix("|" + code) }) { return true }
            guard depth < 8 else { return false }
            return includedValueSets.contains { url in
                terminology.valueSets[url]?.contains(system: system, code: code, in: terminology, depth: depth + 1) == true
            }
        }
    }

    var valueSets: [String: Membership] = [:]

    public init() {}

    /// The value sets among these resources (others are ignored).
    public init(valueSets resources: [FHIRTree]) {
        for tree in resources {
            let root = tree.root
            guard root.type.name == "ValueSet", let url = root.string("url") else { continue }
            let membership = Self.membership(of: root)
            valueSets[url] = membership
            if let version = root.string("version") { valueSets[url + "|" + version] = membership }
        }
    }

    private static func membership(of valueSet: FHIRNode) -> Membership {
        var result = Membership()
        func addContains(_ node: FHIRNode) {
            for entry in node.children(named: "contains") {
                if let code = entry.string("code") { result.codes.insert((entry.string("system") ?? "") + "|" + code) }
                addContains(entry)
            }
        }
        for expansion in valueSet.children(named: "expansion") { addContains(expansion) }
        for compose in valueSet.children(named: "compose") {
            for (name, excluded) in [("include", false), ("exclude", true)] {
                for part in compose.children(named: name) {
                    let system = part.string("system")
                    let concepts = part.children(named: "concept")
                    let hasFilters = !part.children(named: "filter").isEmpty
                    for concept in concepts {
                        guard let code = concept.string("code") else { continue }
                        let key = (system ?? "") + "|" + code
                        if excluded { result.excluded.insert(key) } else { result.codes.insert(key) }
                    }
                    if let system, concepts.isEmpty, !hasFilters {
                        if excluded { result.excludedSystems.insert(system) } else { result.systems.insert(system) }
                    }
                    if !excluded {
                        for included in part.children(named: "valueSet") {
                            if case .string(let url)? = included.primitive { result.includedValueSets.append(url) }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Whether the code is in the value set; nil when the value set is not known.
    func contains(valueSet url: String, system: String?, code: String) -> Bool? {
        guard let membership = valueSets[url] else { return nil }
        return membership.contains(system: system, code: code, in: self, depth: 0)
    }
}
