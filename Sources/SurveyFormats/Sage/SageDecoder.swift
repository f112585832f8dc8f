import Foundation
import SurveyCore

/// Reads a SageResearch / AssessmentModel task file, keeping every location. It reads on past each problem,
/// recording it, so that lint reports them all; a load refuses a file with any error, as the factory's
/// decoding and `validate()` do. What each generation's decoder throws on is cited in docs/sage.md.
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
        /// SageResearch's `schemaInfo` (`identifier`, `revision`), written into the 2.x/3.x result.
        var schemaInfo: (identifier: String?, revision: Int?)
        var buttons: Sage.Buttons
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

    /// Which generation a file is, by the first sign of one: any legacy form step makes it legacy; any sign
    /// of the successor (its `$schema`, its `versionString` or `schemaIdentifier`, a `multipleInputQuestion`,
    /// a choice's `selectorType`, a question's `other`) makes it the successor; otherwise v3. Step types both
    /// have (`overview`, `completion`) say nothing.
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
        var outline = Outline(
            generation: generation, identifier: "task", schemaInfo: (nil, nil), buttons: .none, steps: [], sections: [], problems: [],
            file: root.file.path, location: root.location)
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
            if let info = object(task, "schemaInfo", in: "the task") {
                outline.schemaInfo = (string(info, "identifier", in: "schemaInfo"), number(info, "revision").map { Int($0) })
            }
            outline.buttons = buttons(task, in: "the task")
            if let list = array(task, "steps", in: "the task") { readSteps(list, section: nil) }
        }
        outline.steps = steps
        outline.sections = sections
        outline.problems = problems
        return outline
    }

    /// Reads the steps of one container (the task or a section), checking that their identifiers are
    /// unique in it (`RSDStepValidator.stepValidation`; AssessmentModel's `NodeNavigator.init`).
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
                sections.append(
                    Sage.Section(
                        id: prefix + name, name: name, parent: section, steps: steps.count..<steps.count,
                        buttons: buttons(step, in: "section '\(name)'"),
                        nextStepIdentifier: string(step, "nextStepIdentifier", in: "section '\(name)'"), location: step.location))
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
        // v3 `AbstractQuestionStep.isOptional` is `_isOptional ?? true`; AssessmentModel's `optional` is
        // `_optional ?? false`; a legacy field has its own `optional`.
        let stepOptional = generation == .legacy ? false : bool(step, "optional", in: "step '\(name)'") ?? (generation == .v3)
        switch type {
        case "form" where generation == .legacy, _ where step.contains("inputFields"):
            guard let list = array(step, "inputFields", in: "form step '\(name)'", optional: true) else { break }
            var seen: Set<String> = []
            for cursor in list {
                guard let (field, ruleList) = readLegacyField(cursor, step: name) else { continue }
                let fieldIndex = fields.count
                for (position, rule) in ruleList.enumerated() {
                    if let read = readLegacyRule(rule, step: index, field: fieldIndex, of: field, position: position + 1, stepName: name) { rules.append(read) }
                }
                if !seen.insert(field.id).inserted {
                    problems.append(
                        cursor.diagnostic(
                            .error, "input field identifier '\(field.id)' appears twice in step '\(name)'; validate() fails with notUniqueIdentifiers",
                            hint: "give each field of a form its own identifier (a field without one takes the step's)", rule: "sage-duplicate-id"))
                }
                fields.append(field)
            }
        case "simpleQuestion":
            // Without `inputItem` both decoders use a string text input (`StringTextInputItemObject`,
            // AssessmentModel's `defaultTextInputItem()`).
            if let item = object(step, "inputItem", in: "question '\(name)'") {
                if let field = readInputItem(item, defaultID: name, optional: stepOptional) { fields.append(field) }
            } else if step["inputItem"] == nil {
                fields.append(
                    Sage.Field(
                        id: name, typeName: "string", shape: Sage.ValueShape(base: .string, isArray: false), ruleBase: "string", resultType: "string",
                        isOptional: stepOptional, choices: nil, components: nil, other: nil, bounds: .none, text: Sage.TextOptions(), location: step.location))
            }
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
                if let rule = readJSONRule(cursor, step: index) { rules.append(rule) }
            }
        }
        let title = string(step, "title", in: "step '\(name)'")
        let subtitle = step["subtitle"]?.stringValue
        let detail = step["detail"]?.stringValue
        var skipCheckbox: JSONValue?
        if generation != .assessment, let checkbox = object(step, "skipCheckbox", in: "step '\(name)'") {
            skipCheckbox = checkbox["value"]?.node.plain ?? .null
        }
        steps.append(
            Sage.Step(
                id: id, name: name, type: type, title: title,
                questionText: generation == .assessment ? title : title ?? subtitle ?? detail, kind: kind, fields: fields,
                answerIsObject: answerIsObject, rules: rules,
                nextStepIdentifier: string(step, "nextStepIdentifier", in: "step '\(name)'"),
                nextStepLocation: step["nextStepIdentifier"]?.location,
                buttons: buttons(step, in: "step '\(name)'"), skipCheckbox: skipCheckbox,
                fullInstructionsOnly: bool(step, "fullInstructionsOnly", in: "step '\(name)'") ?? false,
                beforeCohortRules: cohortRules(step, "beforeCohortRules", step: name),
                afterCohortRules: cohortRules(step, "afterCohortRules", step: name),
                section: section, location: step.location))
    }

    /// `actions.skip` and `shouldHideActions` of a step, section or task.
    private mutating func buttons(_ owner: JSONObjectCursor, in what: String) -> Sage.Buttons {
        var buttons = Sage.Buttons()
        if let actions = object(owner, "actions", in: what) {
            if let skip = actions["skip"]?.object {
                let navigation = skip["type"]?.stringValue == "navigation"
                buttons.skip = Sage.SkipAction(
                    isNavigation: navigation, target: string(skip, "skipToIdentifier", in: "the skip action"),
                    location: skip["skipToIdentifier"]?.location ?? skip.location)
            }
            buttons.definesBack = actions["goBackward"] != nil
        }
        if let hidden = array(owner, "shouldHideActions", in: what, optional: true) {
            let names = hidden.compactMap(\.stringValue)
            buttons.hidesSkip = names.contains("skip")
            buttons.hidesBack = names.contains("goBackward")
        }
        return buttons
    }

    /// `beforeCohortRules` / `afterCohortRules` (`RSDCohortNavigationRuleObject`).
    private mutating func cohortRules(_ step: JSONObjectCursor, _ key: String, step name: String) -> [Sage.CohortRule] {
        guard let list = array(step, key, in: "step '\(name)'", optional: true) else { return [] }
        return list.compactMap { cursor in
            guard let rule = cursor.object else {
                problems.append(cursor.diagnostic(.error, "expected a cohort rule object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
                return nil
            }
            let required = (array(rule, "requiredCohorts", in: "a cohort rule") ?? []).compactMap(\.stringValue)
            let op = string(rule, "operator", in: "a cohort rule")
            return Sage.CohortRule(requiredCohorts: required, matchesAny: op == "any", skipTo: string(rule, "skipToIdentifier", in: "a cohort rule"))
        }
    }

    // MARK: fields

    /// A legacy input field (`RSDInputFieldObject`), with its `surveyRules` to read once the field has its
    /// place.
    private mutating func readLegacyField(_ cursor: JSONCursor, step: String) -> (Sage.Field, [JSONCursor])? {
        guard let field = cursor.object else {
            problems.append(cursor.diagnostic(.error, "expected an input field object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        let id = string(field, "identifier", in: "an input field") ?? step
        guard let typeName = string(field, "type", required: true, in: "input field '\(id)'") else { return nil }
        let type = SageDataType(typeName)
        var result = Sage.Field(
            id: id, typeName: typeName, shape: type.shape, ruleBase: type.ruleBase, resultType: type.shape.base.rawValue,
            isOptional: bool(field, "optional", in: "input field '\(id)'") ?? false,
            choices: nil, components: nil, other: nil, bounds: .none, text: Sage.TextOptions(), location: field.location)
        if type.hasChoices {
            if type.isComponent {
                result.components = readComponents(field, id: id)
            } else {
                result.choices = readChoices(field, id: id, base: type.shape.base, required: true, exactNumbers: false)
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
            ruleBase: base.rawValue, resultType: SageDataType.resultType(ofInputItem: typeName),
            isOptional: optional, choices: nil, components: nil, other: nil, bounds: .none, text: Sage.TextOptions(), location: item.location)
        if let options = object(item, "formatOptions", in: "input item '\(field.id)'") { field.bounds = readBounds(options) }
        return field
    }

    /// A `choiceQuestion` (`baseType`, `singleChoice`, `choices`, `other`) or a `stringChoiceQuestion`.
    /// `baseType` is a JSON type name; every choice value must be of exactly that type (an integral number is
    /// an `integer`, not a `number`). Without `baseType`, SageResearch takes `string` and AssessmentModel the
    /// type of the first choice value.
    private mutating func readChoiceQuestion(_ step: JSONObjectCursor, name: String, type: String, optional: Bool) -> Sage.Field? {
        let inferred = generation == .assessment ? step["choices"]?.elements?.lazy.compactMap(\.object).compactMap({ $0["value"] }).first(where: { !$0.isNull }).map(SageDataType.jsonTypeName) : nil
        let baseName = type == "stringChoiceQuestion" ? "string" : string(step, "baseType", in: "question '\(name)'") ?? inferred ?? "string"
        guard let base = SageDataType.choiceBase(baseName) else {
            problems.append(
                (step["baseType"] ?? step.cursor).diagnostic(
                    .error, "unknown baseType '\(baseName)'; expected boolean, integer, number or string (a JSON type name)\(Spelling.suggestion(for: baseName, in: ["boolean", "integer", "number", "string"]))",
                    rule: "sage-unknown-type"))
            return nil
        }
        let single = bool(step, "singleChoice", in: "question '\(name)'") ?? true
        var field = Sage.Field(
            id: name, typeName: baseName, shape: Sage.ValueShape(base: base, isArray: !single), ruleBase: baseName,
            resultType: baseName, isOptional: optional,
            choices: readChoices(step, id: name, base: base, required: true, exactNumbers: true), components: nil, other: nil, bounds: .none,
            text: Sage.TextOptions(), location: step.location)
        if let other = object(step, "other", in: "question '\(name)'") {
            let otherType = string(other, "type", in: "\"other\"") ?? "string"
            field.other = SageDataType.inputItemBase(otherType) ?? .string
            if generation == .assessment, field.other != base {
                problems.append(
                    (other["type"] ?? other.cursor).diagnostic(
                        .error, "the \"other\" input of '\(name)' is \(otherType); expected \(baseName), the question's baseType (AssessmentModel's decoder throws typeMismatch)",
                        rule: "sage-type-mismatch"))
            }
        }
        if let choices = field.choices {
            var seen: Set<JSONValue> = []
            for choice in choices where generation == .assessment {
                if let value = choice.value, !seen.insert(value).inserted {
                    problems.append(Diagnostic(file: step.cursor.file.path, location: choice.location, message: "choice \(value) of '\(name)' appears twice; expected unique choices (AssessmentModel's decoder throws typeMismatch)", rule: "sage-duplicate-id"))
                }
            }
        }
        return field
    }

    private mutating func readChoices(_ owner: JSONObjectCursor, id: String, base: Sage.BaseType, required: Bool, exactNumbers: Bool) -> [Sage.Choice]? {
        guard let list = array(owner, "choices", in: "'\(id)'", optional: !required) else { return nil }
        var choices: [Sage.Choice] = []
        for cursor in list {
            if let choice = cursor.object {
                let selector = choice["selectorType"]?.stringValue
                let value = choice["value"].flatMap { $0.isNull ? nil : $0 }
                if let value { checkType(value, base: base, what: "choice value of '\(id)'", exactNumbers: exactNumbers) }
                choices.append(
                    Sage.Choice(
                        value: value?.node.plain, text: choice["text"]?.stringValue,
                        isExclusive: choice["isExclusive"]?.boolValue ?? choice["exclusive"]?.boolValue ?? (selector == "exclusive"),
                        selectsAll: selector == "all", location: choice.location))
            } else {
                checkType(cursor, base: base, what: "choice of '\(id)'", exactNumbers: exactNumbers)
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

    /// A legacy rule (`RSDFactory.decodeSurveyRule(from:for:)`, `RSDComparableSurveyRuleObject.init(from:)`):
    /// `matchingAnswer` is decoded as the field's `RSDFormDataType.BaseType` (a single value, even for a
    /// multiple choice); a field of base type `codable` cannot have rules; a rule with none of its four keys,
    /// or without `matchingAnswer` unless its operator is `de`, throws. Any throw fails the whole task.
    private mutating func readLegacyRule(_ cursor: JSONCursor, step: Int, field: Int, of input: Sage.Field, position: Int, stepName: String) -> Sage.Rule? {
        guard let rule = cursor.object else {
            problems.append(cursor.diagnostic(.error, "expected a survey rule object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        let what = "rule \(position) of field '\(input.id)' in step '\(stepName)'"
        if input.ruleBase == "codable" {
            problems.append(
                cursor.diagnostic(
                    .error, "\(what): field '\(input.id)' (\(input.typeName)) has base type codable, which cannot have survey rules; expected a field of another base type (the factory throws typeMismatch and the task does not load)",
                    hint: "give the field a base type (for example singleChoice.string) or remove its surveyRules", rule: "sage-rule-not-decodable"))
            return nil
        }
        guard let read = readJSONRule(cursor, step: step, field: field) else { return nil }
        if read.skipTo == nil, read.matchingAnswer == nil, read.written == nil, read.cohort == nil, rule["matchingAnswer"] == nil {
            problems.append(
                cursor.diagnostic(
                    .error, "\(what) has none of skipToIdentifier, matchingAnswer, ruleOperator, cohort; expected at least one (the decoder throws valueNotFound and the task does not load)",
                    rule: "sage-rule-not-decodable"))
            return nil
        }
        if read.matchingAnswer == nil, read.written != .skip {
            let op = read.written.map { "\"\($0.rawValue)\"" } ?? "absent"
            problems.append(
                cursor.diagnostic(
                    .error, "\(what) has no matchingAnswer and its ruleOperator is \(op); expected a matchingAnswer or \"ruleOperator\": \"de\" (the decoder throws valueNotFound, \"The expected answer is nil and the rule operator is not skip\", and the task does not load)",
                    hint: read.written == .always ? "an always rule needs some matchingAnswer (its value is ignored)" : "write \"ruleOperator\": \"de\" to match a skipped field, or give a matchingAnswer",
                    rule: "sage-rule-not-decodable"))
            return nil
        }
        if let matching = rule["matchingAnswer"], !matching.isNull, !legacyValueFits(matching, ruleBase: input.ruleBase) {
            problems.append(
                matching.diagnostic(
                    .error, "matchingAnswer of \(what) is \(matching.node.kindDescription); expected \(SageDataType.describeRuleBase(input.ruleBase)), the field's base type \(input.ruleBase), as which the factory decodes it (the task does not load)",
                    hint: input.shape.isArray ? "a rule on a multiple choice compares one value: write one rule per value" : nil, rule: "sage-type-mismatch"))
            return nil
        }
        return read
    }

    /// Whether a legacy `matchingAnswer` decodes as the field's base type (`Bool`, `String`, `Date`,
    /// `Double`, `RSDFraction`, `Int`).
    private func legacyValueFits(_ cursor: JSONCursor, ruleBase: String) -> Bool {
        switch ruleBase {
        case "boolean": cursor.boolValue != nil
        case "string": cursor.stringValue != nil
        case "date": cursor.stringValue.map { CalendarDate(iso: String($0.prefix(10))) != nil || $0.contains(":") } ?? false
        case "decimal", "duration": cursor.numberValue != nil
        case "fraction": cursor.numberValue != nil || cursor.stringValue != nil
        case "integer", "year": cursor.numberValue.map { $0 == $0.rounded() && abs($0) < 9.2e18 } ?? false
        default: false
        }
    }

    /// A rule as v3 question steps (`JsonSurveyRuleObject`: every key optional, `matchingAnswer` any JSON)
    /// and AssessmentModel (`JsonSurveyRuleObject`: six operators) decode it; legacy rules start here too.
    private mutating func readJSONRule(_ cursor: JSONCursor, step: Int, field: Int = 0) -> Sage.Rule? {
        guard let rule = cursor.object else {
            problems.append(cursor.diagnostic(.error, "expected a survey rule object, found \(cursor.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        var written: Sage.RuleOperator?
        if let raw = string(rule, "ruleOperator", in: "a survey rule"), let place = rule["ruleOperator"] {
            let known = generation.operators
            guard let parsed = Sage.RuleOperator(rawValue: raw), known.contains(parsed) else {
                let names = known.map(\.rawValue)
                let hint = raw == "d" ? "the skip operator is \"de\", not \"d\"" : "use one of \(names.joined(separator: ", "))"
                problems.append(
                    place.diagnostic(
                        .error, "unknown ruleOperator '\(raw)' for \(generation.summary); expected one of \(names.joined(separator: ", "))\(Spelling.suggestion(for: raw, in: names))",
                        hint: hint, rule: "sage-unknown-operator"))
                return nil
            }
            written = parsed
        }
        let cohort = generation == .assessment ? nil : string(rule, "cohort", in: "a survey rule")
        let skipTo = string(rule, "skipToIdentifier", in: "a survey rule")
        if generation == .assessment { checkAssessmentRuleKeys(rule) }
        return Sage.Rule(
            step: step, field: field, skipTo: skipTo, written: written,
            matchingAnswer: rule["matchingAnswer"].flatMap { $0.isNull ? nil : $0.node.plain }, cohort: cohort, location: rule.location,
            targetLocation: rule["skipToIdentifier"]?.location ?? rule.location)
    }

    /// What loads under 08288272 but not under every build of AssessmentModel: a rule without
    /// `skipToIdentifier` (defaulted to exit by 08288272's `@Serializable`, but a required key of the synthesized
    /// decoder of v1.1.4, the latest release: AssessmentModelKMM@v1.1.4
    /// `SwiftPackage/Sources/AssessmentModel/Assessment/Question/JsonSurveyRuleObject.swift:9-16`), and a key
    /// Kotlin's rule class does not declare (its `Json` coder has no `ignoreUnknownKeys`, so Android fails the
    /// whole assessment: `assessmentmodel/src/commonMain/kotlin/serialization/Serialization.kt:26-30`,
    /// `Nodes.kt:382-386`).
    private mutating func checkAssessmentRuleKeys(_ rule: JSONObjectCursor) {
        if !rule.contains("skipToIdentifier") {
            problems.append(
                rule.cursor.diagnostic(
                    .warning, "this survey rule has no skipToIdentifier: AssessmentModelKMM 08288272 (and Kotlin) default it to exit, but v1.1.4, the latest release, requires the key and the assessment does not load on iOS",
                    hint: "write \"skipToIdentifier\": \"exit\"", rule: "sage-rule-without-target"))
        }
        for member in rule.members where !["matchingAnswer", "skipToIdentifier", "ruleOperator"].contains(member.key) {
            problems.append(
                (rule[member.key] ?? rule.cursor).diagnostic(
                    .warning, "survey rule key '\(member.key)' is not one AssessmentModel reads: iOS ignores it, but Android (Kotlin) decodes strictly and the whole assessment fails to load there",
                    hint: "remove \"\(member.key)\"", rule: "sage-kotlin-unknown-key"))
        }
    }

    /// A choice value of the wrong type for the field is an error, as the factory's typed decoding (legacy)
    /// or the question's check that each choice's JSON type is its `baseType` (v3, AssessmentModel) throws.
    private mutating func checkType(_ cursor: JSONCursor, base: Sage.BaseType, what: String, exactNumbers: Bool) {
        let integral = cursor.numberValue.map { $0 == $0.rounded() } ?? false
        let fits: Bool =
            switch base {
            case .boolean: cursor.boolValue != nil
            case .integer: integral
            case .decimal: cursor.numberValue != nil && !(exactNumbers && integral)
            case .string, .date: cursor.stringValue != nil
            case .codable: true
            }
        if !fits {
            let found = exactNumbers && base == .decimal && integral ? "an integer" : cursor.node.kindDescription
            problems.append(
                cursor.diagnostic(
                    .error, "\(what) is \(found); expected \(exactNumbers && base == .decimal ? "a number with a fraction (an integral value has the JSON type integer)" : SageDataType.describe(base)) (the decoder checks it against the question's type)",
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
        guard let member = object[key] else { return nil }
        guard let value = member.object else {
            problems.append(member.diagnostic(.error, "expected an object for \(CanonicalJSON.quote(key)) of \(what), found \(member.node.kindDescription)", rule: "sage-file-shape"))
            return nil
        }
        return value
    }
}
