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
        var questionnaire: FHIRNode?
        if case .node(let node)? = state.variable(FHIRPathVariableName.questionnaire)?.first { questionnaire = node }
        var result: FHIRPathCollection = []
        result.reserveCapacity(input.count)
        // The scores of the answers of the tree the items are in, worked out once per tree and questionnaire.
        var entries: [AnswerScores.Entry] = []
        var entriesTree: ObjectIdentifier?
        for position in input.indices {
            guard case .node(let node) = input[position] else { continue }
            let tree = ObjectIdentifier(node.tree)
            if entriesTree != tree {
                entries = node.tree.cache.answerScores(of: node.tree, questionnaire: questionnaire).entries
                entriesTree = tree
            }
            switch entries[Int(node.index)] {
            case .score(let score): result.append(.decimal(score))
            case .none: break
            case .missingQuestionnaire: throw failure("weight() needs %questionnaire to find the score of an answer")
            case .unknownItem:
                let linkId = (node.type.name == "QuestionnaireResponse.item.answer" ? node : node.parent)?.parent?.string("linkId") ?? ""
                throw failure("weight(): the questionnaire has no item with linkId '\(linkId)'")
            case .notAnswer:
                if let score = Self.score(ofOther: node, questionnaire: questionnaire) { result.append(.decimal(score)) }
            }
        }
        return result
    }

    /// `weight()` of nodes of one tree given by number.
    func weight(_ tree: FHIRTree, _ indexes: [Int32], _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        var questionnaire: FHIRNode?
        if case .node(let node)? = state.variable(FHIRPathVariableName.questionnaire)?.first { questionnaire = node }
        let entries = tree.cache.answerScores(of: tree, questionnaire: questionnaire).entries
        var result: FHIRPathCollection = []
        result.reserveCapacity(indexes.count)
        for index in indexes {
            if case .score(let score) = entries[Int(index)] {
                result.append(.decimal(score))
            } else {
                // The rarer cases (no score, errors, nodes that are not answers) item by item.
                result += try weight([.node(FHIRNode(tree: tree, index: index))], &state)
            }
        }
        return result
    }

    /// The score of a node that is not a QuestionnaireResponse answer or its value: its own extension, or
    /// for a Coding, the concept of a code system the questionnaire or its own resource contains.
    private static func score(ofOther node: FHIRNode, questionnaire: FHIRNode?) -> FHIRPathDecimal? {
        if let own = scoreExtension(of: node) { return own }
        guard let coding = coding(node) else { return nil }
        if let questionnaire, let score = questionnaire.tree.cache.questionnaireScores(questionnaire).codeSystemScore(system: coding.system, code: coding.code) {
            return score
        }
        return node.enclosingResource.flatMap { QuestionnaireScores($0).codeSystemScore(system: coding.system, code: coding.code) }
    }

    /// The score of an answer of a QuestionnaireResponse (`answer` is the answer node, `value` its value).
    static func score(answer: FHIRNode, value: FHIRNode?, questionnaire: FHIRNode?) -> AnswerScores.Entry {
        if let own = scoreExtension(of: answer) { return .score(own) }
        guard let value else { return .none }
        if let own = scoreExtension(of: value) { return .score(own) }
        guard let linkId = answer.parent?.string("linkId") else { return .none }
        guard let questionnaire else { return .missingQuestionnaire }
        let scores = questionnaire.tree.cache.questionnaireScores(questionnaire)
        guard let itemScores = scores.items[linkId] else { return .unknownItem }
        if let score = itemScores[QuestionnaireScores.key(of: value)] { return .score(score) }
        if let coding = coding(value), let score = scores.codeSystemScore(system: coding.system, code: coding.code) { return .score(score) }
        return .none
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

    static func coding(_ node: FHIRNode) -> (system: String?, code: String)? {
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

/// The scores of every answer (and answer value) of one QuestionnaireResponse tree against one
/// questionnaire, by node index: `weight()` reads an answer's score in one step.
struct AnswerScores: Sendable {
    enum Entry: Sendable {
        /// Not an answer or its value: looked up when asked.
        case notAnswer
        case score(FHIRPathDecimal)
        case none
        case missingQuestionnaire
        /// The questionnaire has no item with the answer's linkId.
        case unknownItem
    }

    /// The response tree (by identity: the table lives in that tree's cache, a reference would be a cycle).
    let tree: ObjectIdentifier
    /// The questionnaire tree, held so that its identity stays valid (nil when it is the response's own tree).
    let questionnaire: FHIRTree?
    let questionnaireID: ObjectIdentifier?
    let entries: [Entry]

    init(tree: FHIRTree, questionnaire: FHIRNode?) {
        self.tree = ObjectIdentifier(tree)
        self.questionnaire = questionnaire?.tree === tree ? nil : questionnaire?.tree
        self.questionnaireID = questionnaire.map { ObjectIdentifier($0.tree) }
        var entries = [Entry](repeating: .notAnswer, count: tree.nodes.count)
        for index in tree.nodes.indices {
            let answer = FHIRNode(tree: tree, index: Int32(index))
            guard answer.type.name == "QuestionnaireResponse.item.answer" else { continue }
            let value = answer.firstChild(named: "value")
            entries[index] = FunctionEvaluator.score(answer: answer, value: value, questionnaire: questionnaire)
            if let value { entries[Int(value.index)] = FunctionEvaluator.score(answer: answer, value: value, questionnaire: questionnaire) }
        }
        self.entries = entries
    }
}

/// Facts about a tree computed when first needed: a questionnaire's scores, and a response's answer
/// scores against the last questionnaire asked about. The tree is immutable, so they never go stale; a
/// lock makes computing them safe from several threads.
final class FHIRTreeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var scores: QuestionnaireScores?
    private var answers: AnswerScores?
    /// How many times each table was worked out (tests count them: once per tree and questionnaire).
    private(set) var scoreTablesBuilt = 0
    private(set) var answerTablesBuilt = 0

    func questionnaireScores(_ questionnaire: FHIRNode) -> QuestionnaireScores {
        lock.lock()
        defer { lock.unlock() }
        if let scores { return scores }
        let computed = QuestionnaireScores(questionnaire.tree.root)
        scores = computed
        scoreTablesBuilt += 1
        return computed
    }

    func answerScores(of tree: FHIRTree, questionnaire: FHIRNode?) -> AnswerScores {
        lock.lock()
        if let answers, answers.questionnaireID == questionnaire.map({ ObjectIdentifier($0.tree) }) {
            lock.unlock()
            return answers
        }
        lock.unlock()
        // Computed outside the lock: it reads the questionnaire's cache, which may be this one.
        let computed = AnswerScores(tree: tree, questionnaire: questionnaire)
        lock.lock()
        answers = computed
        answerTablesBuilt += 1
        lock.unlock()
        return computed
    }
}
