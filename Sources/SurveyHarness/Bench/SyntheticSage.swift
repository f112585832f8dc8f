import SurveyCore
import SurveyFormats

/// SageResearch task files (generation `sage-v3`, run by its default profile) of `size` steps: sections
/// nested one to three deep; instruction steps; simple questions (integer with bounds, decimal, string) and
/// choice questions (string, integer and boolean, some multiple); most questions with one or two survey
/// rules of every operator (eq, ne, lt, gt, le, ge on what each type orders, de on any) that skip to one of
/// the next few steps of the same navigator, now and then to `exit`; some `nextStepIdentifier`s; a
/// completion step last.
public struct SyntheticSage: SyntheticSurvey {
    public init() {}

    public var format: String { SageFormat.name }
    public var settings: SessionSettings { SessionSettings() }

    private enum Kind {
        case section, instruction, integer, decimal, string, stringChoice, integerChoice, booleanChoice, multipleChoice, completion
    }

    private struct Node {
        var kind: Kind
        var children: [Int] = []
        var rules: [JSONValue] = []
        var next: String?
    }

    public func text(size: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        var nodes: [Node] = []
        var top: [Int] = []
        var open: [Int] = []
        for index in 0..<size {
            while let section = open.last, nodes[section].children.count >= 2, random.next(below: 100) < 15 { open.removeLast() }
            let kind: Kind
            if index == size - 1 {
                open = []
                kind = .completion
            } else {
                let roll = random.next(below: 100)
                switch roll {
                case 0..<8 where open.count < 3 && index + 3 < size: kind = .section
                case 0..<12: kind = .instruction
                case 12..<32: kind = .integer
                case 32..<40: kind = .decimal
                case 40..<50: kind = .string
                case 50..<70: kind = .stringChoice
                case 70..<80: kind = .integerChoice
                case 80..<91: kind = .booleanChoice
                default: kind = .multipleChoice
                }
            }
            nodes.append(Node(kind: kind))
            if let section = open.last { nodes[section].children.append(index) } else { top.append(index) }
            if kind == .section { open.append(index) }
        }
        // Rules and next steps go to later steps of the same navigator.
        // Rules and next steps go to later steps of the same navigator; `exit` only from the task's own steps
        // (inside a section it ends the task without the section's result).
        for (navigator, siblings) in ([top] + nodes.map(\.children)).enumerated() {
            for (position, index) in siblings.enumerated() {
                let later = siblings[(position + 1)...].prefix(5)
                if !later.isEmpty, random.next(below: 20) == 0 {
                    nodes[index].next = identifier(later[later.startIndex + random.next(below: min(later.count, 3))], nodes)
                }
                guard !later.isEmpty, random.next(below: 10) < 6, let rules = Self.rules(for: nodes[index].kind, optional: Self.isOptional(index), random: &random)
                else { continue }
                nodes[index].rules = rules.map { rule in
                    var rule = rule
                    let exit = navigator == 0 && random.next(below: 100) == 0
                    rule["skipToIdentifier"] = .string(exit ? "exit" : identifier(later[later.startIndex + random.next(below: later.count)], nodes))
                    return .object(rule)
                }
            }
        }
        let task: JSONValue = ["identifier": "synthetic", "type": "assessment", "steps": .array(top.map { json($0, nodes) })]
        return CanonicalJSON.pretty(task) + "\n"
    }

    private func identifier(_ index: Int, _ nodes: [Node]) -> String {
        nodes[index].kind == .section ? "section\(index)" : "step\(index)"
    }

    /// Two questions in three are optional (v3's default); the others required.
    private static func isOptional(_ index: Int) -> Bool { index % 3 != 0 }

    /// One or two rules (without their targets) a question of this kind can match, or nil for a step that
    /// is not a question. `de` (skipped) only on optional questions: a required one is never skipped.
    private static func rules(for kind: Kind, optional: Bool, random: inout SplitMix64) -> [[String: JSONValue]]? {
        let values: [JSONValue]
        var operators: [String]
        switch kind {
        case .section, .instruction, .completion: return nil
        case .integer:
            values = [1, 2, 3, 50]
            operators = ["eq", "ne", "lt", "gt", "le", "ge", "de"]
        case .integerChoice:
            values = [1, 2, 3]
            operators = ["eq", "ne", "lt", "gt", "le", "ge", "de"]
        case .decimal:
            values = [0.5, 2.5, 7.5]
            operators = ["eq", "ne", "lt", "gt", "le", "ge", "de"]
        case .string, .stringChoice, .multipleChoice:
            values = ["low", "mid", "high"]
            operators = ["eq", "ne", "lt", "gt", "de"]
        case .booleanChoice:
            values = [true, false]
            operators = ["eq", "ne", "de"]
        }
        if !optional { operators.removeLast() }
        return (0..<(1 + random.next(below: 2))).map { _ in
            let op = operators[random.next(below: operators.count)]
            return op == "de" ? ["ruleOperator": "de"] : ["ruleOperator": .string(op), "matchingAnswer": values[random.next(below: values.count)]]
        }
    }

    private func json(_ index: Int, _ nodes: [Node]) -> JSONValue {
        let node = nodes[index]
        var step: [String: JSONValue] = ["identifier": .string(identifier(index, nodes))]
        switch node.kind {
        case .section:
            step["type"] = "section"
            step["steps"] = .array(node.children.map { json($0, nodes) })
        case .instruction:
            step["type"] = "instruction"
            step["title"] = .string("Note \(index)")
        case .completion:
            step["type"] = "completion"
            step["title"] = "Thank you"
        case .integer:
            step["type"] = "simpleQuestion"
            step["inputItem"] = ["type": "integer", "formatOptions": ["minimumValue": 0, "maximumValue": 100]]
        case .decimal:
            step["type"] = "simpleQuestion"
            step["inputItem"] = ["type": "decimal"]
        case .string:
            step["type"] = "simpleQuestion"
            step["inputItem"] = ["type": "string"]
        case .stringChoice, .multipleChoice:
            step["type"] = "choiceQuestion"
            step["baseType"] = "string"
            step["choices"] = ["low", "mid", "high"]
            if node.kind == .multipleChoice { step["singleChoice"] = false }
        case .integerChoice:
            step["type"] = "choiceQuestion"
            step["baseType"] = "integer"
            step["choices"] = [["value": 1, "text": "One"], ["value": 2, "text": "Two"], ["value": 3, "text": "Three"]]
        case .booleanChoice:
            step["type"] = "choiceQuestion"
            step["baseType"] = "boolean"
            step["choices"] = [["value": true, "text": "Yes"], ["value": false, "text": "No"]]
        }
        if node.kind != .section, node.kind != .instruction, node.kind != .completion {
            step["title"] = .string("Question \(index)?")
            if !Self.isOptional(index) { step["optional"] = false }
        }
        if !node.rules.isEmpty { step["surveyRules"] = .array(node.rules) }
        if let next = node.next { step["nextStepIdentifier"] = .string(next) }
        return .object(step)
    }
}
