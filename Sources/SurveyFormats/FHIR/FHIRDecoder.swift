import SurveyCore

/// Reads an R4 Questionnaire, keeping every location. It never stops at a problem: what makes the file
/// unusable for a simulation goes to `errors` (a load reports them all and loads nothing), and what the spec
/// forbids but the engines render anyway (most que-* constraints, a missing status) goes to `findings`,
/// which lint reports.
struct FHIRDecoder {
    let file: String
    private(set) var items: [FHIR.Item?] = []
    private(set) var errors: [Diagnostic] = []
    private(set) var findings: [Diagnostic] = []
    /// The codes of each contained ValueSet, by `#id` (resolved offline, as C3-PRO does; §A2 answerValueSet).
    private var valueSets: [String: [FHIR.Value]] = [:]
    /// The first STU3-only form of the file (`options`, `option`, `initial[x]`, `hasAnswer`, enableWhen
    /// without operator), when it is C3-PRO's STU3-era input; nil for an R4 file.
    private(set) var stu3Form: JSONCursor?
    /// The ValueSet files beside the Questionnaire, read when an `options` reference is not contained.
    private var files: FHIRValueSetFiles
    /// Every linkId the file gives, and how many were generated: an STU3-era item without a linkId gets one
    /// no item has (C3-PRO gives it a random UUID; here `uuid-1`, `uuid-2`… for a deterministic run).
    private var givenLinkIds: Set<String> = []
    private var generatedLinkIds = 0

    static let shapeRule = "fhir-file-shape"

    private init(file: String) {
        self.file = file
        self.files = FHIRValueSetFiles(besides: file)
    }

    static func read(_ root: JSONCursor) -> (FHIROutline?, errors: [Diagnostic], findings: [Diagnostic]) {
        var decoder = FHIRDecoder(file: root.file.path)
        guard let object = root.object else {
            return (nil, [root.diagnostic(.error, "expected a Questionnaire object", rule: shapeRule)], [])
        }
        let outline = decoder.decodeQuestionnaire(object)
        return (outline, decoder.errors, decoder.findings)
    }

    // MARK: reporting

    private mutating func error(_ cursor: JSONCursor, _ message: String, hint: String? = nil, rule: String = shapeRule) {
        let hint = hint ?? "follow the R4 Questionnaire structure (hl7.org/fhir/R4/questionnaire-definitions.html): the simulation needs it"
        errors.append(cursor.diagnostic(.error, message, hint: hint, rule: rule))
    }

    private mutating func finding(_ severity: Diagnostic.Severity, _ cursor: JSONCursor, _ message: String, hint: String, rule: String) {
        findings.append(cursor.diagnostic(severity, message, hint: hint, rule: rule))
    }

    /// A que-* constraint broken: the engines render such files anyway, so lint reports it and a load goes on.
    private mutating func constraint(_ id: String, _ cursor: JSONCursor, _ message: String, hint: String) {
        findings.append(cursor.diagnostic(.error, "\(message) (\(id))", hint: hint, rule: "fhir-\(id)"))
    }

    // MARK: typed optional members

    private mutating func string(_ object: JSONObjectCursor, _ key: String) -> String? {
        guard let cursor = object[key] else { return nil }
        guard let value = cursor.stringValue else {
            error(cursor, "expected a string for \"\(key)\", found \(cursor.node.kindDescription)")
            return nil
        }
        return value
    }

    private mutating func bool(_ object: JSONObjectCursor, _ key: String) -> Bool? {
        guard let cursor = object[key] else { return nil }
        guard let value = cursor.boolValue else {
            error(cursor, "expected true or false for \"\(key)\", found \(cursor.node.kindDescription)")
            return nil
        }
        return value
    }

    private mutating func integer(_ cursor: JSONCursor, for what: String) -> Int? {
        guard let number = cursor.numberValue, number == number.rounded(), abs(number) < 2_147_483_648 else {
            error(cursor, "expected an integer for \(what), found \(cursor.node.kindDescription)")
            return nil
        }
        return Int(number)
    }

    private mutating func array(_ object: JSONObjectCursor, _ key: String) -> [JSONCursor] {
        guard let cursor = object[key] else { return [] }
        guard let elements = cursor.elements else {
            error(cursor, "expected an array for \"\(key)\", found \(cursor.node.kindDescription)")
            return []
        }
        return elements
    }

    /// The one `prefix<Type>` member of an object (`answerCoding`, `valueInteger`…), checked against its type.
    private mutating func value(_ object: JSONObjectCursor, prefix: String, in what: String, allowed: Set<FHIR.ValueType>? = nil) -> FHIR.Value? {
        let found = FHIRValues.members(object, prefix: prefix)
        guard let first = found.first else {
            let expected = (allowed.map { Array($0) } ?? FHIR.ValueType.allCases).map { prefix + $0.rawValue }.sorted().joined(separator: ", ")
            error(object.cursor, "\(what) has no \(prefix)[x]; expected one of \(expected)")
            return nil
        }
        if found.count > 1 {
            error(found[1].cursor, "\(what) has both \"\(first.key)\" and \"\(found[1].key)\"; expected one \(prefix)[x]")
            return nil
        }
        if let allowed, !allowed.contains(first.type) {
            let expected = allowed.map { prefix + $0.rawValue }.sorted().joined(separator: ", ")
            error(first.cursor, "\"\(first.key)\" is not allowed in \(what); expected one of \(expected)")
            return nil
        }
        let json = first.cursor.node.plain
        if let problem = FHIRValues.problem(json, as: first.type) {
            error(first.cursor, "\(problem) for \"\(first.key)\", found \(CanonicalJSON.compact(json))")
            return nil
        }
        return FHIR.Value(first.type, json)
    }

    // MARK: the questionnaire

    private mutating func decodeQuestionnaire(_ object: JSONObjectCursor) -> FHIROutline {
        if object["status"] == nil {
            finding(
                .warning, object.cursor, "the Questionnaire has no \"status\", which R4 requires (1..1)",
                hint: "add \"status\": \"draft\" or \"active\"; the engines render it anyway", rule: "fhir-missing-status")
        }
        for contained in array(object, "contained") {
            guard let resource = contained.object, resource["resourceType"]?.stringValue == "ValueSet", let id = resource["id"]?.stringValue else { continue }
            valueSets["#" + id] = FHIRValueSetFiles.codes(of: resource)
        }
        stu3Form = Self.stu3Form(in: object)
        if stu3Form != nil { givenLinkIds = Self.linkIds(in: object) }
        let itemCursor = object["item"]
        var top: [Int] = []
        if let itemCursor {
            if let elements = itemCursor.elements {
                for element in elements {
                    if let index = decodeItem(element, parent: nil) { top.append(index) }
                }
            } else {
                error(itemCursor, "expected an array of items for \"item\", found \(itemCursor.node.kindDescription)")
            }
        }
        if top.isEmpty, errors.isEmpty {
            error(itemCursor ?? object.cursor, "the Questionnaire has no items; expected at least one in \"item\"")
        }
        let identifier = object["identifier"]?.elements?.first?.object?["value"]?.stringValue
        return FHIROutline(
            file: file, items: items.compactMap { $0 }, topLevel: top, url: string(object, "url"), version: string(object, "version"),
            id: string(object, "id"), location: object.location, stu3Form: stu3Form?.location, identifier: identifier)
    }

    /// Every string linkId of the items, at any depth.
    private static func linkIds(in questionnaire: JSONObjectCursor) -> Set<String> {
        var found: Set<String> = []
        func visit(_ list: JSONCursor?) {
            for entry in list?.elements ?? [] {
                guard let item = entry.object else { continue }
                if let linkId = item["linkId"]?.stringValue { found.insert(linkId) }
                visit(item["item"])
            }
        }
        visit(questionnaire["item"])
        return found
    }

    /// A linkId for an STU3-era item without one: the next `uuid-N` that no item of the file has.
    private mutating func generatedLinkId() -> String {
        while true {
            generatedLinkIds += 1
            let candidate = "uuid-\(generatedLinkIds)"
            if !givenLinkIds.contains(candidate) { return candidate }
        }
    }

    /// The first form only STU3 has, when the file is STU3-era: `options` or `option` on an item, an item's
    /// `initial[x]`, `hasAnswer` in an enableWhen, or enableWhen without `operator` in a file where no
    /// enableWhen has one (a file that mixes both is R4 with a mistake, and its missing operator an error).
    private static func stu3Form(in questionnaire: JSONObjectCursor) -> JSONCursor? {
        var form: JSONCursor?
        var withoutOperator: JSONCursor?
        var anyOperator = false
        func visit(_ list: JSONCursor?) {
            for entry in list?.elements ?? [] {
                guard let item = entry.object else { continue }
                for key in ["options", "option"] where form == nil { form = item[key] }
                if form == nil, let initial = FHIRValues.members(item, prefix: "initial").first { form = initial.cursor }
                for condition in item["enableWhen"]?.elements ?? [] {
                    guard let object = condition.object else { continue }
                    if form == nil { form = object["hasAnswer"] }
                    if object["operator"] != nil { anyOperator = true } else if withoutOperator == nil { withoutOperator = condition }
                }
                visit(item["item"])
            }
        }
        visit(questionnaire["item"])
        return form ?? (anyOperator ? nil : withoutOperator)
    }

    // MARK: items

    private mutating func decodeItem(_ cursor: JSONCursor, parent: Int?) -> Int? {
        guard let object = cursor.object else {
            error(cursor, "expected an item object, found \(cursor.node.kindDescription)")
            return nil
        }
        var hints = FHIR.C3PROHints()
        let linkId: String
        if object["linkId"] == nil, stu3Form != nil {
            // C3-PRO's input: the item gets a generated id (§A3, a random UUID), and lint warns.
            linkId = generatedLinkId()
            hints.linkIdGenerated = true
        } else {
            guard let linkIdCursor = object["linkId"], let given = linkIdCursor.stringValue, !given.isEmpty else {
                error(object["linkId"] ?? cursor, "the item has no \"linkId\"; expected a non-empty string (1..1)")
                return nil
            }
            linkId = given
        }
        let type: FHIR.ItemType
        if object["type"] == nil, stu3Form != nil {
            // C3-PRO's input: C3-PRO asks for a text answer, as for a string item (§A3), and lint warns.
            type = .string
            hints.typeMissing = true
        } else {
            guard let typeCursor = object["type"], let typeName = typeCursor.stringValue else {
                error(object["type"] ?? cursor, "item '\(linkId)' has no \"type\"; expected one of \(FHIR.ItemType.allCases.map(\.rawValue).joined(separator: ", "))")
                return nil
            }
            guard let known = FHIR.ItemType(rawValue: typeName) else {
                error(
                    typeCursor,
                    "item '\(linkId)' has the unknown type \"\(typeName)\"; expected one of \(FHIR.ItemType.allCases.map(\.rawValue).joined(separator: ", "))\(Spelling.suggestion(for: typeName, in: FHIR.ItemType.allCases.map(\.rawValue)))"
                )
                return nil
            }
            type = known
        }
        let index = items.count
        items.append(nil)

        let text = string(object, "text")
        let required = bool(object, "required") ?? false
        let repeats = bool(object, "repeats") ?? false
        let readOnly = bool(object, "readOnly") ?? false
        let maxLength = object["maxLength"].flatMap { integer($0, for: "\"maxLength\"") }
        let (enableWhen, enableBehavior) = decodeEnableWhen(object, linkId: linkId, unreadable: &hints.unreadableConditions)
        let options = decodeOptions(object, key: "answerOption", linkId: linkId) + (stu3Form == nil ? [] : decodeOptions(object, key: "option", linkId: linkId))
        hints.codeTitle = Self.codeTitle(object)
        if !options.isEmpty { hints.optionsSource = .inline }
        var valueSetCodes: [FHIR.AnswerOption] = []
        var externalValueSet: String?
        let reference = string(object, "answerValueSet").map { (reference: $0, cursor: object["answerValueSet"]) } ?? stu3Reference(object)
        if let valueSet = reference?.reference, let cursor = reference?.cursor {
            let isOptions = cursor.pointer != object["answerValueSet"]?.pointer
            // STU3 `options` may name a ValueSet file beside the Questionnaire (C3-PRO resolves it; §A3).
            if let codes = valueSets[valueSet] ?? (isOptions ? files.codes(of: valueSet) : nil) {
                valueSetCodes = codes.map { FHIR.AnswerOption(value: $0, initialSelected: false, location: cursor.location) }
                if options.isEmpty { hints.optionsSource = .valueSet(valueSet) }
            } else {
                externalValueSet = valueSet
                if options.isEmpty { hints.optionsSource = .unresolved(valueSet) }
            }
        }
        var initial = array(object, "initial").compactMap { entry -> FHIR.Value? in
            guard let entryObject = entry.object else {
                error(entry, "expected an initial object with one value[x], found \(entry.node.kindDescription)")
                return nil
            }
            return value(entryObject, prefix: "value", in: "the initial value of '\(linkId)'")
        }
        if stu3Form != nil, object["initial"] == nil, !FHIRValues.members(object, prefix: "initial").isEmpty {
            // STU3 writes one `initial[x]` on the item itself.
            initial = value(object, prefix: "initial", in: "item '\(linkId)'").map { [$0] } ?? []
        }
        if let expected = type.valueType, let wrong = initial.first(where: { $0.type != expected }), let cursor = object["initial"] {
            error(cursor, "the initial value of '\(linkId)' is a \(wrong.type.rawValue); \(type.withArticle) item takes value\(expected.rawValue)")
        }
        let extensions = decodeExtensions(object, linkId: linkId, type: type, hints: &hints)

        var children: [Int] = []
        for child in array(object, "item") {
            if let childIndex = decodeItem(child, parent: index) { children.append(childIndex) }
        }
        checkConstraints(object, linkId: linkId, type: type, options: options, initial: initial, children: children)

        items[index] = FHIR.Item(
            linkId: linkId, text: text, type: type, required: required, repeats: repeats, readOnly: readOnly, maxLength: maxLength,
            options: options.isEmpty ? valueSetCodes : options, externalValueSet: externalValueSet, initial: initial, enableWhen: enableWhen,
            enableBehavior: enableBehavior, minValue: extensions.minValue, maxValue: extensions.maxValue, maxOccurs: extensions.maxOccurs,
            minOccurs: extensions.minOccurs, hidden: extensions.hidden, itemControl: extensions.itemControl, entryFormat: extensions.entryFormat,
            expressions: extensions.expressions, c3pro: hints, parent: parent, children: children, location: object.location,
            enableWhenLocation: object["enableWhen"]?.location)
        return index
    }

    /// The first `code.display`, else the first `code.code` (C3-PRO's `c3_bestTitleAndText`, §A3).
    private static func codeTitle(_ object: JSONObjectCursor) -> String? {
        let codings = (object["code"]?.node.plain.arrayValue ?? []).compactMap(\.objectValue)
        return codings.lazy.compactMap { $0["display"]?.stringValue }.first ?? codings.lazy.compactMap { $0["code"]?.stringValue }.first
    }

    private mutating func decodeEnableWhen(
        _ object: JSONObjectCursor, linkId: String, unreadable: inout [FHIR.UnreadableCondition]
    ) -> ([FHIR.EnableWhen], FHIR.EnableBehavior?) {
        var conditions: [FHIR.EnableWhen] = []
        let entries = array(object, "enableWhen")
        for entry in entries {
            guard let condition = entry.object else {
                error(entry, "expected an enableWhen object, found \(entry.node.kindDescription)")
                continue
            }
            let question = string(condition, "question")
            if condition["question"] == nil {
                if stu3Form != nil {
                    // C3-PRO's input: C3-PRO cannot read it and drops the item's own conditions (§A3).
                    unreadable.append(FHIR.UnreadableCondition(problem: "has no \"question\"", location: entry.location))
                    continue
                }
                error(entry, "an enableWhen of '\(linkId)' has no \"question\"; expected the linkId of the item it reads (1..1)")
            }
            var op: FHIR.Operator?
            if stu3Form != nil, condition["operator"] == nil {
                // STU3: `hasAnswer` tests answered-ness (R4 exists), an answer[x] alone equality (R4 =).
                if let hasAnswer = condition["hasAnswer"] {
                    guard let flag = hasAnswer.boolValue else {
                        error(hasAnswer, "expected true or false for \"hasAnswer\", found \(hasAnswer.node.kindDescription)")
                        continue
                    }
                    if let extra = FHIRValues.members(condition, prefix: "answer").first {
                        error(extra.cursor, "an enableWhen of '\(linkId)' has both \"hasAnswer\" and \"\(extra.key)\"; expected one of them (STU3)")
                        continue
                    }
                    if let question {
                        conditions.append(FHIR.EnableWhen(question: question, op: .exists, answer: FHIR.Value(.boolean, .bool(flag)), location: entry.location))
                    }
                    continue
                }
                if FHIRValues.members(condition, prefix: "answer").isEmpty {
                    unreadable.append(FHIR.UnreadableCondition(problem: "has neither an answer[x] nor hasAnswer", location: entry.location))
                    continue
                }
                op = .equals
            } else if let opCursor = condition["operator"], let name = opCursor.stringValue {
                op = FHIR.Operator(rawValue: name)
                if op == nil {
                    error(opCursor, "unknown enableWhen operator \"\(name)\"; expected one of exists, =, !=, >, <, >=, <=")
                }
            } else {
                error(condition["operator"] ?? entry, "an enableWhen of '\(linkId)' has no \"operator\"; expected one of exists, =, !=, >, <, >=, <= (1..1)")
            }
            // STU3 also compares answerUri and answerAttachment.
            let allowed: Set<FHIR.ValueType> =
                stu3Form != nil ? Set(FHIR.ValueType.allCases) : [.boolean, .decimal, .integer, .date, .dateTime, .time, .string, .coding, .quantity, .reference]
            let answer = value(condition, prefix: "answer", in: "an enableWhen of '\(linkId)'", allowed: allowed)
            if op == .exists, let answer, answer.type != .boolean {
                // que-7 leaves the meaning undefined, so the file cannot be simulated.
                error(
                    entry, "operator exists takes answerBoolean, not answer\(answer.type.rawValue) (que-7)",
                    hint: "write \"answerBoolean\": true to test that it is answered, false that it is not", rule: "fhir-que-7")
                continue
            }
            if let question, let op, let answer {
                conditions.append(FHIR.EnableWhen(question: question, op: op, answer: answer, location: entry.location))
            }
        }
        var behavior: FHIR.EnableBehavior?
        if let cursor = object["enableBehavior"], let name = cursor.stringValue {
            behavior = FHIR.EnableBehavior(rawValue: name)
            if behavior == nil { error(cursor, "unknown enableBehavior \"\(name)\"; expected all or any") }
        } else if let cursor = object["enableBehavior"] {
            error(cursor, "expected \"all\" or \"any\" for \"enableBehavior\", found \(cursor.node.kindDescription)")
        }
        if entries.count > 1, object["enableBehavior"] == nil, stu3Form != nil {
            // STU3 has no enableBehavior: C3-PRO ANDs them all (its own rules); the r4 profile reads them as
            // LHC-Forms reads a missing enableBehavior, any (lint c3pro-several-conditions).
            behavior = .any
        } else if entries.count > 1, object["enableBehavior"] == nil, let cursor = object["enableWhen"] {
            // Engines disagree here (LHC-Forms: any; android-fhir: throws; C3-PRO: all), so there is no reading to simulate.
            error(
                cursor, "'\(linkId)' has \(entries.count) enableWhen conditions but no enableBehavior (que-12)",
                hint: "add \"enableBehavior\": \"all\" or \"any\": LHC-Forms reads it as any, C3-PRO as all, and android-fhir fails", rule: "fhir-que-12")
        }
        return (conditions, behavior)
    }

    /// STU3 `options`: a Reference to the ValueSet of the choices.
    private mutating func stu3Reference(_ object: JSONObjectCursor) -> (reference: String, cursor: JSONCursor?)? {
        guard stu3Form != nil, let cursor = object["options"] else { return nil }
        guard let reference = cursor.object?["reference"], let text = reference.stringValue else {
            error(cursor, "expected a Reference for \"options\": {\"reference\": \"#ValueSet-id\"}, found \(cursor.node.kindDescription)")
            return nil
        }
        return (text, reference)
    }

    /// `answerOption` (R4) or `option` (STU3): the choices written in the item.
    private mutating func decodeOptions(_ object: JSONObjectCursor, key: String, linkId: String) -> [FHIR.AnswerOption] {
        array(object, key).compactMap { entry -> FHIR.AnswerOption? in
            guard let option = entry.object else {
                error(entry, "expected an \(key) object, found \(entry.node.kindDescription)")
                return nil
            }
            let allowed: Set<FHIR.ValueType> = [.integer, .date, .time, .string, .coding, .reference]
            guard let value = value(option, prefix: "value", in: "an \(key) of '\(linkId)'", allowed: allowed) else { return nil }
            return FHIR.AnswerOption(value: value, initialSelected: bool(option, "initialSelected") ?? false, location: entry.location)
        }
    }

    private struct Extensions {
        var minValue: FHIR.Value?
        var maxValue: FHIR.Value?
        var maxOccurs: Int?
        var minOccurs: Int?
        var hidden = false
        var itemControl: String?
        var entryFormat: String?
        var expressions: [FHIR.UnsupportedExpression] = []
    }

    private mutating func decodeExtensions(_ object: JSONObjectCursor, linkId: String, type: FHIR.ItemType, hints: inout FHIR.C3PROHints) -> Extensions {
        var result = Extensions()
        for entry in array(object, "extension") {
            guard let ext = entry.object, let url = ext["url"]?.stringValue else {
                error(entry, "expected an extension object with a \"url\" string")
                continue
            }
            let name = url.split(separator: "/").last.map(String.init) ?? url
            switch name {
            case "minValue" where ext["valueString"] != nil, "maxValue" where ext["valueString"] != nil:
                // C3-PRO's second minValue/maxValue, carrying the slider's end label (§A3).
                let label = string(ext, "valueString")
                if name == "minValue" { hints.minLabel = label } else { hints.maxLabel = label }
            case "questionnaire-instruction":
                hints.instruction = string(ext, "valueString")
            case "questionnaire-help":
                hints.help = string(ext, "valueString")
            case "questionnaire-units":
                hints.unit = string(ext, "valueString")
            case "questionnaire-defaultValue":
                hints.defaultValue = ext["valueInteger"].flatMap { integer($0, for: "the questionnaire-defaultValue extension") }
            case "minValue", "maxValue":
                let bound = value(ext, prefix: "value", in: "the \(name) extension of '\(linkId)'", allowed: [.integer, .decimal, .date, .dateTime, .time, .quantity])
                if name == "minValue" { result.minValue = bound } else { result.maxValue = bound }
            case "questionnaire-maxOccurs", "questionnaire-minOccurs":
                guard let cursor = ext["valueInteger"], let count = integer(cursor, for: "the \(name) extension") else {
                    if ext["valueInteger"] == nil { error(entry, "the \(name) extension of '\(linkId)' has no valueInteger") }
                    continue
                }
                if name == "questionnaire-maxOccurs" { result.maxOccurs = count } else { result.minOccurs = count }
            case "questionnaire-hidden":
                result.hidden = bool(ext, "valueBoolean") ?? false
            case "questionnaire-itemControl":
                let plain = ext["valueCodeableConcept"]?.node.plain.objectValue
                result.itemControl = plain?["coding"]?.arrayValue?.first?.objectValue?["code"]?.stringValue
            case "entryFormat":
                result.entryFormat = string(ext, "valueString")
            case "sdc-questionnaire-enableWhenExpression", "sdc-questionnaire-calculatedExpression", "sdc-questionnaire-initialExpression",
                "sdc-questionnaire-answerExpression", "variable", "cqf-expression":
                let kind: FHIR.Expression =
                    switch name {
                    case "sdc-questionnaire-enableWhenExpression": .enableWhen
                    case "sdc-questionnaire-calculatedExpression": .calculated
                    case "sdc-questionnaire-answerExpression": .answer
                    case "variable": .variable
                    default: .initial
                    }
                let expression = ext["valueExpression"]?.node.plain.objectValue?["expression"]?.stringValue
                result.expressions.append(FHIR.UnsupportedExpression(kind: kind, expression: expression, location: entry.location))
            default:
                break
            }
        }
        if type == .group || !type.takesAnswers, result.minValue != nil || result.maxValue != nil, let cursor = object["extension"] {
            finding(.warning, cursor, "minValue/maxValue on the \(type.rawValue) '\(linkId)' has no effect", hint: "put bounds on questions", rule: "fhir-ignored-extension")
        }
        return result
    }

    /// The que-* constraints of an item that engines render anyway (§A2): reported by lint, not by a load.
    private mutating func checkConstraints(
        _ object: JSONObjectCursor, linkId: String, type: FHIR.ItemType, options: [FHIR.AnswerOption], initial: [FHIR.Value], children: [Int]
    ) {
        let cursor = object.cursor
        if type == .group, object["item"] == nil || children.isEmpty {
            constraint("que-1", cursor, "the group '\(linkId)' has no nested items", hint: "add items to the group, or make it a display item")
        }
        if type == .display, let nested = object["item"] {
            constraint("que-1", nested, "the display item '\(linkId)' has nested items", hint: "make it a group, or move the items out")
        }
        if type == .display, let code = object["code"] {
            constraint("que-3", code, "the display item '\(linkId)' has a code", hint: "remove the code: display items are not data")
        }
        if object["answerOption"] != nil, let valueSet = object["answerValueSet"] {
            constraint("que-4", valueSet, "'\(linkId)' has both answerOption and answerValueSet", hint: "keep one: the simulation uses answerOption")
        }
        if type != .choice, type != .openChoice, let choices = object["answerOption"] ?? object["answerValueSet"] {
            constraint("que-5", choices, "'\(linkId)' is \(type.withArticle) item with answer choices", hint: "only choice and open-choice items take answerOption or answerValueSet")
        }
        if type == .display, let key = object["required"] ?? object["repeats"] {
            constraint("que-6", key, "the display item '\(linkId)' has required or repeats", hint: "remove them: display items take no answers")
        }
        if !type.takesAnswers, let key = object["initial"] ?? (stu3Form == nil ? nil : FHIRValues.members(object, prefix: "initial").first?.cursor) {
            constraint("que-8", key, "the \(type.rawValue) item '\(linkId)' has an initial value", hint: "remove it: \(type.rawValue) items take no answers")
        }
        if type == .display, let key = object["readOnly"] {
            constraint("que-9", key, "the display item '\(linkId)' has readOnly", hint: "remove it")
        }
        if let key = object["maxLength"], ![.boolean, .decimal, .integer, .string, .text, .url, .openChoice].contains(type) {
            constraint("que-10", key, "maxLength on the \(type.rawValue) item '\(linkId)'", hint: "maxLength applies to boolean, decimal, integer, string, text, url and open-choice items")
        }
        if !options.isEmpty, let key = object["initial"] {
            constraint(
                "que-11", key, "'\(linkId)' has both answerOption and initial",
                hint: "mark the default option with initialSelected instead; the simulation applies initial as LHC-Forms does")
        }
        if initial.count > 1, !(object["repeats"]?.boolValue ?? false), let key = object["initial"] {
            constraint("que-13", key, "'\(linkId)' has \(initial.count) initial values but does not repeat", hint: "keep one initial value, or make the item repeat")
        }
    }
}
