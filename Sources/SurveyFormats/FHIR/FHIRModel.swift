import FHIRPath
import SurveyCore

/// The pieces of an R4 Questionnaire that SurveyReplay simulates (docs/reference/fhir.md §A1, §A2).
public enum FHIR {
    /// `Questionnaire.item.type` (R4 value set item-type).
    public enum ItemType: String, Sendable, CaseIterable {
        case group, display, boolean, decimal, integer, date, dateTime, time, string, text, url, choice
        case openChoice = "open-choice"
        case attachment, reference, quantity

        /// The type a `type` string names, as `init(rawValue:)` finds it, by a table (decoding asks at every
        /// item; the generated initializer compares the string with each case in turn).
        static func named(_ name: String) -> ItemType? { byName[name] }
        private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

        /// "a group", "an integer": the type as a message names it.
        public var withArticle: String { ("aeiou".contains(rawValue.prefix(1)) ? "an " : "a ") + rawValue }

        /// Groups and display items never carry answers (§A2).
        public var takesAnswers: Bool { self != .group && self != .display }

        /// The answer value type of the item, where it has exactly one (choice items take their options').
        var valueType: ValueType? {
            switch self {
            case .group, .display, .choice, .openChoice: nil
            case .boolean: .boolean
            case .decimal: .decimal
            case .integer: .integer
            case .date: .date
            case .dateTime: .dateTime
            case .time: .time
            case .string, .text: .string
            case .url: .uri
            case .attachment: .attachment
            case .reference: .reference
            case .quantity: .quantity
            }
        }
    }

    /// The types a `value[x]`, `answer[x]` or `initial[x]` can have, spelt as the key suffix.
    public enum ValueType: String, Sendable, CaseIterable {
        case boolean = "Boolean", decimal = "Decimal", integer = "Integer", date = "Date", dateTime = "DateTime", time = "Time"
        case string = "String", uri = "Uri", coding = "Coding", quantity = "Quantity", reference = "Reference", attachment = "Attachment"

        /// Types with an order, on which `>`, `<`, `>=` and `<=` are defined (§A1, value comparison).
        var isOrdered: Bool {
            switch self {
            case .integer, .decimal, .date, .dateTime, .time, .string, .quantity: true
            case .boolean, .uri, .coding, .reference, .attachment: false
            }
        }

        var isNumber: Bool { self == .integer || self == .decimal }

        /// The member a value of this type is written under: `valueCoding` and so on.
        var memberKey: String {
            switch self {
            case .boolean: "valueBoolean"
            case .decimal: "valueDecimal"
            case .integer: "valueInteger"
            case .date: "valueDate"
            case .dateTime: "valueDateTime"
            case .time: "valueTime"
            case .string: "valueString"
            case .uri: "valueUri"
            case .coding: "valueCoding"
            case .quantity: "valueQuantity"
            case .reference: "valueReference"
            case .attachment: "valueAttachment"
            }
        }

        /// The JavaScript type LHC-Forms holds such a value as: "number", "string", "boolean" or "object".
        var javaScriptKind: String {
            switch self {
            case .integer, .decimal: "number"
            case .boolean: "boolean"
            case .date, .dateTime, .time, .string, .uri: "string"
            case .coding, .quantity, .reference, .attachment: "object"
            }
        }
    }

    /// One typed value: its type and its JSON as the response writes it under `value<Type>`.
    public struct Value: Hashable, Sendable {
        public let type: ValueType
        public let json: JSONValue
        /// `StableHash.of(json)`, worked out once as the value is made: response keys hash the answers they
        /// hold at every Submit and every response SDC expressions read, mostly options made once.
        public let stableHash: UInt64

        public init(_ type: ValueType, _ json: JSONValue) {
            self.type = type
            self.json = json
            stableHash = StableHash.of(json)
        }

        /// Equal JSON hashes alike, so values of different hashes differ without comparing their JSON.
        public static func == (lhs: Value, rhs: Value) -> Bool {
            lhs.stableHash == rhs.stableHash && lhs.type == rhs.type && lhs.json == rhs.json
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(stableHash)
        }

        /// `valueCoding: {...}` and so on, as a response answer holds it.
        public var member: (key: String, value: JSONValue) { (type.memberKey, json) }
    }

    /// `enableWhen.operator` (R4 value set questionnaire-enable-operator).
    public enum Operator: String, Sendable, CaseIterable {
        case exists
        case equals = "="
        case notEquals = "!="
        case greater = ">"
        case less = "<"
        case greaterOrEqual = ">="
        case lessOrEqual = "<="

        /// The operator an `operator` string names, as `init(rawValue:)` finds it, by a table (decoding asks at
        /// every condition).
        static func named(_ name: String) -> Operator? { byName[name] }
        private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

        var isOrdering: Bool {
            switch self {
            case .greater, .less, .greaterOrEqual, .lessOrEqual: true
            case .exists, .equals, .notEquals: false
            }
        }
    }

    public struct EnableWhen: Sendable {
        /// The linkId of the item whose answer decides the condition.
        public let question: String
        public let op: Operator
        public let answer: Value
        public let location: SourceLocation
        /// Under LHC-Forms' reading: the skip-logic trigger LHC-Forms compares, converted by the data type of
        /// the last item with the linkId (`FHIRLHCForms.trigger`); nil for `exists` and under android-fhir.
        var lhcTrigger: FHIRJSValue? {
            didSet { lhcTriggerCoding = lhcTrigger.flatMap(FHIRLHCForms.triggerCoding) }
        }
        /// The texts `_codingsEqual` reads of a choice item's trigger (a Coding object), read once at load
        /// rather than looked up in the object at every evaluation.
        private(set) var lhcTriggerCoding: FHIRValues.CodingText? = nil
        /// Under android-fhir's reading: why evaluating this condition throws (an `exists` whose answer[x] is
        /// not a boolean or is missing), or nil.
        var androidFailure: String?

        /// `question op answer`, as coverage and messages show a condition.
        public var description: String {
            "\(question) \(op.rawValue) \(CanonicalJSON.compact(answer.json))"
        }
    }

    public enum EnableBehavior: String, Sendable {
        case all, any
        /// LHC-Forms' reading of a behavior other than all and any (upper-cased, `lhc-form-data.ts:3994-3999`):
        /// neither, so its skip logic never enables the item.
        case neither
    }

    /// How the engine of a reading renders an item its type does not fit, when it does not render it as that
    /// type says.
    public enum Rendering: Sendable, Equatable {
        /// LHC-Forms has no data type for it (no type, an unknown one, or `reference`): `_getDataType` gives the
        /// lowercase 'string', a text box (the template's default case) whose answers are exported nowhere and
        /// which skip logic reads only by `exists`. The type as written, if any.
        case lhcTextBox(written: String?)
        /// android-fhir has no view for it (no type, `url`, `open-choice` without options): showing it throws
        /// NotImplementedError (`QuestionnaireLists.kt:249-279`). Why, for messages.
        case androidThrowsWhenShown(String)
    }

    public struct AnswerOption: Sendable {
        public let value: Value
        public let initialSelected: Bool
        public let location: SourceLocation
        /// The option's score (`ordinalValue` or `itemWeight` on the option itself): its url and value.
        public var score: (url: String, value: Double)?
    }

    /// What an SDC expression extension computes (SDC IG "Expression extensions"; docs/fhir.md, "SDC expressions").
    public enum ExpressionKind: String, Sendable, CaseIterable {
        case enableWhen = "enableWhenExpression"
        case calculated = "calculatedExpression"
        case initial = "initialExpression"
        case answer = "answerExpression"
        case answerOptionsToggle = "answerOptionsToggleExpression"
        case variable
        /// An expression neither engine evaluates while the form runs: CQL (`cqf-expression`), population and
        /// extraction contexts, candidate and context expressions.
        case notEvaluated

        /// The extension urls' last segments.
        static func of(extensionName name: String) -> ExpressionKind? {
            switch name {
            case "sdc-questionnaire-enableWhenExpression": .enableWhen
            case "sdc-questionnaire-calculatedExpression": .calculated
            case "sdc-questionnaire-initialExpression": .initial
            case "sdc-questionnaire-answerExpression": .answer
            case "sdc-questionnaire-answerOptionsToggleExpression": .answerOptionsToggle
            case "variable": .variable
            case "cqf-expression", "cqf-calculatedValue", "sdc-questionnaire-itemPopulationContext", "sdc-questionnaire-itemExtractionContext",
                "sdc-questionnaire-candidateExpression", "sdc-questionnaire-contextExpression":
                .notEvaluated
            default: nil
            }
        }
    }

    /// The language of an Expression, as the engines read `Expression.language`.
    public enum ExpressionLanguage: Sendable, Equatable {
        case fhirPath
        /// `application/x-fhir-query`: a search on a FHIR server, which a simulation has none of.
        case fhirQuery
        /// Anything else (CQL, none): neither engine evaluates it.
        case other(String?)
    }

    /// One SDC expression extension, its FHIRPath compiled once for the reading's engine.
    public struct SDCExpression: Sendable {
        public let kind: ExpressionKind
        /// The extension url's last segment, as messages name it.
        public let extensionName: String
        /// `Expression.name`: the variable an expression defines.
        public let name: String?
        public let language: ExpressionLanguage
        public let text: String?
        /// Where the extension is.
        public let location: SourceLocation
        /// Where the expression's text is, for errors inside it.
        public let source: FHIRPathSource?
        /// The compiled FHIRPath, or why the engine's FHIRPath cannot compile it; nil when it is no FHIRPath.
        public let compiled: Result<FHIRPathExpression, FHIRPathError>?
        /// answerOptionsToggleExpression: the option values it enables while true and disables while false.
        public let toggledOptions: [Value]

        /// The compiled expression, when it compiles.
        public var program: FHIRPathExpression? { try? compiled?.get() }
    }

    /// An `sdc-questionnaire-launchContext`: a resource the host passes the form under a name (`patient`).
    public struct LaunchContext: Sendable {
        public let name: String
        /// The system of the name's Coding (SDC's launchContext code system; nil for the older valueId).
        public let nameSystem: String?
        /// The resource types it may be (`type`, 1..*).
        public let types: [String]
        public let location: SourceLocation
    }

    /// Where an item's answer choices come from: C3-PRO reads them from a ValueSet only (§A3).
    public enum OptionsSource: Sendable, Equatable {
        case none
        /// `answerOption` (R4) or `option` (STU3), written in the item.
        case inline
        /// A ValueSet resolved offline: contained (`#id`) or a ValueSet file beside the Questionnaire.
        case valueSet(String)
        /// A ValueSet reference nothing in or beside the file resolves.
        case unresolved(String)
    }

    /// What C3-PRO reads of an item and the R4 engines do not (§A3): the step's title and detail, the
    /// slider's default and end labels, the quantity's unit, and what an STU3-era file leaves out that C3-PRO
    /// copes with (no linkId, no type, an enableWhen it cannot read).
    public struct C3PROHints: Sendable {
        /// The first `code.display`, else the first `code.code`: C3-PRO's step title before `text`.
        public var codeTitle: String?
        /// The `questionnaire-instruction` extension: the step's detail text.
        public var instruction: String?
        /// The `questionnaire-help` extension: the detail text when there is no instruction.
        public var help: String?
        /// The `questionnaire-defaultValue` extension (valueInteger): the slider's starting value.
        public var defaultValue: Int?
        /// The string-valued minValue / maxValue extensions: the slider's end labels.
        public var minLabel: String?
        public var maxLabel: String?
        /// The `questionnaire-units` extension (valueString): the unit of a quantity.
        public var unit: String?
        public var optionsSource: OptionsSource = .none
        /// The item has no linkId (STU3-era input): its linkId was generated (C3-PRO gives it a random UUID).
        public var linkIdGenerated = false
        /// The item has no type (STU3-era input): read as a string item, as C3-PRO asks for a text answer.
        public var typeMissing = false
        /// enableWhen entries of an STU3-era file that no engine can read (no `question`, neither an answer[x]
        /// nor hasAnswer): they are not in `enableWhen`; C3-PRO drops the item's own conditions for them.
        public var unreadableConditions: [UnreadableCondition] = []

        public init() {}
    }

    public struct UnreadableCondition: Sendable {
        /// What is missing, completing "an enableWhen of 'x' …".
        public let problem: String
        public let location: SourceLocation
    }

    public struct Item: Sendable {
        public var linkId: String { parts.linkId }
        /// The id scenarios name the item by: its linkId, or for the second and later items sharing one
        /// linkId (que-2), `linkId@N` with N its place among them in document order.
        public internal(set) var id: String {
            get { parts.id }
            _modify {
                let parts = uniqueParts()
                yield &parts.id
            }
        }
        public var text: String? { parts.text }
        public var type: ItemType { parts.type }
        public var required: Bool { parts.required }
        public var repeats: Bool { parts.repeats }
        public var readOnly: Bool { parts.readOnly }
        public var maxLength: Int? { parts.maxLength }
        public var options: [AnswerOption] { parts.options }
        /// `answerValueSet` when it cannot be resolved to codes in the file (an external value set): any
        /// Coding is taken.
        public var externalValueSet: String? { parts.externalValueSet }
        public var initial: [Value] { parts.initial }
        public internal(set) var enableWhen: [EnableWhen] {
            get { parts.enableWhen }
            _modify {
                let parts = uniqueParts()
                yield &parts.enableWhen
            }
        }
        public var enableBehavior: EnableBehavior? { parts.enableBehavior }
        public var minValue: Value? { parts.minValue }
        public var maxValue: Value? { parts.maxValue }
        public var maxOccurs: Int? { parts.maxOccurs }
        public var minOccurs: Int? { parts.minOccurs }
        /// The `questionnaire-hidden` extension: not displayed, still in the response (§A2).
        public var hidden: Bool { parts.hidden }
        public var itemControl: String? { parts.itemControl }
        public var entryFormat: String? { parts.entryFormat }
        /// Its SDC expression extensions, in the order written.
        public var expressions: [SDCExpression] { parts.expressions }
        /// Where the choices come from, and what only the C3-PRO profile reads (§A3).
        public var c3pro: C3PROHints { parts.c3pro }
        /// Index of the parent item, nil at the top level.
        public var parent: Int? { parts.parent }
        /// Indices of the nested items, in document order.
        public var children: [Int] { parts.children }
        public var location: SourceLocation { parts.location }
        /// Where `enableWhen` is, for coverage and lint.
        public var enableWhenLocation: SourceLocation? { parts.enableWhenLocation }
        /// How the engine of this reading renders it when not as its type says (nil: as its type says).
        public internal(set) var rendering: Rendering? {
            get { parts.rendering }
            _modify {
                let parts = uniqueParts()
                yield &parts.rendering
            }
        }

        /// Its parts, boxed: an item is large, and sessions, walks and readers pass items around, so a copy
        /// costs one reference count. The few parts the decoder changes after making an item are copied
        /// on write.
        private var parts: Parts

        // Written only while the decoder makes the item (on a box of its own, `uniqueParts`), then only
        // read: unchecked, so that reading a part is not an exclusivity check at run time.
        private final class Parts: @unchecked Sendable {
            @exclusivity(unchecked) var linkId: String
            @exclusivity(unchecked) var id: String
            @exclusivity(unchecked) var text: String?
            @exclusivity(unchecked) var type: ItemType
            @exclusivity(unchecked) var required: Bool
            @exclusivity(unchecked) var repeats: Bool
            @exclusivity(unchecked) var readOnly: Bool
            @exclusivity(unchecked) var maxLength: Int?
            @exclusivity(unchecked) var options: [AnswerOption]
            @exclusivity(unchecked) var externalValueSet: String?
            @exclusivity(unchecked) var initial: [Value]
            @exclusivity(unchecked) var enableWhen: [EnableWhen]
            @exclusivity(unchecked) var enableBehavior: EnableBehavior?
            @exclusivity(unchecked) var minValue: Value?
            @exclusivity(unchecked) var maxValue: Value?
            @exclusivity(unchecked) var maxOccurs: Int?
            @exclusivity(unchecked) var minOccurs: Int?
            @exclusivity(unchecked) var hidden: Bool
            @exclusivity(unchecked) var itemControl: String?
            @exclusivity(unchecked) var entryFormat: String?
            @exclusivity(unchecked) var expressions: [SDCExpression]
            @exclusivity(unchecked) var c3pro: C3PROHints
            @exclusivity(unchecked) var parent: Int?
            @exclusivity(unchecked) var children: [Int]
            @exclusivity(unchecked) var location: SourceLocation
            @exclusivity(unchecked) var enableWhenLocation: SourceLocation?
            @exclusivity(unchecked) var rendering: Rendering?

            init(linkId: String, id: String, text: String?, type: ItemType, required: Bool, repeats: Bool, readOnly: Bool, maxLength: Int?, options: [AnswerOption], externalValueSet: String?, initial: [Value], enableWhen: [EnableWhen], enableBehavior: EnableBehavior?, minValue: Value?, maxValue: Value?, maxOccurs: Int?, minOccurs: Int?, hidden: Bool, itemControl: String?, entryFormat: String?, expressions: [SDCExpression], c3pro: C3PROHints, parent: Int?, children: [Int], location: SourceLocation, enableWhenLocation: SourceLocation?, rendering: Rendering?) {
                self.linkId = linkId
                self.id = id
                self.text = text
                self.type = type
                self.required = required
                self.repeats = repeats
                self.readOnly = readOnly
                self.maxLength = maxLength
                self.options = options
                self.externalValueSet = externalValueSet
                self.initial = initial
                self.enableWhen = enableWhen
                self.enableBehavior = enableBehavior
                self.minValue = minValue
                self.maxValue = maxValue
                self.maxOccurs = maxOccurs
                self.minOccurs = minOccurs
                self.hidden = hidden
                self.itemControl = itemControl
                self.entryFormat = entryFormat
                self.expressions = expressions
                self.c3pro = c3pro
                self.parent = parent
                self.children = children
                self.location = location
                self.enableWhenLocation = enableWhenLocation
                self.rendering = rendering
            }

            func copy() -> Parts {
                Parts(linkId: linkId, id: id, text: text, type: type, required: required, repeats: repeats, readOnly: readOnly, maxLength: maxLength, options: options, externalValueSet: externalValueSet, initial: initial, enableWhen: enableWhen, enableBehavior: enableBehavior, minValue: minValue, maxValue: maxValue, maxOccurs: maxOccurs, minOccurs: minOccurs, hidden: hidden, itemControl: itemControl, entryFormat: entryFormat, expressions: expressions, c3pro: c3pro, parent: parent, children: children, location: location, enableWhenLocation: enableWhenLocation, rendering: rendering)
            }
        }

        init(linkId: String, id: String, text: String?, type: ItemType, required: Bool, repeats: Bool, readOnly: Bool, maxLength: Int?, options: [AnswerOption], externalValueSet: String?, initial: [Value], enableWhen: [EnableWhen], enableBehavior: EnableBehavior?, minValue: Value?, maxValue: Value?, maxOccurs: Int?, minOccurs: Int?, hidden: Bool, itemControl: String?, entryFormat: String?, expressions: [SDCExpression], c3pro: C3PROHints, parent: Int?, children: [Int], location: SourceLocation, enableWhenLocation: SourceLocation?, rendering: Rendering?) {
            parts = Parts(linkId: linkId, id: id, text: text, type: type, required: required, repeats: repeats, readOnly: readOnly, maxLength: maxLength, options: options, externalValueSet: externalValueSet, initial: initial, enableWhen: enableWhen, enableBehavior: enableBehavior, minValue: minValue, maxValue: maxValue, maxOccurs: maxOccurs, minOccurs: minOccurs, hidden: hidden, itemControl: itemControl, entryFormat: entryFormat, expressions: expressions, c3pro: c3pro, parent: parent, children: children, location: location, enableWhenLocation: enableWhenLocation, rendering: rendering)
        }

        private mutating func uniqueParts() -> Parts {
            if !isKnownUniquelyReferenced(&parts) { parts = parts.copy() }
            return parts
        }

        /// Its first expression of a kind.
        public func expression(_ kind: ExpressionKind) -> SDCExpression? { expressions.first { $0.kind == kind } }
        /// Whether an SDC enableWhenExpression decides its enablement.
        public var enablementIsExpression: Bool { expression(.enableWhen) != nil }
        /// Whether an SDC calculatedExpression computes its value.
        public var valueIsCalculated: Bool { expression(.calculated) != nil }
        /// Whether a repeating group: one response item a instance (§A2, qrs-2).
        public var isRepeatingGroup: Bool { type == .group && repeats }

        /// The value types its answers have (§A2 item type → value mapping): a choice item's are its
        /// options' (a Coding when it has none), an open-choice item's also a string; none for groups and
        /// display items.
        public var answerTypes: [ValueType] {
            switch type {
            case .choice, .openChoice:
                var types: [ValueType] = []
                for option in options where !types.contains(option.value.type) { types.append(option.value.type) }
                if types.isEmpty { types = [.coding] }
                if type == .openChoice, !types.contains(.string) { types.append(.string) }
                return types
            default:
                return type.valueType.map { [$0] } ?? []
            }
        }
    }
}
