import Foundation
import SurveyCore

/// Reads a SageResearch / AssessmentModel task file (reference §1.0-§1.3), keeping every location. It reads
/// on past each problem, recording it, so that lint reports them all; a load refuses a file with any error,
/// as the factory's decoding and `validate()` do.
struct SageDecoder {
    let generation: Sage.Generation
    private(set) var problems: [Diagnostic] = []
    private var steps: [Sage.Step] = []
    private var sections: [Sage.Section] = []

    /// The task read from a file: its steps, its sections, what the file says about itself, and every
    /// problem that stops a load.
    struct Outline {
        var generation: Sage.Generation
        var identifier: String
        /// `versionString` and `schemaIdentifier` of the successor's result.
        var versionString: String?
        var schemaIdentifier: String?
        var steps: [Sage.Step]
        var sections: [Sage.Section]
        var problems: [Diagnostic]
        var file: String
        var location: SourceLocation
    }

    private init(generation: Sage.Generation) {
        self.generation = generation
    }

    // MARK: recognition and generations

    static let questionTypes: Set<String> = ["form", "simpleQuestion", "choiceQuestion", "stringChoiceQuestion", "multipleInputQuestion"]

    /// A task (`steps`) or, as in `FactoryTest_StepTransform.json`, a single question step.
    static func recognizes(_ root: JSONNode) -> Bool {
        guard root.kind == .object, root["questions"] == nil else { return false }
        if root["steps"]?.kind == .array { return true }
        return root["identifier"]?.kind == .string && root["type"]?.stringValue.map(questionTypes.contains) == true
    }

    /// Which generation a file is, by the first sign of one (reference §1.0): any legacy form step makes it
    /// legacy; any sign of the successor (its `$schema`, its `versionString` or `schemaIdentifier`, a
    /// `multipleInputQuestion`, a choice's `selectorType`, a question's `other`) makes it the successor;
    /// otherwise v3. Step types both have (`overview`, `completion`) say nothing.
    static func generation(of root: JSONNode) -> Sage.Generation {
        var successor = false
        if let schema = root["$schema"]?.stringValue, schema.contains("mobile-client-json") || schema.contains("Assessment") { successor = true }
        if root["versionString"] != nil || root["schemaIdentifier"] != nil { successor = true }
        var pending = root["steps"]?.elements ?? [root]
        while let step = pending.popLast() {
            if step["inputFields"] != nil || step["type"]?.stringValue == "form" { return .legacy }
            if step["type"]?.stringValue == "multipleInputQuestion" { successor = true }
            if step["other"] != nil { successor = true }
            if step["choices"]?.elements?.contains(where: { $0["selectorType"] != nil }) == true { successor = true }
            pending += step["steps"]?.elements ?? []
        }
        return successor ? .assessment : .v3
    }

    static func read(_ root: JSONCursor) -> Outline {
        var decoder = SageDecoder(generation: generation(of: root.node))
        return decoder.readTask(root)
    }

    // MARK: task and steps

    private mutating func readTask(_ root: JSONCursor) -> Outline {
        let file = root.file.path
        var outline = Outline(
            generation: generation, identifier: "task", steps: [], sections: [], problems: [], file: file, location: root.location)
        guard let task = root.object else {
            problems.append(root.typeError(expected: "an object", for: "a task").diagnostics[0])
            outline.problems = problems
            return outline
        }
        if task["steps"] == nil {
            // A file that is one step: the task is that step alone.
            outline.identifier = task["identifier"]?.stringValue ?? "task"
            readSteps([root], section: nil)
        } else {
            outline.identifier = string(task, "identifier", required: true, in: "the task") ?? "task"
            outline.versionString = string(task, "versionString", in: "the task")
            outline.schemaIdentifier = string(task, "schemaIdentifier", in: "the task")
            if let list = array(task, "steps", in: "the task") { readSteps(list, section: nil) }
        }
        outline.steps = steps
        outline.sections = sections
        outline.problems = problems
        return outline
    }

    /// Reads the steps of one container (the task or a section), checking that their identifiers are
    /// unique in it (`RSDStepValidator.stepValidation`, reference §1.3).
    private mutating func readSteps(_ list: [JSONCursor], section: Int?) {
        var seen: [String: SourceLocation] = [:]
        for cursor in list {
            guard let step = cursor.object else {
                problems.append(cursor.diagnostic(.error, "expected a step object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
                continue
            }
            guard let name = string(step, "identifier", required: true, in: "a step") else { continue }
            if let first = seen[name] {
                problems.append(
                    Diagnostic(
                        file: cursor.file.path, location: step.location,
                        message: "step identifier '\(name)' is not unique (first at \(first.position)); validate() fails with notUniqueIdentifiers",
                        hint: "give each step of a task or section its own identifier", rule: "sage-duplicate-id"))
                continue
            }
            seen[name] = step.location
            let prefix = section.map { sections[$0].id + "/" } ?? ""
            let type = string(step, "type", in: "step '\(name)'") ?? (step.contains("inputFields") ? "form" : "instruction")
            if type == "section" {
                let index = sections.count
                sections.append(Sage.Section(id: prefix + name, name: name, parent: section, steps: steps.count..<steps.count, location: step.location))
                if let children = array(step, "steps", in: "section '\(name)'") { readSteps(children, section: index) }
                sections[index].steps = sections[index].steps.lowerBound..<steps.count
                continue
            }
            readStep(step, id: prefix + name, name: name, type: type, section: section)
        }
    }

    private mutating func readStep(_ step: JSONObjectCursor, id: String, name: String, type: String, section: Int?) {
        let index = steps.count
        var fields: [Sage.Field] = []
        var answerIsObject = false
        var kind = Sage.StepKind.question
        var rules: [Sage.Rule] = []
        let stepOptional = generation == .legacy ? false : bool(step, "optional", in: "step '\(name)'") ?? true
        switch type {
        case "form" where generation == .legacy, _ where step.contains("inputFields"):
            guard let list = array(step, "inputFields", in: "form step '\(name)'", optional: true) else { break }
            var seen: Set<String> = []
            for cursor in list {
                guard let (field, ruleList) = readLegacyField(cursor, step: name) else { continue }
                let fieldIndex = fields.count
                rules += ruleList.compactMap { readRule($0, step: index, field: fieldIndex, shape: field.shape, answerIsObject: false) }
                if !seen.insert(field.id).inserted {
                    problems.append(
                        cursor.diagnostic(
                            .error, "input field identifier '\(field.id)' appears twice in step '\(name)'; validate() fails with notUniqueIdentifiers",
                            hint: "give each field of a form its own identifier (a field without one takes the step's)", rule: "sage-duplicate-id"))
                }
                fields.append(field)
            }
        case "simpleQuestion":
            guard let item = object(step, "inputItem", in: "question '\(name)'") else { break }
            if let field = readInputItem(item, defaultID: name, optional: stepOptional) { fields.append(field) }
        case "choiceQuestion", "stringChoiceQuestion":
            if let field = readChoiceQuestion(step, name: name, type: type, optional: stepOptional) { fields.append(field) }
        case "multipleInputQuestion":
            answerIsObject = true
            guard let list = array(step, "inputItems", in: "question '\(name)'") else { break }
            var seen: Set<String> = []
            for (position, cursor) in list.enumerated() {
                guard let item = cursor.object else {
                    problems.append(cursor.diagnostic(.error, "expected an input item object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
                    continue
                }
                guard let field = readInputItem(item, defaultID: String(position), optional: stepOptional) else { continue }
                if !seen.insert(field.id).inserted {
                    problems.append(cursor.diagnostic(.error, "input item identifier '\(field.id)' appears twice in step '\(name)'", rule: "sage-duplicate-id"))
                }
                fields.append(field)
            }
        default:
            kind = .display
        }
        if type == "form", generation == .legacy, !step.contains("inputFields") {
            problems.append(
                step.cursor.diagnostic(
                    .error, "form step '\(name)' has no \"inputFields\"; expected an array of input fields (decoding throws keyNotFound)",
                    hint: "wrap the field in \"inputFields\": [ … ]", rule: "sage-file-shape"))
        }
        if generation != .legacy, kind == .question, let list = array(step, "surveyRules", in: "question '\(name)'", optional: true) {
            for cursor in list {
                if let rule = readRule(cursor, step: index, field: 0, shape: fields.first?.shape, answerIsObject: answerIsObject) { rules.append(rule) }
            }
        }
        let skip = skipAction(step)
        let skipCheckbox = step["skipCheckbox"] != nil
        let optional = fields.allSatisfy(\.isOptional)
        steps.append(
            Sage.Step(
                id: id, name: name, type: type, title: string(step, "title", in: "step '\(name)'"), kind: kind, fields: fields,
                answerIsObject: answerIsObject, rules: rules,
                nextStepIdentifier: string(step, "nextStepIdentifier", in: "step '\(name)'"),
                nextStepLocation: step["nextStepIdentifier"]?.location,
                skipTarget: skip?.target, skipTargetLocation: skip?.location,
                canSkip: kind == .question && (optional || skip != nil || skipCheckbox),
                section: section, location: step.location))
    }

    /// `actions.skip.skipToIdentifier`: where a skipped step goes (`skipToIfNil`, reference §1.1).
    private mutating func skipAction(_ step: JSONObjectCursor) -> (target: String?, location: SourceLocation)? {
        guard let skip = step["actions"]?.object?["skip"]?.object else { return nil }
        return (string(skip, "skipToIdentifier", in: "the skip action"), skip["skipToIdentifier"]?.location ?? skip.location)
    }

    // MARK: fields

    /// A legacy input field (`RSDInputFieldObject`, reference §1.1), with its `surveyRules` to read once the
    /// field has its place.
    private mutating func readLegacyField(_ cursor: JSONCursor, step: String) -> (Sage.Field, [JSONCursor])? {
        guard let field = cursor.object else {
            problems.append(cursor.diagnostic(.error, "expected an input field object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        let id = string(field, "identifier", in: "an input field") ?? step
        guard let typeName = string(field, "type", required: true, in: "input field '\(id)'") else { return nil }
        let type = SageDataType(typeName)
        var result = Sage.Field(
            id: id, typeName: typeName, shape: type.shape, isOptional: bool(field, "optional", in: "input field '\(id)'") ?? false,
            choices: nil, components: nil, other: nil, bounds: .none, text: Sage.TextOptions(), location: field.location)
        if type.hasChoices {
            if type.isComponent {
                result.components = readComponents(field, id: id)
            } else {
                result.choices = readChoices(field, id: id, base: type.shape.base, required: true)
            }
        }
        if let range = object(field, "range", in: "input field '\(id)'") { result.bounds = readBounds(range) }
        if let options = object(field, "textFieldOptions", in: "input field '\(id)'") { result.text = readTextOptions(options, id: id) }
        return (result, array(field, "surveyRules", in: "input field '\(id)'", optional: true) ?? [])
    }

    /// A v3 or successor `inputItem`: its `type` gives the answer's type, `formatOptions` its bounds.
    private mutating func readInputItem(_ item: JSONObjectCursor, defaultID: String, optional: Bool) -> Sage.Field? {
        guard let typeName = string(item, "type", required: true, in: "an input item") else { return nil }
        guard let base = SageDataType.inputItemBase(typeName) else {
            problems.append(
                (item["type"] ?? item.cursor).diagnostic(
                    .error, "unknown input item type '\(typeName)'; expected one of \(SageDataType.inputItemTypes.joined(separator: ", "))\(Spelling.suggestion(for: typeName, in: SageDataType.inputItemTypes))",
                    rule: "sage-unknown-type"))
            return nil
        }
        var field = Sage.Field(
            id: string(item, "identifier", in: "an input item") ?? defaultID, typeName: typeName, shape: Sage.ValueShape(base: base, isArray: false),
            isOptional: optional, choices: nil, components: nil, other: nil, bounds: .none, text: Sage.TextOptions(), location: item.location)
        if let options = object(item, "formatOptions", in: "input item '\(field.id)'") { field.bounds = readBounds(options) }
        return field
    }

    /// A `choiceQuestion` (`baseType`, `singleChoice`, `choices`, `other`) or a `stringChoiceQuestion`.
    private mutating func readChoiceQuestion(_ step: JSONObjectCursor, name: String, type: String, optional: Bool) -> Sage.Field? {
        let baseName = type == "stringChoiceQuestion" ? "string" : string(step, "baseType", in: "question '\(name)'") ?? "string"
        guard let base = SageDataType.choiceBase(baseName) else {
            problems.append(
                (step["baseType"] ?? step.cursor).diagnostic(
                    .error, "unknown baseType '\(baseName)'; expected boolean, integer, number, decimal or string", rule: "sage-unknown-type"))
            return nil
        }
        let single = bool(step, "singleChoice", in: "question '\(name)'") ?? true
        var field = Sage.Field(
            id: name, typeName: baseName, shape: Sage.ValueShape(base: base, isArray: !single), isOptional: optional,
            choices: readChoices(step, id: name, base: base, required: true), components: nil, other: nil, bounds: .none,
            text: Sage.TextOptions(), location: step.location)
        if let other = object(step, "other", in: "question '\(name)'") {
            let otherType = string(other, "type", in: "\"other\"") ?? "string"
            field.other = SageDataType.inputItemBase(otherType) ?? .string
        }
        return field
    }

    private mutating func readChoices(_ owner: JSONObjectCursor, id: String, base: Sage.BaseType, required: Bool) -> [Sage.Choice]? {
        guard let list = array(owner, "choices", in: "'\(id)'", optional: !required) else { return nil }
        var choices: [Sage.Choice] = []
        for cursor in list {
            if let choice = cursor.object {
                let selector = choice["selectorType"]?.stringValue
                let value = choice["value"].flatMap { $0.isNull ? nil : $0 }
                if let value { checkType(value, base: base, what: "choice value of '\(id)'") }
                choices.append(
                    Sage.Choice(
                        value: value?.node.plain, text: choice["text"]?.stringValue,
                        isExclusive: choice["isExclusive"]?.boolValue ?? choice["exclusive"]?.boolValue ?? (selector == "exclusive"),
                        selectsAll: selector == "all", location: choice.location))
            } else {
                checkType(cursor, base: base, what: "choice of '\(id)'")
                choices.append(
                    Sage.Choice(
                        value: cursor.node.plain, text: cursor.stringValue, isExclusive: false, selectsAll: false, location: cursor.location))
            }
        }
        return choices
    }

    /// The choices of a `multipleComponent` field: one array of values per component.
    private mutating func readComponents(_ field: JSONObjectCursor, id: String) -> [[JSONValue]]? {
        guard let list = array(field, "choices", in: "'\(id)'") else { return nil }
        return list.map { component in
            guard let values = component.elements else {
                problems.append(component.diagnostic(.error, "expected an array of values for a component of '\(id)', found \(component.node.kindDescription)", rule: "sage-file-shape"))
                return []
            }
            return values.map { $0.stringValue.map(JSONValue.string) ?? $0.node.plain }
        }
    }

    private mutating func readBounds(_ object: JSONObjectCursor) -> Sage.Bounds {
        var bounds = Sage.Bounds(location: object.location)
        bounds.minimum = number(object, "minimumValue") ?? number(object, "minimumYear")
        bounds.maximum = number(object, "maximumValue") ?? number(object, "maximumYear")
        bounds.minimumDate = date(object, "minimumDate")
        bounds.maximumDate = date(object, "maximumDate")
        bounds.allowFuture = bool(object, "allowFuture", in: "a range")
        bounds.allowPast = bool(object, "allowPast", in: "a range")
        return bounds
    }

    private mutating func readTextOptions(_ object: JSONObjectCursor, id: String) -> Sage.TextOptions {
        var options = Sage.TextOptions()
        if let length = number(object, "maximumLength") { options.maximumLength = Int(length) }
        options.invalidMessage = string(object, "invalidMessage", in: "textFieldOptions")
        if let pattern = string(object, "textValidator", in: "textFieldOptions") {
            if (try? NSRegularExpression(pattern: pattern)) == nil, let cursor = object["textValidator"] {
                problems.append(
                    cursor.diagnostic(.error, "textValidator of '\(id)' is not a valid regular expression (invalidRegex)", hint: "write an ICU regular expression", rule: "sage-invalid-regex"))
            } else {
                options.validator = pattern
            }
        }
        return options
    }

    // MARK: rules

    /// A survey rule with its defaults (reference §1.2): the operator is `eq` with a `matchingAnswer` and
    /// `de` without (the successor: always `eq`, comparing with null); the target is `exit` unless the rule
    /// only sets a cohort. The legacy factory decodes `matchingAnswer` as the field's base type.
    private mutating func readRule(_ cursor: JSONCursor, step: Int, field: Int, shape: Sage.ValueShape?, answerIsObject: Bool) -> Sage.Rule? {
        guard let rule = cursor.object else {
            problems.append(cursor.diagnostic(.error, "expected a survey rule object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        let matching = rule["matchingAnswer"].flatMap { $0.isNull ? nil : $0 }
        var ruleOperator: Sage.RuleOperator = matching != nil || generation == .assessment ? .equal : .skip
        if let raw = string(rule, "ruleOperator", in: "a survey rule"), let where_ = rule["ruleOperator"] {
            let known = generation.operators
            if let parsed = Sage.RuleOperator(rawValue: raw), known.contains(parsed) {
                ruleOperator = parsed
            } else {
                let names = known.map(\.rawValue)
                let hint = raw == "d" ? "the skip operator is \"de\", not \"d\"" : "use one of \(names.joined(separator: ", "))"
                problems.append(
                    where_.diagnostic(
                        .error, "unknown ruleOperator '\(raw)' for \(generation.summary); expected one of \(names.joined(separator: ", "))\(Spelling.suggestion(for: raw, in: names))",
                        hint: hint, rule: "sage-unknown-operator"))
                return nil
            }
        }
        if let matching, generation != .assessment, let shape, !answerIsObject {
            if shape.isArray, let values = matching.elements {
                for value in values { checkType(value, base: shape.base, what: "matchingAnswer") }
            } else {
                checkType(matching, base: shape.base, what: "matchingAnswer")
            }
        }
        let cohort = string(rule, "cohort", in: "a survey rule")
        let written = string(rule, "skipToIdentifier", in: "a survey rule")
        let target = written ?? (cohort == nil ? "exit" : nil)
        return Sage.Rule(
            step: step, field: field, target: target, targetWritten: written != nil, ruleOperator: ruleOperator,
            matchingAnswer: matching?.node.plain, cohort: cohort, location: rule.location,
            targetLocation: rule["skipToIdentifier"]?.location ?? rule.location)
    }

    /// A value of the wrong type for the field is an error, as the factory's typed decoding throws.
    private mutating func checkType(_ cursor: JSONCursor, base: Sage.BaseType, what: String) {
        let fits: Bool =
            switch base {
            case .boolean: cursor.boolValue != nil
            case .integer: cursor.numberValue.map { $0 == $0.rounded() } ?? false
            case .decimal: cursor.numberValue != nil
            case .string, .date: cursor.stringValue != nil
            case .codable: true
            }
        if !fits {
            problems.append(
                cursor.diagnostic(
                    .error, "\(what) is \(cursor.node.kindDescription); expected \(SageDataType.describe(base)) (the factory decodes it as the field's base type)",
                    rule: "sage-type-mismatch"))
        }
    }

    // MARK: reading members

    private mutating func string(_ object: JSONObjectCursor, _ key: String, required: Bool = false, in what: String) -> String? {
        guard let member = object[key] else {
            if required { problems.append(object.cursor.diagnostic(.error, "\(what) has no \(CanonicalJSON.quote(key)); expected one", rule: "sage-file-shape")) }
            return nil
        }
        guard let value = member.stringValue else {
            problems.append(member.diagnostic(.error, "expected a string for \(CanonicalJSON.quote(key)) of \(what), found \(member.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        return value
    }

    private mutating func bool(_ object: JSONObjectCursor, _ key: String, in what: String) -> Bool? {
        guard let member = object[key] else { return nil }
        guard let value = member.boolValue else {
            problems.append(member.diagnostic(.error, "expected true or false for \(CanonicalJSON.quote(key)) of \(what), found \(member.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        return value
    }

    private mutating func number(_ object: JSONObjectCursor, _ key: String) -> Double? {
        guard let member = object[key] else { return nil }
        guard let value = member.numberValue else {
            problems.append(member.diagnostic(.error, "expected a number for \(CanonicalJSON.quote(key)), found \(member.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        return value
    }

    /// A date bound: its first ten characters as `yyyy-MM-dd` (the engine parses with `codingFormat`).
    private mutating func date(_ object: JSONObjectCursor, _ key: String) -> CalendarDate? {
        guard let member = object[key] else { return nil }
        guard let text = member.stringValue, let date = CalendarDate(iso: String(text.prefix(10))) else {
            problems.append(member.diagnostic(.error, "expected a date as yyyy-MM-dd for \(CanonicalJSON.quote(key)), found \(member.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        return date
    }

    private mutating func array(_ object: JSONObjectCursor, _ key: String, in what: String, optional: Bool = false) -> [JSONCursor]? {
        guard let member = object[key] else {
            if !optional { problems.append(object.cursor.diagnostic(.error, "\(what) has no \(CanonicalJSON.quote(key)); expected an array", rule: "sage-file-shape")) }
            return nil
        }
        guard let elements = member.elements else {
            problems.append(member.diagnostic(.error, "expected an array for \(CanonicalJSON.quote(key)) of \(what), found \(member.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        return elements
    }

    private mutating func object(_ object: JSONObjectCursor, _ key: String, in what: String) -> JSONObjectCursor? {
        guard let member = object[key] else {
            if key == "inputItem" { problems.append(object.cursor.diagnostic(.error, "\(what) has no \"inputItem\"; expected an object", rule: "sage-file-shape")) }
            return nil
        }
        guard let value = member.object else {
            problems.append(member.diagnostic(.error, "expected an object for \(CanonicalJSON.quote(key)) of \(what), found \(member.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        return value
    }
}
