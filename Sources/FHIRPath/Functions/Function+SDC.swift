import Foundation

/// SDC's `weight()` and its older name `ordinal()` (SDC "FHIRPath supplements"): the score of each
/// answer, from the `itemWeight` or `ordinalValue` extension (HL7 FHIR extensions) found, in order:
/// on the node itself; for an answer of a QuestionnaireResponse (or its value), on the value, then on
/// the matching `answerOption` of the `%questionnaire` item with the answer's `linkId`, then on the
/// concept of a value set contained in the questionnaire and named by the item's `answerValueSet`; and,
/// for a Coding, on the concept of a CodeSystem contained in the questionnaire or the resource. Nodes
/// with no score add nothing. This follows fhirpath.js's order (src/sdc-ig-supplements.js, "Algorithm
/// for searching the score extension"), without its terminology-server step.
extension FunctionEvaluator {
    static let scoreExtensions: Set<String> = [
        "http://hl7.org/fhir/StructureDefinition/itemWeight", "http://hl7.org/fhir/StructureDefinition/ordinalValue",
    ]

    func weight(_ input: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        result.reserveCapacity(input.count)
        for item in input {
            guard case .node(let node) = item else { continue }
            if let score = try score(of: node, &state) { result.append(.decimal(score)) }
        }
        return result
    }

    private func score(of node: FHIRNode, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathDecimal? {
        if let own = Self.scoreExtension(of: node) { return own }
        // The answer and its value, when the node is a QuestionnaireResponse answer or the value of one.
        var answer: FHIRNode?
        var value: FHIRNode?
        if node.type.name == "QuestionnaireResponse.item.answer" {
            answer = node
            value = node.children(named: "value").first
            if let value, let score = Self.scoreExtension(of: value) { return score }
        } else if let parent = node.parent, parent.type.name == "QuestionnaireResponse.item.answer" {
            answer = parent
            value = node
        }
        if let answer, let value, let linkId = answer.parent?.string("linkId") {
            guard let questionnaire = state.variable("questionnaire")?.first, case .node(let questionnaireNode) = questionnaire else {
                throw failure("weight() needs %questionnaire to find the score of an answer")
            }
            let scores = questionnaireNode.tree.cache.questionnaireScores(questionnaireNode)
            guard let itemScores = scores.items[linkId] else {
                throw failure("weight(): the questionnaire has no item with linkId '\(linkId)'")
            }
            if let score = itemScores[QuestionnaireScores.key(of: value)] { return score }
            if let coding = Self.coding(value) { return scores.codeSystemScore(system: coding.system, code: coding.code) }
            return nil
        }
        if let coding = Self.coding(node) {
            if let questionnaire = state.variable("questionnaire")?.first, case .node(let questionnaireNode) = questionnaire,
                let score = questionnaireNode.tree.cache.questionnaireScores(questionnaireNode).codeSystemScore(system: coding.system, code: coding.code)
            {
                return score
            }
            if let resource = node.enclosingResource {
                return QuestionnaireScores(resource).codeSystemScore(system: coding.system, code: coding.code)
            }
        }
        return nil
    }

    /// The value of a score extension directly on a node.
    static func scoreExtension(of node: FHIRNode) -> FHIRPathDecimal? {
        for child in node.children(named: "extension") where child.string("url").map(scoreExtensions.contains) == true {
            for value in child.children(named: "value") {
                if let number = FHIRPathItem.node(value).decimalValue { return number }
            }
        }
        return nil
    }

    private static func coding(_ node: FHIRNode) -> (system: String?, code: String)? {
        guard node.type.name == "Coding", let code = node.string("code") else { return nil }
        return (node.string("system"), code)
    }
}

/// The scores a questionnaire gives: per item (by linkId), per answer value (a Coding as `system|code`,
/// another value as its text), from its answer options and the contained value sets its items name; and
/// per concept of its contained code systems. Built once per questionnaire tree.
struct QuestionnaireScores: Sendable {
    var items: [String: [String: FHIRPathDecimal]] = [:]
    var codeSystems: [String: [String: FHIRPathDecimal]] = [:]

    init(_ resource: FHIRNode) {
        var valueSets: [String: [String: FHIRPathDecimal]] = [:]
        for contained in resource.children(named: "contained") {
            switch contained.type.name {
            case "ValueSet":
                var scores: [String: FHIRPathDecimal] = [:]
                for compose in contained.children(named: "compose") {
                    for include in compose.children(named: "include") {
                        let system = include.string("system")
                        for concept in include.children(named: "concept") {
                            if let code = concept.string("code"), let score = FunctionEvaluator.scoreExtension(of: concept) {
                                scores[(system ?? "") + "|" + code] = score
                            }
                        }
                    }
                }
                if let id = contained.string("id") { valueSets["#" + id] = scores }
                if let url = contained.string("url") { valueSets[url] = scores }
            case "CodeSystem":
                guard let url = contained.string("url") else { continue }
                var scores: [String: FHIRPathDecimal] = [:]
                func add(_ concepts: [FHIRNode]) {
                    for concept in concepts {
                        if let code = concept.string("code"), let score = FunctionEvaluator.scoreExtension(of: concept) { scores[code] = score }
                        add(concept.children(named: "concept"))
                    }
                }
                add(contained.children(named: "concept"))
                codeSystems[url] = scores
            default:
                break
            }
        }
        func addItems(_ nodes: [FHIRNode]) {
            for item in nodes {
                if let linkId = item.string("linkId") {
                    var scores: [String: FHIRPathDecimal] = [:]
                    if let valueSet = item.string("answerValueSet"), let fromValueSet = valueSets[valueSet] {
                        scores = fromValueSet
                    }
                    for option in item.children(named: "answerOption") {
                        guard let value = option.children(named: "value").first else { continue }
                        if let score = FunctionEvaluator.scoreExtension(of: option) ?? FunctionEvaluator.scoreExtension(of: value) {
                            scores[Self.key(of: value)] = score
                        }
                    }
                    items[linkId] = scores
                }
                addItems(item.children(named: "item"))
            }
        }
        addItems(resource.children(named: "item"))
    }

    /// How an answer value is looked up: a Coding by system and code, another value by its text.
    static func key(of value: FHIRNode) -> String {
        if value.type.name == "Coding" { return (value.string("system") ?? "") + "|" + (value.string("code") ?? "") }
        return FHIRPathItem.node(value).systemValue.flatMap(FunctionEvaluator.toString) ?? ""
    }

    func codeSystemScore(system: String?, code: String) -> FHIRPathDecimal? {
        system.flatMap { codeSystems[$0]?[code] }
    }
}

/// Facts about a tree computed when first needed (the scores of a questionnaire). The tree is immutable,
/// so they never go stale; a lock makes the first computation safe from several threads.
final class FHIRTreeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var scores: QuestionnaireScores?

    func questionnaireScores(_ questionnaire: FHIRNode) -> QuestionnaireScores {
        lock.lock()
        defer { lock.unlock() }
        if let scores { return scores }
        let computed = QuestionnaireScores(questionnaire.tree.root)
        scores = computed
        return computed
    }
}
