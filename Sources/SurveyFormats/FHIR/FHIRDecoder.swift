import FHIRPath
import SurveyCore

/// Reads an R4 Questionnaire as one engine reads it, keeping every location. It never stops at a problem:
/// what makes the file unusable for a simulation, or what the engine refuses to render, goes to `errors`
/// (a load under that engine reports them all and loads nothing), and what the spec forbids but the engine
/// renders anyway (most que-* constraints, a missing status, a flag written as a string) goes to `findings`,
/// which lint reports. Where LHC-Forms and android-fhir read a construct differently, `differsByEngine` is
/// set, so a load reads the file once per engine.
struct FHIRDecoder {
    let file: String
    let engine: FHIREngine
    /// Whether the file has a construct the engines read differently (a flag written as a string, a value of
    /// the wrong JSON type, several enableWhen without enableBehavior…).
    var differsByEngine = false
    /// The conditions whose value does not have its answer[x] type: LHC-Forms reads the value as written
    /// and compares it with the source's answers, so it is typed once every item is read (`typeWrittenValues`).
    private var writtenValues: [(item: Int, condition: Int)] = []
    /// Under LHC-Forms, every condition other than `exists` with its answer[x] as written: its trigger is made
    /// once every item is read (`makeTriggers`).
    private var triggers: [(item: Int, condition: Int, question: String, op: FHIR.Operator, written: JSONValue?)] = []
    private(set) var items: [FHIR.Item?] = []
    /// Every item of each linkId, in document order: made as items are read, the one table by linkId that
    /// duplicate ids, LHC-Forms' triggers and the outline need.
    private var itemsByLinkId: [String: [Int]] = [:]
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
    /// The item objects read: each once by the STU3 scan and once decoded, whatever the file's size (the
    /// complexity tests count it).
    private(set) var itemReads = 0

    static let shapeRule = "fhir-file-shape"
    /// The rule of a construct one engine refuses to render.
    static let refusalRule = "fhir-engine-refuses"
    /// The rule of a value whose JSON type is not the one R4 gives its element.
    static let jsonTypeRule = "fhir-json-type"
    /// The rule of an item type an engine does not render as R4 says.
    static let itemTypeRule = "fhir-item-type"
    /// The rule of a condition on a choice item that LHC-Forms throws on once the item is answered.
    static let choiceTriggerRule = "fhir-choice-trigger"

    // The value types each element allows, made once rather than at each element read.
    /// answerOption.value[x] (and STU3 option.value[x]).
    static let optionTypes: Set<FHIR.ValueType> = [.integer, .date, .time, .string, .coding, .reference]
    /// The minValue and maxValue extensions' value[x].
    static let boundTypes: Set<FHIR.ValueType> = [.integer, .decimal, .date, .dateTime, .time, .quantity]
    /// enableWhen.answer[x] in R4; STU3 also compares answerUri and answerAttachment.
    static let conditionTypes: Set<FHIR.ValueType> = [.boolean, .decimal, .integer, .date, .dateTime, .time, .string, .coding, .quantity, .reference]
    static let stu3ConditionTypes = Set(FHIR.ValueType.allCases)
    /// The item types that may have answer choices (que-5) and maxLength (que-10).
    static let typesTakingChoices: Set<FHIR.ItemType> = [.choice, .openChoice, .decimal, .integer, .date, .dateTime, .time, .string, .quantity]
    static let typesTakingMaxLength: Set<FHIR.ItemType> = [.boolean, .decimal, .integer, .string, .text, .url, .openChoice]

    private init(file: String, engine: FHIREngine) {
        self.file = file
        self.engine = engine
        self.files = FHIRValueSetFiles(besides: file)
    }

    /// What one engine makes of a Questionnaire.
    struct Reading {
        let outline: FHIROutline?
        /// Everything that stops a load under this engine, the outline's own checks included.
        let errors: [Diagnostic]
        let findings: [Diagnostic]
        let differsByEngine: Bool
        /// The item objects the reading read (`FHIRDecoder.itemReads`).
        var itemReads = 0

        var loads: Bool { outline != nil && errors.isEmpty }
    }

    static func read(_ root: JSONCursor, engine: FHIREngine = .lhcForms) -> Reading {
        var decoder = FHIRDecoder(file: root.file.path, engine: engine)
        guard let object = root.object else {
            return Reading(outline: nil, errors: [root.diagnostic(.error, "expected a Questionnaire object", rule: shapeRule)], findings: [], differsByEngine: false)
        }
        let outline = decoder.decodeQuestionnaire(object)
        return Reading(
            outline: outline, errors: decoder.errors + outline.loadErrors, findings: decoder.findings,
            differsByEngine: decoder.differsByEngine || !outline.dangling.isEmpty, itemReads: decoder.itemReads)
    }

    // MARK: reporting

    private mutating func error(_ cursor: JSONCursor, _ message: String, hint: String? = nil, rule: String = shapeRule) {
        let hint = hint ?? "follow the R4 Questionnaire structure (hl7.org/fhir/R4/questionnaire-definitions.html): the simulation needs it"
        errors.append(cursor.diagnostic(.error, message, hint: hint, rule: rule))
    }

    mutating func finding(_ severity: Diagnostic.Severity, _ cursor: JSONCursor, _ message: String, hint: String, rule: String) {
        findings.append(cursor.diagnostic(severity, message, hint: hint, rule: rule))
    }

    /// A construct this decoder's engine refuses to render (the other may render it): an error of this
    /// reading only, naming the engine and why.
    private mutating func refusal(_ cursor: JSONCursor, _ message: String) {
        errors.append(cursor.diagnostic(.error, "\(engine.name) refuses this Questionnaire: \(message)", hint: "see docs/fhir.md, Engines: the other engine may render it (option engine)", rule: Self.refusalRule))
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

    /// How LHC-Forms reads a flag that is not a JSON boolean, and the words for it.
    struct LHCFlagReading {
        let read: @Sendable (JSONValue) -> Bool
        let how: String

        /// `if (qItem.repeats)`, `if (qItem.required)`, `if (qItem.readOnly)`, `if (elem.initialSelected)`
        /// (LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:234-290, 300, 319).
        static let truthiness = LHCFlagReading(read: FHIRLenientReading.truthy, how: "JavaScript truthiness: only false, 0, \"\" and null are false")
        /// `questionnaire-hidden`: a boolean, else the string "true" (src/fhir/common/sdc-import-common.js:965-971).
        static let stringTrue = LHCFlagReading(read: { $0 == .string("true") }, how: "only the string \"true\" counts")
    }

    /// A boolean element as the engine reads it. JSON true and false are read as they are; any other JSON
    /// breaks R4 (lint `fhir-json-type`, an error at the value) and each engine reads it its own way:
    /// LHC-Forms as the JavaScript value it is, android-fhir by parsing its text with HAPI, which refuses
    /// text other than "true" and "false" (`FHIRLenientReading.hapiBoolean`).
    private mutating func flag(_ object: JSONObjectCursor, _ key: String, lhc: LHCFlagReading = .truthiness) -> Bool? {
        guard let cursor = object[key] else { return nil }
        if let value = cursor.boolValue { return value }
        let json = cursor.node.plain
        let lhcValue = lhc.read(json)
        let android = FHIRLenientReading.hapiBoolean(json)
        let androidWords: String =
            switch android {
            case .value(let flag): "as \(flag) (HAPI parses the text)"
            case .unset: "as false (HAPI leaves a blank value unset)"
            case .refused: "refuses the file (HAPI's parser throws on text other than true and false)"
            }
        finding(
            .error, cursor, "\"\(key)\" is \(FHIRLenientReading.describe(json)), not true or false as R4 JSON requires: LHC-Forms reads it as \(lhcValue) (\(lhc.how)), android-fhir \(androidWords)",
            hint: "write \"\(key)\": \(lhcValue)", rule: Self.jsonTypeRule)
        if android != .value(.bool(lhcValue)) { differsByEngine = true }
        switch (engine, android) {
        case (.lhcForms, _): return lhcValue
        case (.androidFHIR, .value(let flag)): return flag.boolValue
        case (.androidFHIR, .unset): return false
        case (.androidFHIR, .refused):
            refusal(cursor, "\"\(key)\" is \(FHIRLenientReading.describe(json)), which HAPI's parser cannot read as a boolean, so it throws")
            return nil
        }
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

    /// The one `prefix<Type>` member of an object (`answerCoding`, `valueInteger`…), checked against its type;
    /// `what` names the object in messages (made only for one).
    mutating func value(
        _ object: JSONObjectCursor, prefix: String, in what: @autoclosure () -> String, allowed: Set<FHIR.ValueType>? = nil
    ) -> FHIR.Value? {
        let found = FHIRValues.members(object, prefix: prefix)
        guard let first = found.first else {
            let expected = (allowed.map { Array($0) } ?? FHIR.ValueType.allCases).map { prefix + $0.rawValue }.sorted().joined(separator: ", ")
            error(object.cursor, "\(what()) has no \(prefix)[x]; expected one of \(expected)")
            return nil
        }
        if found.count > 1 {
            error(found[1].cursor, "\(what()) has both \"\(first.key)\" and \"\(found[1].key)\"; expected one \(prefix)[x]")
            return nil
        }
        if let allowed, !allowed.contains(first.type) {
            let expected = allowed.map { prefix + $0.rawValue }.sorted().joined(separator: ", ")
            error(first.cursor, "\"\(first.key)\" is not allowed in \(what()); expected one of \(expected)")
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
        let (rootExpressions, launchContexts) = decodeRootExtensions(object)
        stu3Form = firstSTU3Form(in: object)
        // The scan has counted the items: the arrays by item are made at their size.
        items.reserveCapacity(itemReads)
        itemsByLinkId.reserveCapacity(itemReads)
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
        typeWrittenValues()
        makeTriggers()
        nameDuplicates()
        let identifier = object["identifier"]?.elements?.first?.object?["value"]?.stringValue
        let questionnaireTree =
            differsByEngine && (items.contains { !($0?.expressions.isEmpty ?? true) } || !rootExpressions.isEmpty) ? FHIRTree(json: object.cursor.node) : nil
        // Moved out rather than copied: every reserved place was filled.
        var decoded: [FHIR.Item] = []
        decoded.reserveCapacity(items.count)
        for index in items.indices {
            if let item = items[index].take() { decoded.append(item) }
        }
        return FHIROutline(
            file: file, engine: engine, items: decoded, itemsByLinkId: itemsByLinkId, topLevel: top, url: string(object, "url"),
            version: string(object, "version"), id: string(object, "id"), location: object.location, stu3Form: stu3Form?.location,
            identifier: identifier, rootExpressions: rootExpressions, launchContexts: launchContexts, questionnaireTree: questionnaireTree)
    }

    /// The Questionnaire's own SDC extensions: its variables (in scope for every item) and other expressions,
    /// and its launch contexts.
    private mutating func decodeRootExtensions(_ object: JSONObjectCursor) -> ([FHIR.SDCExpression], [FHIR.LaunchContext]) {
        var expressions: [FHIR.SDCExpression] = []
        var contexts: [FHIR.LaunchContext] = []
        for entry in object["extension"]?.elements ?? [] {
            guard let ext = entry.object, let url = ext["url"]?.stringValue else { continue }
            let name = Self.extensionName(url)
            if name == "sdc-questionnaire-launchContext" {
                if let context = decodeLaunchContext(ext) { contexts.append(context) }
            } else if let kind = FHIR.ExpressionKind.of(extensionName: name), let expression = decodeExpression(ext, name: name, kind: kind, owner: "the Questionnaire") {
                expressions.append(expression)
            }
        }
        return (expressions, contexts)
    }

    /// An extension's name: the last segment of its url (`…/StructureDefinition/minValue`: minValue), as
    /// `url.split(separator: "/").last` finds it, or the url when it has none. An ASCII url, where every byte is a
    /// character, is cut by its bytes.
    static func extensionName(_ url: String) -> String {
        let bytes = url.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return url.split(separator: "/").last.map(String.init) ?? url }
        let slash = UInt8(ascii: "/")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        guard end > bytes.startIndex else { return url }
        var start = end
        while start > bytes.startIndex, bytes[bytes.index(before: start)] != slash { start = bytes.index(before: start) }
        return String(url[start..<end])
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

    /// Gives the second and later items sharing a linkId (que-2) ids of their own, `linkId@N` with N their
    /// place among the items with that linkId in document order, so scenarios can name each; an id some
    /// linkId already is gets more `@`.
    private mutating func nameDuplicates() {
        // Most files have none: then every linkId has one item.
        guard itemsByLinkId.count < items.count else { return }
        var seen: [String: Int] = [:]
        var taken = Set(items.compactMap { $0?.linkId })
        for index in items.indices {
            guard let linkId = items[index]?.linkId else { continue }
            seen[linkId, default: 0] += 1
            guard let count = seen[linkId], count > 1 else { continue }
            var id = "\(linkId)@\(count)"
            while taken.contains(id) { id += "@" }
            taken.insert(id)
            items[index]?.id = id
        }
    }

    /// The first form only STU3 has, when the file is STU3-era: `options` or `option` on an item, an item's
    /// `initial[x]`, `hasAnswer` in an enableWhen, or enableWhen without `operator` in a file where no
    /// enableWhen has one (a file that mixes both is R4 with a mistake, and its missing operator an error).
    /// The scan reads nodes and keeps their path, making a cursor only for what it finds: most files have none.
    private mutating func firstSTU3Form(in questionnaire: JSONObjectCursor) -> JSONCursor? {
        var path: [JSONPointer.Step] = [.key("item")]
        var form: [JSONPointer.Step]?
        var withoutOperator: [JSONPointer.Step]?
        var anyOperator = false
        func visit(_ list: JSONNode?) {
            for (index, item) in (list?.elements ?? []).enumerated() where item.kind == .object {
                itemReads += 1
                path.append(.index(index))
                if form == nil,
                    let key = item["options"] != nil ? "options" : item["option"] != nil ? "option"
                        : item.members(withKeyPrefix: "initial")?.first(where: { FHIRValues.type(ofKey: $0.key, prefix: "initial") != nil })?.key
                {
                    form = path + [.key(key)]
                }
                for (number, condition) in (item["enableWhen"]?.elements ?? []).enumerated() where condition.kind == .object {
                    if form == nil, condition["hasAnswer"] != nil { form = path + [.key("enableWhen"), .index(number), .key("hasAnswer")] }
                    if condition["operator"] != nil {
                        anyOperator = true
                    } else if withoutOperator == nil {
                        withoutOperator = path + [.key("enableWhen"), .index(number)]
                    }
                }
                path.append(.key("item"))
                visit(item["item"])
                path.removeLast(2)
            }
        }
        visit(questionnaire.cursor.node["item"])
        return (form ?? (anyOperator ? nil : withoutOperator)).flatMap(questionnaire.cursor.descendant)
    }

    // MARK: items

    private mutating func decodeItem(_ cursor: JSONCursor, parent: Int?) -> Int? {
        guard let object = cursor.object else {
            error(cursor, "expected an item object, found \(cursor.node.kindDescription)")
            return nil
        }
        itemReads += 1
        var hints = FHIR.C3PROHints()
        let linkId: String
        let linkIdCursor = object["linkId"]
        if linkIdCursor == nil, stu3Form != nil {
            // C3-PRO's input: the item gets a generated id (§A3, a random UUID), and lint warns.
            linkId = generatedLinkId()
            hints.linkIdGenerated = true
        } else {
            guard let given = linkIdCursor?.stringValue, !given.isEmpty else {
                error(linkIdCursor ?? cursor, "the item has no \"linkId\"; expected a non-empty string (1..1)")
                return nil
            }
            linkId = given
        }
        let type: FHIR.ItemType
        let rendering: FHIR.Rendering?
        if object["type"] == nil, stu3Form != nil {
            // C3-PRO's input: C3-PRO asks for a text answer, as for a string item (§A3), and lint warns.
            (type, rendering) = (.string, nil)
            hints.typeMissing = true
        } else {
            guard let read = itemType(object, linkId: linkId, cursor: cursor) else { return nil }
            (type, rendering) = read
        }
        let index = items.count
        items.append(nil)
        itemsByLinkId[linkId, default: []].append(index)

        let text = string(object, "text")
        let required = flag(object, "required") ?? false
        let repeats = flag(object, "repeats") ?? false
        let readOnly = flag(object, "readOnly") ?? false
        let maxLength = object["maxLength"].flatMap { integer($0, for: "\"maxLength\"") }
        let (enableWhen, enableBehavior) = decodeEnableWhen(object, linkId: linkId, item: index, unreadable: &hints.unreadableConditions)
        let options = decodeOptions(object, key: "answerOption", linkId: linkId) + (stu3Form == nil ? [] : decodeOptions(object, key: "option", linkId: linkId))
        hints.codeTitle = Self.codeTitle(object)
        if !options.isEmpty { hints.optionsSource = .inline }
        var valueSetCodes: [FHIR.AnswerOption] = []
        var externalValueSet: String?
        let reference =
            string(object, "answerValueSet").map { (reference: $0, cursor: object["answerValueSet"], isOptions: false) }
            ?? stu3Reference(object).map { ($0.reference, $0.cursor, true) }
        if case let (valueSet, cursor?, isOptions)? = reference {
            // STU3 `options` may name a ValueSet file beside the Questionnaire (C3-PRO resolves it; §A3).
            if let codes = valueSets[valueSet] ?? (isOptions ? files.codes(of: valueSet) : nil) {
                let location = cursor.location
                valueSetCodes = codes.map { FHIR.AnswerOption(value: $0, initialSelected: false, location: location) }
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
        // The constraints are R4's, on the type as written: `itemType` keeps every R4 type (a reference item
        // LHC-Forms reads as a text box has its rendering).
        checkConstraints(object, linkId: linkId, type: type, repeats: repeats, options: options, initial: initial, children: children)

        items[index] = FHIR.Item(
            linkId: linkId, id: linkId, text: text, type: type, required: required, repeats: repeats, readOnly: readOnly, maxLength: maxLength,
            options: options.isEmpty ? valueSetCodes : options, externalValueSet: externalValueSet, initial: initial, enableWhen: enableWhen,
            enableBehavior: enableBehavior, minValue: extensions.minValue, maxValue: extensions.maxValue, maxOccurs: extensions.maxOccurs,
            minOccurs: extensions.minOccurs, hidden: extensions.hidden, itemControl: extensions.itemControl, entryFormat: extensions.entryFormat,
            expressions: extensions.expressions, c3pro: hints, parent: parent, children: children, location: object.location,
            enableWhenLocation: object["enableWhen"]?.location, rendering: rendering ?? androidUnrendered(type, hasChoices: !options.isEmpty || !valueSetCodes.isEmpty || externalValueSet != nil, at: object["type"] ?? cursor))
        return index
    }

    /// The first `code.display`, else the first `code.code` (C3-PRO's `c3_bestTitleAndText`, §A3).
    private static func codeTitle(_ object: JSONObjectCursor) -> String? {
        let codings = (object["code"]?.node.plain.arrayValue ?? []).compactMap(\.objectValue)
        return codings.lazy.compactMap { $0["display"]?.stringValue }.first ?? codings.lazy.compactMap { $0["code"]?.stringValue }.first
    }

    /// The item's type as the engine reads it, and how it renders an item its type does not fit; nil when the
    /// engine refuses the file. LHC-Forms' `_getDataType` falls back to the lowercase 'string' for a missing
    /// type, one it does not know and `reference`, and takes `coding` (R5) as a choice
    /// (src/fhir/STU3R4-common/sdc-import.js:36-92): a text box (`lhcTextBox`). android-fhir's HAPI parser
    /// refuses a code outside R4's item types; a missing type parses, and the item renders as a choice when it
    /// has options, else showing it throws (QuestionnaireLists.kt:249-279).
    private mutating func itemType(_ object: JSONObjectCursor, linkId: String, cursor: JSONCursor) -> (FHIR.ItemType, FHIR.Rendering?)? {
        let typeCursor = object["type"]
        let written = typeCursor?.stringValue
        if let written, let type = FHIR.ItemType.named(written) {
            guard type == .reference else { return (type, nil) }
            differsByEngine = true
            finding(
                .warning, typeCursor ?? cursor,
                "'\(linkId)' is a reference item: LHC-Forms has no data type for it and renders a text box whose answers it never exports; android-fhir renders a choice of its answer options",
                hint: "if the form must run in LHC-Forms, ask for the reference as a string item", rule: Self.itemTypeRule)
            return (type, engine == .lhcForms ? .lhcTextBox(written: written) : nil)
        }
        differsByEngine = true
        let expected = FHIR.ItemType.allCases.map(\.rawValue)
        let what = typeCursor == nil ? "has no \"type\" (1..1)" : "has the type \(written.map { "\"\($0)\"" } ?? FHIRLenientReading.describe(typeCursor?.node.plain ?? .null)), which R4 does not have"
        let hasOptions = object["answerOption"] != nil || object["answerValueSet"] != nil
        let android =
            typeCursor != nil ? "refuses the file (HAPI's parser cannot read the code)"
            : hasOptions ? "renders a choice of its options" : "throws NotImplementedError when it shows it"
        let lhc = written == "coding" ? "reads it as a choice (R5's coding)" : "renders a text box whose answers it never exports, read by enableWhen only through exists"
        finding(
            .error, typeCursor ?? cursor, "item '\(linkId)' \(what): LHC-Forms \(lhc), android-fhir \(android)",
            hint: "give it one of \(expected.joined(separator: ", "))\(written.map { Spelling.suggestion(for: $0, in: expected) } ?? "")", rule: Self.itemTypeRule)
        switch engine {
        case .lhcForms:
            return written == "coding" ? (.choice, nil) : (.string, .lhcTextBox(written: written))
        case .androidFHIR:
            if let typeCursor {
                refusal(typeCursor, "item '\(linkId)' \(what), which HAPI's parser cannot read, so it throws; expected one of \(expected.joined(separator: ", "))")
                return nil
            }
            return hasOptions ? (.choice, nil) : (.string, .androidThrowsWhenShown("no type"))
        }
    }

    /// android-fhir has no view for a url item or an open-choice item without answer options (they fall to the
    /// `else` of QuestionnaireLists.kt:258-279 unless the item has options, :254-256): showing one throws. An
    /// external answerValueSet counts as options: the host resolves it (`ExternalAnswerValueSetResolver`,
    /// EnabledAnswerOptionsEvaluator.kt:154-186), as SurveyReplay assumes for choice items. The other engine
    /// renders them, so the file is read once per engine.
    private mutating func androidUnrendered(_ type: FHIR.ItemType, hasChoices: Bool, at cursor: JSONCursor) -> FHIR.Rendering? {
        guard !hasChoices, type == .url || type == .openChoice else { return nil }
        differsByEngine = true
        let what = "\(type.withArticle) item without answer options"
        guard engine == .androidFHIR else {
            finding(
                .warning, cursor, "android-fhir has no view for \(what) and throws NotImplementedError when it shows it; LHC-Forms renders it",
                hint: type == .url ? "if the form must run in android-fhir, make it a string item" : "give it answerOption or answerValueSet", rule: Self.itemTypeRule)
            return nil
        }
        return .androidThrowsWhenShown(what)
    }

    private mutating func decodeEnableWhen(
        _ object: JSONObjectCursor, linkId: String, item: Int, unreadable: inout [FHIR.UnreadableCondition]
    ) -> ([FHIR.EnableWhen], FHIR.EnableBehavior?) {
        var conditions: [FHIR.EnableWhen] = []
        let entries = array(object, "enableWhen")
        for entry in entries {
            guard let condition = entry.object else {
                error(entry, "expected an enableWhen object, found \(entry.node.kindDescription)")
                continue
            }
            let question = string(condition, "question")
            if question == nil, condition["question"] == nil {
                if stu3Form != nil {
                    // C3-PRO's input: C3-PRO cannot read it and drops the item's own conditions (§A3).
                    unreadable.append(FHIR.UnreadableCondition(problem: "has no \"question\"", location: condition.location))
                    continue
                }
                // LHC-Forms throws (LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:70-73); android-fhir
                // passes the missing question on as a linkId it never finds a non-null value for.
                error(
                    entry, "an enableWhen of '\(linkId)' has no \"question\"; expected the linkId of the item it reads (1..1); LHC-Forms refuses the file, and android-fhir cannot evaluate the condition")
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
                        conditions.append(FHIR.EnableWhen(question: question, op: .exists, answer: FHIR.Value(.boolean, .bool(flag)), location: condition.location))
                    }
                    continue
                }
                if FHIRValues.members(condition, prefix: "answer").isEmpty {
                    unreadable.append(FHIR.UnreadableCondition(problem: "has neither an answer[x] nor hasAnswer", location: condition.location))
                    continue
                }
                op = .equals
            } else if let opCursor = condition["operator"], let name = opCursor.stringValue {
                op = FHIR.Operator.named(name)
                if op == nil {
                    error(opCursor, "unknown enableWhen operator \"\(name)\"; expected one of exists, =, !=, >, <, >=, <=")
                }
            } else {
                error(condition["operator"] ?? entry, "an enableWhen of '\(linkId)' has no \"operator\"; expected one of exists, =, !=, >, <, >=, <= (1..1)")
            }
            guard let value = conditionValue(condition, linkId: linkId, op: op) else { continue }
            if let question, let op {
                if value.asWritten { writtenValues.append((item, conditions.count)) }
                if engine == .lhcForms, op != .exists { triggers.append((item, conditions.count, question, op, value.written)) }
                var decoded = FHIR.EnableWhen(question: question, op: op, answer: value.answer, location: condition.location)
                decoded.androidFailure = value.androidFailure
                conditions.append(decoded)
            }
        }
        var behavior = decodeBehavior(object, linkId: linkId, hasConditions: !entries.isEmpty)
        if entries.count > 1, behavior == nil, stu3Form != nil {
            // STU3 has no enableBehavior: C3-PRO ANDs them all (its own rules, lint c3pro-several-conditions); the
            // r4 profile reads them as each R4 engine reads a missing enableBehavior: LHC-Forms any, android-fhir
            // throws when it evaluates the item (FHIRProfile.combine).
            differsByEngine = true
            if engine == .lhcForms { behavior = .any }
        } else if entries.count > 1, behavior == nil, let cursor = object["enableWhen"] {
            constraint(
                "que-12", cursor,
                "'\(linkId)' has \(entries.count) enableWhen conditions but no enableBehavior: LHC-Forms reads them as any, android-fhir throws IllegalStateException when it first evaluates the item, C3-PRO ANDs them",
                hint: "add \"enableBehavior\": \"all\" or \"any\"")
            differsByEngine = true
            if engine == .lhcForms {
                // Without a logic, _checkSkipLogic takes ANY (LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:98-100,
                // src/lib/lforms/lhc-form-data.ts:3994-4001). android-fhir keeps none and throws when it evaluates the
                // item (FHIRProfile.combine).
                behavior = .any
            }
        }
        return (conditions, behavior)
    }

    /// `enableBehavior` as the engine reads it. R4 has the codes all and any. LHC-Forms reads it only on an
    /// item with enableWhen, if truthy, and upper-cases it (sdc-import.js:98-100): "ALL" and "Any" work, any
    /// other string is neither all nor any, so the item is never enabled (lhc-form-data.ts:3994-3999), and a
    /// value that is not a string throws a TypeError at import. android-fhir's HAPI parser refuses a code that
    /// is not exactly all or any (a blank one is left unset).
    private mutating func decodeBehavior(_ object: JSONObjectCursor, linkId: String, hasConditions: Bool) -> FHIR.EnableBehavior? {
        guard let cursor = object["enableBehavior"] else { return nil }
        let json = cursor.node.plain
        if let name = json.stringValue, let behavior = FHIR.EnableBehavior(rawValue: name), behavior != .neither { return behavior }
        var lhc: FHIR.EnableBehavior?
        var lhcThrows = false
        let lhcWords: String
        switch json {
        case _ where !FHIRLenientReading.truthy(json) || !hasConditions:
            lhcWords = hasConditions ? "ignores it (falsy)" : "ignores it (no enableWhen)"
        case .string(let name):
            let upper = name.uppercased()
            lhc = upper == "ALL" ? .all : upper == "ANY" ? .any : .neither
            lhcWords = lhc == .neither ? "reads \"\(upper)\", neither ALL nor ANY, so the item is never enabled" : "upper-cases it and reads \(upper)"
        default:
            lhcThrows = true
            lhcWords = "throws a TypeError at import (toUpperCase is not a function), so it refuses the file"
        }
        let hapi = FHIRLenientReading.hapiText(json).map { $0.trimmingCharacters(in: .whitespaces) }
        let androidUnset = json == .null || hapi?.isEmpty == true
        differsByEngine = true
        finding(
            .error, cursor,
            "enableBehavior is \(FHIRLenientReading.describe(json)), not the code all or any as R4 requires: LHC-Forms \(lhcWords), android-fhir \(androidUnset ? "leaves it unset (HAPI leaves a blank value unset)" : "refuses the file (HAPI's parser cannot read the code)")",
            hint: "write \"enableBehavior\": \"all\" or \"any\"", rule: Self.jsonTypeRule)
        switch engine {
        case .lhcForms:
            if lhcThrows {
                refusal(cursor, "enableBehavior of '\(linkId)' is \(FHIRLenientReading.describe(json)), on which sdc-import.js:99 calls toUpperCase and throws a TypeError; expected \"all\" or \"any\"")
            }
            return lhc
        case .androidFHIR:
            if !androidUnset { refusal(cursor, "enableBehavior of '\(linkId)' is \(FHIRLenientReading.describe(json)), which HAPI's parser cannot read, so it throws; expected \"all\" or \"any\"") }
            return nil
        }
    }

    /// An enableWhen's answer[x] as the engine reads it.
    struct ConditionValue {
        let answer: FHIR.Value
        /// Whether LHC-Forms keeps it as written, to be typed by the item the condition reads.
        var asWritten = false
        /// The JSON as written (nil: no answer[x]), which LHC-Forms makes its trigger of.
        var written: JSONValue?
        /// Why android-fhir throws when it evaluates the condition.
        var androidFailure: String?
    }

    /// An enableWhen's answer[x] as the engine reads it.
    ///
    /// A value whose JSON is not of its answer[x] type breaks R4 (lint `fhir-json-type`, an error at the value).
    /// LHC-Forms takes the first `answer…` member's value as written, whatever its type suffix
    /// (`_getFHIRValueWithPrefixKey`, LHNCBC/lforms@24c71875 src/fhir/common/sdc-import-common.js:684-701), and
    /// compares it by the type of the item the condition reads (src/fhir/R4R5-common/sdc-import.js:79-95), so
    /// its type is settled once every item is read (`typeWrittenValues`). android-fhir parses the value's
    /// text as the suffix's type and refuses the file when it cannot (`FHIRLenientReading.hapiValue`).
    /// `exists` reads answerBoolean: LHC-Forms by its truthiness, a missing one being false
    /// (`trigger.exists && hasAnswer || !trigger.exists && !hasAnswer`, src/lib/lforms/lhc-form-data.ts:3878-3880),
    /// android-fhir through HAPI's `answerBooleanType`, which throws for another type or a missing value when
    /// the condition is evaluated (EnablementEvaluator.kt:192-197).
    private mutating func conditionValue(_ condition: JSONObjectCursor, linkId: String, op: FHIR.Operator?) -> ConditionValue? {
        let allowed = stu3Form != nil ? Self.stu3ConditionTypes : Self.conditionTypes
        let found = FHIRValues.members(condition, prefix: "answer")
        if found.isEmpty, op == .exists {
            differsByEngine = true
            constraint(
                "que-7", condition.cursor,
                "an exists condition of '\(linkId)' has no answerBoolean: LHC-Forms reads it as exists false, android-fhir throws when it evaluates it (NullPointerException reading answerBooleanType)",
                hint: "write \"answerBoolean\": true to test that it is answered, false that it is not")
            return ConditionValue(
                answer: FHIR.Value(.boolean, false),
                androidFailure: engine == .androidFHIR ? "NullPointerException: an exists condition of '\(linkId)' has no answer[x], and answerBooleanType.booleanValue() reads a null value (EnablementEvaluator.kt:192-197)" : nil)
        }
        guard let first = found.first else {
            let expected = allowed.map { "answer" + $0.rawValue }.sorted().joined(separator: ", ")
            error(condition.cursor, "an enableWhen of '\(linkId)' has no answer[x]; expected one of \(expected)")
            return nil
        }
        if found.count > 1 {
            error(found[1].cursor, "an enableWhen of '\(linkId)' has both \"\(first.key)\" and \"\(found[1].key)\"; expected one answer[x]")
            return nil
        }
        guard allowed.contains(first.type) else {
            let expected = allowed.map { "answer" + $0.rawValue }.sorted().joined(separator: ", ")
            error(first.cursor, "\"\(first.key)\" is not allowed in an enableWhen of '\(linkId)'; expected one of \(expected)")
            return nil
        }
        let json = first.cursor.node.plain
        if op == .exists, first.type != .boolean || json.boolValue == nil {
            let lhc = FHIRLenientReading.truthy(json)
            let android = first.type == .boolean ? FHIRLenientReading.hapiBoolean(json) : .refused
            differsByEngine = true
            let androidWords = if case .value(let flag) = android { "reads it as \(CanonicalJSON.compact(flag))" } else { "throws when it evaluates it" }
            let message = "operator exists with \"\(first.key)\": \(CanonicalJSON.compact(json))"
            let effect = "LHC-Forms tests \(lhc ? "that it is answered" : "that it is not") (the value's JavaScript truthiness), android-fhir \(androidWords)"
            if first.type != .boolean {
                constraint("que-7", first.cursor, "\(message) where exists takes answerBoolean: \(effect)", hint: "write \"answerBoolean\": true to test that it is answered, false that it is not")
            } else {
                finding(.error, first.cursor, "\(message) is not true or false as R4 JSON requires: \(effect)", hint: "write \"answerBoolean\": \(lhc)", rule: Self.jsonTypeRule)
            }
            switch (engine, android) {
            case (.lhcForms, _): return ConditionValue(answer: FHIR.Value(.boolean, .bool(lhc)))
            case (.androidFHIR, .value(let flag)): return ConditionValue(answer: FHIR.Value(.boolean, flag))
            case (.androidFHIR, _):
                let reason = first.type == .boolean
                    ? "\"\(first.key)\": \(CanonicalJSON.compact(json)) is no boolean HAPI can parse" : "answerBooleanType on an \(first.key) throws FHIRException (type mismatch)"
                return ConditionValue(
                    answer: FHIR.Value(first.type, json),
                    androidFailure: "an exists condition of '\(linkId)': \(reason) (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/enablement/EnablementEvaluator.kt:192-197)")
            }
        }
        guard let problem = FHIRValues.problem(json, as: first.type) else { return ConditionValue(answer: FHIR.Value(first.type, json), written: json) }
        differsByEngine = true
        let android = FHIRLenientReading.hapiValue(json, as: first.type)
        let question = condition["question"]?.stringValue ?? "?"
        let androidWords = android.map { "reads it as \(CanonicalJSON.compact($0))" } ?? "refuses the file (HAPI's parser cannot read it as \(first.type.rawValue.lowercased()))"
        finding(
            .error, first.cursor,
            "\"\(first.key)\" is \(FHIRLenientReading.describe(json)): \(problem), as R4 JSON requires: LHC-Forms compares the value as written with the answers of '\(question)', android-fhir \(androidWords)",
            hint: "write the value with the answer[x] of the question's answers", rule: Self.jsonTypeRule)
        switch engine {
        case .lhcForms:
            return ConditionValue(answer: FHIR.Value(first.type, json), asWritten: true, written: json)
        case .androidFHIR:
            guard let android else {
                refusal(first.cursor, "\"\(first.key)\" is \(FHIRLenientReading.describe(json)), which HAPI's parser cannot read as \(first.type.rawValue.lowercased()), so it throws")
                return nil
            }
            return ConditionValue(answer: FHIR.Value(first.type, android))
        }
    }

    /// Types the values LHC-Forms reads as written by the answers of the item their condition reads: the
    /// last item with that linkId, as `_createLinkIdItemMap` keeps the last (LHNCBC/lforms@24c71875
    /// src/fhir/common/sdc-import-common.js:1239-1255) and `_getDataType` of it decides the comparison. A value
    /// that none of that item's answer types takes keeps its own type and never equals an answer.
    private mutating func typeWrittenValues() {
        for (item, index) in writtenValues {
            guard let condition = items[item]?.enableWhen[index],
                let type = itemsByLinkId[condition.question]?.last.flatMap({ items[$0]?.answerTypes })?.first(where: { FHIRValues.problem(condition.answer.json, as: $0) == nil })
            else { continue }
            items[item]?.enableWhen[index] = FHIR.EnableWhen(question: condition.question, op: condition.op, answer: FHIR.Value(type, condition.answer.json), location: condition.location)
        }
    }

    /// LHC-Forms' trigger of each condition, converted by the data type of the last item with its linkId
    /// (`_createLinkIdItemMap` keeps the last, sdc-import-common.js:1239-1255; `_processSkipLogic` converts by
    /// it, sdc-import.js:79-95). A conversion that throws makes LHC-Forms refuse the file.
    private mutating func makeTriggers() {
        for trigger in triggers {
            // The source's type and rendering read in place: an item is too large to copy for two fields.
            guard let last = itemsByLinkId[trigger.question]?.last, let type = items[last]?.type else { continue }
            let lastType = FHIRLHCForms.DataType(type: type, rendering: items[last]?.rendering)
            switch FHIRLHCForms.trigger(trigger.written, lastItemType: lastType) {
            case .success(let value):
                items[trigger.item]?.enableWhen[trigger.condition].lhcTrigger = value
                if lastType == .coding, value == .null || trigger.op.isOrdering, let item = items[trigger.item] {
                    let condition = item.enableWhen[trigger.condition]
                    let what = condition.op.isOrdering ? "the ordering \(condition.op.rawValue) gives no trigger value" : "LHC-Forms makes no Coding of its \(condition.answer.member.key)"
                    findings.append(
                        Diagnostic(
                            .warning, file: file, location: condition.location,
                            message: "an enableWhen of '\(item.linkId)' reads the choice item '\(condition.question)' and \(what): LHC-Forms throws a TypeError (_codingsEqual reads the system of null) as soon as '\(condition.question)' has an answer; android-fhir compares the values",
                            hint: "compare a choice item with = or != and answerCoding", rule: Self.choiceTriggerRule))
                }
            case .failure(let typeError):
                guard let item = items[trigger.item] else { continue }
                let condition = item.enableWhen[trigger.condition]
                errors.append(
                    Diagnostic(
                        .error, file: file, location: condition.location,
                        message: "\(engine.name) refuses this Questionnaire: an enableWhen of '\(item.linkId)' reading '\(condition.question)' makes it throw a TypeError at import: \(typeError.reason) (LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:79-95)",
                        hint: "see docs/fhir.md, Engines: the other engine may render it (option engine)", rule: Self.refusalRule))
            }
        }
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
            guard let value = value(option, prefix: "value", in: "an \(key) of '\(linkId)'", allowed: Self.optionTypes) else { return nil }
            if value.type == .reference {
                differsByEngine = true
                if engine == .lhcForms {
                    refusal(
                        entry,
                        "an \(key) of '\(linkId)' is a valueReference, on which LHC-Forms throws \"Unable to handle data type in answerOption\" (LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:188-190)")
                }
            }
            var answerOption = FHIR.AnswerOption(value: value, initialSelected: flag(option, "initialSelected") ?? false, location: option.location)
            answerOption.score = Self.score(of: option)
            return answerOption
        }
    }

    /// The score extension on an answerOption itself, as LHC-Forms reads it (any of the ordinalValue and
    /// itemWeight urls, LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:196-203).
    private static func score(of option: JSONObjectCursor) -> (url: String, value: Double)? {
        for entry in option["extension"]?.elements ?? [] {
            guard let ext = entry.object, let url = ext["url"]?.stringValue,
                ["ordinalValue", "itemWeight", "questionnaire-ordinalValue"].contains(extensionName(url)),
                let value = ext["valueDecimal"]?.numberValue
            else { continue }
            return (url, value)
        }
        return nil
    }

    private struct Extensions {
        var minValue: FHIR.Value?
        var maxValue: FHIR.Value?
        var maxOccurs: Int?
        var minOccurs: Int?
        var hidden = false
        var itemControl: String?
        var entryFormat: String?
        var expressions: [FHIR.SDCExpression] = []
    }

    private mutating func decodeExtensions(_ object: JSONObjectCursor, linkId: String, type: FHIR.ItemType, hints: inout FHIR.C3PROHints) -> Extensions {
        var result = Extensions()
        for entry in array(object, "extension") {
            guard let ext = entry.object, let url = ext["url"]?.stringValue else {
                error(entry, "expected an extension object with a \"url\" string")
                continue
            }
            let name = Self.extensionName(url)
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
                let bound = value(ext, prefix: "value", in: "the \(name) extension of '\(linkId)'", allowed: Self.boundTypes)
                if name == "minValue" { result.minValue = bound } else { result.maxValue = bound }
            case "questionnaire-maxOccurs", "questionnaire-minOccurs":
                guard let cursor = ext["valueInteger"], let count = integer(cursor, for: "the \(name) extension") else {
                    if ext["valueInteger"] == nil { error(entry, "the \(name) extension of '\(linkId)' has no valueInteger") }
                    continue
                }
                if name == "questionnaire-maxOccurs" { result.maxOccurs = count } else { result.minOccurs = count }
            case "questionnaire-hidden":
                result.hidden = flag(ext, "valueBoolean", lhc: .stringTrue) ?? false
            case "questionnaire-itemControl":
                let plain = ext["valueCodeableConcept"]?.node.plain.objectValue
                result.itemControl = plain?["coding"]?.arrayValue?.first?.objectValue?["code"]?.stringValue
            case "entryFormat":
                result.entryFormat = string(ext, "valueString")
            case _ where FHIR.ExpressionKind.of(extensionName: name) != nil:
                if let kind = FHIR.ExpressionKind.of(extensionName: name), let expression = decodeExpression(ext, name: name, kind: kind, owner: "'\(linkId)'") {
                    result.expressions.append(expression)
                }
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
        _ object: JSONObjectCursor, linkId: String, type: FHIR.ItemType, repeats: Bool, options: [FHIR.AnswerOption], initial: [FHIR.Value], children: [Int]
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
        // que-5's expression, not its one-line description ("Only 'choice' and 'open-choice' items can have
        // answerValueSet"): (type = 'choice' or 'open-choice' or 'decimal' or 'integer' or 'date' or 'dateTime'
        // or 'time' or 'string' or 'quantity') or (answerValueSet.empty() and answerOption.empty())
        // (hl7.org/fhir/R4/questionnaire.html#invs).
        if !Self.typesTakingChoices.contains(type), let choices = object["answerOption"] ?? object["answerValueSet"] {
            constraint(
                "que-5", choices, "'\(linkId)' is \(type.withArticle) item with answer choices",
                hint: "answerOption and answerValueSet go on choice, open-choice, decimal, integer, date, dateTime, time, string and quantity items")
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
        if let key = object["maxLength"], !Self.typesTakingMaxLength.contains(type) {
            constraint("que-10", key, "maxLength on the \(type.rawValue) item '\(linkId)'", hint: "maxLength applies to boolean, decimal, integer, string, text, url and open-choice items")
        }
        if !options.isEmpty, let key = object["initial"] {
            constraint(
                "que-11", key, "'\(linkId)' has both answerOption and initial",
                hint: "mark the default option with initialSelected instead; the simulation applies initial as LHC-Forms does")
        }
        if initial.count > 1, !repeats, let key = object["initial"] {
            constraint("que-13", key, "'\(linkId)' has \(initial.count) initial values but does not repeat", hint: "keep one initial value, or make the item repeat")
        }
    }
}
