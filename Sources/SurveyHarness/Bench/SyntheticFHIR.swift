import SurveyCore
import SurveyFormats

/// FHIR R4 Questionnaires of `size` items: groups nested one to five deep, some repeating; items of every
/// answer type (boolean, decimal, integer, date, dateTime, time, string, text, choice single and multiple,
/// quantity) and display items; most items and groups enabled by one to three enableWhen (two or three
/// with enableBehavior `any` or `all`), with every operator each answer type allows (exists, =, !=, and
/// >, <, >=, <= on ordered types), mostly on recent items (so in chains), sometimes on any earlier item or
/// on a later one; a third of the questions required; some initial values. A question inside a repeating group is read only from inside the
/// same group, where the engines resolve it to the instance's own.
public struct SyntheticFHIR: SyntheticSurvey {
    public init() {}

    public var format: String { FHIRFormat.name }
    public var settings: SessionSettings { SessionSettings() }

    public func text(size: Int, seed: UInt64) -> String {
        SyntheticQuestionnaire(dialect: .r4, size: size, seed: seed).text
    }
}

/// What a synthetic Questionnaire may hold: all of R4 for the R4 engines, less for C3-PRO
/// (`SyntheticC3PRO`).
struct SyntheticDialect: Sendable {
    /// Question types and their weights out of the questions.
    var types: [(type: SyntheticQuestionnaire.AnswerType, weight: Int)]
    /// The operators a condition on a question of this type may use (none: no condition reads it).
    var operators: @Sendable (SyntheticQuestionnaire.AnswerType) -> [String]
    var maximumDepth: Int
    var repeatingGroups: Bool
    var initialValues: Bool
    /// The behaviors of items with several conditions.
    var behaviors: [String]
    /// Choices from contained ValueSets (`answerValueSet`) rather than `answerOption`.
    var choicesFromValueSets: Bool

    static let r4 = SyntheticDialect(
        types: [
            (.boolean, 18), (.choice, 14), (.multipleChoice, 5), (.integer, 12), (.decimal, 8), (.string, 9), (.text, 4),
            (.date, 7), (.dateTime, 4), (.time, 4), (.quantity, 5),
        ],
        operators: { type in
            switch type {
            case .boolean, .choice, .multipleChoice: ["exists", "=", "!="]
            default: ["exists", "=", "!=", ">", "<", ">=", "<="]
            }
        },
        maximumDepth: 5, repeatingGroups: true, initialValues: true, behaviors: ["any", "all"], choicesFromValueSets: false)
}

/// A Questionnaire made in three passes: the tree of items, then the conditions (which may read later
/// items), then the JSON.
struct SyntheticQuestionnaire {
    enum AnswerType: String, Sendable {
        case boolean, decimal, integer, slider, date, dateTime, time, string, text, choice, multipleChoice, quantity
    }

    enum Kind {
        case group(repeats: Bool)
        case display
        case question(AnswerType)
    }

    struct Node {
        var kind: Kind
        var parent: Int?
        /// The repeating group this item is in or is, if any.
        var repeatScope: Int?
        var children: [Int] = []
        var conditions: [JSONValue] = []
        var behavior: String?

        var answerType: AnswerType? {
            if case .question(let type) = kind { type } else { nil }
        }
    }

    static let codeSystem = "http://example.org/synthetic"
    static let codes = ["a", "b", "c"]

    let dialect: SyntheticDialect
    private var nodes: [Node] = []
    private var random: SplitMix64

    init(dialect: SyntheticDialect, size: Int, seed: UInt64) {
        self.dialect = dialect
        self.random = SplitMix64(seed: seed)
        buildTree(size: size)
        addConditions()
    }

    /// Items in document order: a group is opened now and then (never so late that it would stay empty) and
    /// closed once it has two children or more, at random.
    private mutating func buildTree(size: Int) {
        var open: [Int] = []
        let typeWeights = dialect.types.map(\.weight).reduce(0, +)
        for index in 0..<size {
            while let group = open.last, nodes[group].children.count >= 2, random.next(below: 100) < 25 { open.removeLast() }
            let parent = open.last
            let scope = parent.flatMap { nodes[$0].repeatScope }
            let roll = random.next(below: 100)
            let kind: Kind
            if roll < 12, open.count < dialect.maximumDepth, index + 2 < size {
                kind = .group(repeats: dialect.repeatingGroups && scope == nil && random.next(below: 4) == 0)
            } else if roll < 17 {
                kind = .display
            } else {
                var pick = random.next(below: typeWeights)
                var type = dialect.types[0].type
                for entry in dialect.types {
                    if pick < entry.weight {
                        type = entry.type
                        break
                    }
                    pick -= entry.weight
                }
                kind = .question(type)
            }
            var node = Node(kind: kind, parent: parent, repeatScope: scope)
            if case .group(repeats: true) = kind { node.repeatScope = index }
            nodes.append(node)
            if let parent { nodes[parent].children.append(index) }
            if case .group = kind { open.append(index) }
        }
    }

    /// Two thirds of the items get conditions: one, or two or three with a behavior.
    private mutating func addConditions() {
        let questions = nodes.indices.filter { nodes[$0].answerType != nil }
        var before = 0  // questions before the item
        for index in nodes.indices {
            defer { if nodes[index].answerType != nil { before += 1 } }
            guard random.next(below: 3) < 2 else { continue }
            let roll = random.next(below: 100)
            let count = roll < 75 ? 1 : roll < 90 ? 2 : 3
            for _ in 0..<count {
                guard let source = source(for: index, questions: questions, before: before) else { continue }
                nodes[index].conditions.append(condition(on: source))
            }
            if nodes[index].conditions.count > 1 { nodes[index].behavior = dialect.behaviors[random.next(below: dialect.behaviors.count)] }
        }
    }

    /// A question the item may read: mostly one of the thirty before it, sometimes any earlier one,
    /// sometimes one of the thirty after it; never the item itself or one inside it, one the dialect's
    /// conditions cannot read, or one inside a repeating group from outside that group or after the item.
    private mutating func source(for index: Int, questions: [Int], before: Int) -> Int? {
        for _ in 0..<8 {
            let roll = random.next(below: 100)
            let position: Int
            if roll < 5 {
                let after = questions.count - before
                guard after > 0 else { continue }
                position = before + random.next(below: min(after, 30))
            } else {
                guard before > 0 else { return nil }
                position = roll < 15 ? random.next(below: before) : before - 1 - random.next(below: min(before, 30))
            }
            let candidate = questions[position]
            // A later question inside a repeating group is another instance's from the second one on.
            let scope = nodes[candidate].repeatScope
            if candidate != index, !isInside(candidate, index), !dialect.operators(nodes[candidate].answerType!).isEmpty,
                scope == nil || (scope == nodes[index].repeatScope && candidate < index)
            {
                return candidate
            }
        }
        return nil
    }

    private func isInside(_ item: Int, _ group: Int) -> Bool {
        var ancestor = nodes[item].parent
        while let current = ancestor {
            if current == group { return true }
            ancestor = nodes[current].parent
        }
        return false
    }

    private mutating func condition(on source: Int) -> JSONValue {
        let type = nodes[source].answerType!
        let operators = dialect.operators(type)
        let op = operators[random.next(below: operators.count)]
        var condition: [String: JSONValue] = ["question": .string(linkId(source)), "operator": .string(op)]
        if op == "exists" {
            condition["answerBoolean"] = .bool(random.next(below: 2) == 0)
        } else {
            let (key, value) = Self.literal(of: type, random: &random)
            condition[key] = value
        }
        return .object(condition)
    }

    /// A value of the type, as `answer…`/`initial value…` name and write it.
    private static func literal(of type: AnswerType, random: inout SplitMix64) -> (key: String, value: JSONValue) {
        switch type {
        case .boolean: ("answerBoolean", .bool(random.next(below: 2) == 0))
        case .integer, .slider: ("answerInteger", .number(Double(random.next(below: 11))))
        case .decimal: ("answerDecimal", .number(Double(random.next(below: 20)) / 2))
        case .date: ("answerDate", .string("2025-\(twoDigits(1 + random.next(below: 12)))-15"))
        case .dateTime: ("answerDateTime", .string("2025-06-\(twoDigits(1 + random.next(below: 28)))T12:00:00Z"))
        case .time: ("answerTime", .string("\(twoDigits(random.next(below: 24))):30:00"))
        case .string, .text: ("answerString", .string(["low", "mid", "high"][random.next(below: 3)]))
        case .choice, .multipleChoice:
            ("answerCoding", ["system": .string(codeSystem), "code": .string(codes[random.next(below: codes.count)])])
        case .quantity:
            ("answerQuantity", ["value": .number(Double(random.next(below: 100))), "unit": "kg", "system": "http://unitsofmeasure.org", "code": "kg"])
        }
    }

    private static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    func linkId(_ index: Int) -> String {
        switch nodes[index].kind {
        case .group: "g\(index)"
        case .display: "d\(index)"
        case .question: "q\(index)"
        }
    }

    var text: String {
        var questionnaire: [String: JSONValue] = [
            "resourceType": "Questionnaire", "id": "synthetic", "url": "http://example.org/Questionnaire/synthetic", "status": "active",
            "title": .string("Synthetic questionnaire of \(nodes.count) items"),
        ]
        questionnaire["item"] = .array(nodes.indices.filter { nodes[$0].parent == nil }.map(json))
        if dialect.choicesFromValueSets {
            let concepts = JSONValue.array(Self.codes.map { code in ["code": .string(code), "display": .string("Choice \(code)")] })
            questionnaire["contained"] = [
                ["resourceType": "ValueSet", "id": "choices", "status": "active", "compose": ["include": [["system": .string(Self.codeSystem), "concept": concepts]]]]
            ]
        }
        return CanonicalJSON.pretty(.object(questionnaire)) + "\n"
    }

    private func json(_ index: Int) -> JSONValue {
        let node = nodes[index]
        var item: [String: JSONValue] = ["linkId": .string(linkId(index))]
        switch node.kind {
        case .group(let repeats):
            item["type"] = "group"
            item["text"] = .string("Group \(index)")
            if repeats { item["repeats"] = true }
            item["item"] = .array(node.children.map(json))
        case .display:
            item["type"] = "display"
            item["text"] = .string("Note \(index)")
        case .question(let type):
            item["text"] = .string("Question \(index)?")
            describe(type, index: index, into: &item)
        }
        if !node.conditions.isEmpty { item["enableWhen"] = .array(node.conditions) }
        if let behavior = node.behavior { item["enableBehavior"] = .string(behavior) }
        return .object(item)
    }

    /// The type, choices, bounds, whether it is required (one in three) and initial value of a question,
    /// drawn from the item's own seeded stream so that they do not shift the other items.
    private func describe(_ type: AnswerType, index: Int, into item: inout [String: JSONValue]) {
        var own = SplitMix64(seed: UInt64(index) &* 0x9E37_79B9)
        let initial = dialect.initialValues && own.next(below: 10) == 0
        if own.next(below: 3) == 0 { item["required"] = true }
        switch type {
        case .choice, .multipleChoice:
            item["type"] = "choice"
            if type == .multipleChoice { item["repeats"] = true }
            if dialect.choicesFromValueSets {
                item["answerValueSet"] = "#choices"
            } else {
                let selected = initial ? own.next(below: Self.codes.count) : -1
                item["answerOption"] = .array(
                    Self.codes.enumerated().map { position, code in
                        var option: [String: JSONValue] = ["valueCoding": ["system": .string(Self.codeSystem), "code": .string(code), "display": .string("Choice \(code)")]]
                        if position == selected { option["initialSelected"] = true }
                        return .object(option)
                    })
            }
            return
        case .slider:
            item["type"] = "integer"
            item["extension"] = [
                ["url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueInteger": 0],
                ["url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueInteger": 10],
            ]
        case .quantity:
            item["type"] = "quantity"
            item["extension"] = [["url": "http://hl7.org/fhir/StructureDefinition/questionnaire-units", "valueString": "kg"]]
        default:
            item["type"] = .string(type.rawValue)
        }
        guard initial else { return }
        let (key, value) = Self.literal(of: type, random: &own)
        item["initial"] = [.object(["value" + key.dropFirst("answer".count): value])]
    }
}
