import SurveyCore

/// A JavaScript value, as LHC-Forms holds a skip-logic trigger or an answer, with the three comparisons its
/// `_checkSkipLogicCondition` makes: `===`, the loose `!=`, and `<`/`<=` against a number (`_inRange`).
enum FHIRJSValue: Equatable, Sendable {
    case undefined, null
    case bool(Bool)
    case number(Double)
    case string(String)
    case object([String: JSONValue])

    init(_ json: JSONValue?) {
        switch json {
        case nil: self = .undefined
        case .null?: self = .null
        case .bool(let flag)?: self = .bool(flag)
        case .number(let number)?: self = .number(number)
        case .string(let text)?: self = .string(text)
        case .object(let object)?: self = .object(object)
        case .array?: self = .object([:])
        }
    }

    /// The JSON of a primitive, for typing it as a FHIR value; nil for undefined, null and objects.
    var json: JSONValue? {
        switch self {
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .undefined, .null, .object: nil
        }
    }

    /// undefined, null or "": what LHC-Forms counts as no value (`hasAnswer`, and the unanswered `!=` branch).
    var isEmpty: Bool {
        switch self {
        case .undefined, .null: true
        case .string(let text): text.isEmpty
        default: false
        }
    }

    /// `===`: the same type and value (objects are never the same object here).
    func strictlyEquals(_ other: FHIRJSValue) -> Bool {
        switch (self, other) {
        case (.undefined, .undefined), (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        default: false
        }
    }

    /// `==`, the abstract equality `!=` negates: null and undefined equal each other only; a boolean
    /// compares as its number; a number and a string compare as numbers; a plain object as its string
    /// "[object Object]".
    func looselyEquals(_ other: FHIRJSValue) -> Bool {
        switch (self, other) {
        case (.undefined, .undefined), (.null, .null), (.undefined, .null), (.null, .undefined): return true
        case (.undefined, _), (.null, _), (_, .undefined), (_, .null): return false
        case (.bool(let flag), _): return FHIRJSValue.number(flag ? 1 : 0).looselyEquals(other)
        case (_, .bool(let flag)): return looselyEquals(.number(flag ? 1 : 0))
        case (.object, .object): return false
        case (.object, _): return FHIRJSValue.string("[object Object]").looselyEquals(other)
        case (_, .object): return looselyEquals(.string("[object Object]"))
        case (.number(let a), .string): return a == other.numberValue
        case (.string, .number(let b)): return numberValue == b
        default: return strictlyEquals(other)
        }
    }

    /// `ToNumber`: NaN for undefined, objects and strings that are not numerals ("" and blanks are 0).
    var numberValue: Double {
        switch self {
        case .undefined, .object: return .nan
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .number(let number): return number
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return 0 }
            switch trimmed {
            case "Infinity", "+Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                // A decimal numeral only: Swift's Double(_:) also takes "inf", "nan" and hex floats.
                guard trimmed.allSatisfy({ "0123456789.eE+-".contains($0) }), let number = Double(trimmed) else { return .nan }
                return number
            }
        }
    }
}

/// LHC-Forms' skip logic (LHNCBC/lforms@24c71875): each enableWhen becomes a trigger at import
/// (`_processSkipLogic`, src/fhir/R4R5-common/sdc-import.js:66-102), compared with the source item's value by
/// its data type at run time (`_checkSkipLogicCondition`, src/lib/lforms/lhc-form-data.ts:3870-3984).
///
/// Where the trigger and the source's answers are of one JavaScript type (a number against a numeric item, a
/// string against a text or date item), SurveyReplay compares as the reference recommends
/// (`FHIRStandardRules`), which agrees with LHC-Forms for `=` and `!=`; docs/fhir.md lists where LHC-Forms'
/// orderings differ. Everything else follows LHC-Forms' JavaScript: a value of another type, written so or
/// converted by the data type of another item sharing the linkId; a choice source, whose trigger must be a
/// Coding; an item without a data type of LHC-Forms' own.
enum FHIRLHCForms {
    /// LHC-Forms' data type of an item (`_getDataType`, src/fhir/STU3R4-common/sdc-import.js:36-92).
    enum DataType: Equatable {
        case coding, integer, decimal, quantity, string, text, boolean, date, dateTime, time, url, attachment, group, display
        /// The lowercase 'string' `_getDataType` falls back to, which no skip-logic case handles.
        case untyped

        init(_ item: FHIR.Item) {
            self.init(type: item.type, rendering: item.rendering)
        }

        /// The data type of an item of this type, rendered so.
        init(type: FHIR.ItemType, rendering: FHIR.Rendering?) {
            if case .lhcTextBox? = rendering {
                self = .untyped
                return
            }
            switch type {
            case .choice, .openChoice: self = .coding
            case .integer: self = .integer
            case .decimal: self = .decimal
            case .quantity: self = .quantity
            case .string: self = .string
            case .text: self = .text
            case .boolean: self = .boolean
            case .date: self = .date
            case .dateTime: self = .dateTime
            case .time: self = .time
            case .url: self = .url
            case .attachment: self = .attachment
            case .group: self = .group
            case .display: self = .display
            case .reference: self = .untyped
            }
        }

        /// Whether an item of this type and options has an answer list (`hasAnswerList`,
        /// src/lib/lforms/internal-utils.js:437-440): always for CODING, with answerOption for ST, INT, DT, TM.
        func hasAnswerList(_ item: FHIR.Item) -> Bool {
            switch self {
            case .coding: true
            case .string, .integer, .date, .time: !item.options.isEmpty
            default: false
            }
        }
    }

    /// What skip logic reads of a source item: its data type, its answers' value types and whether it has an
    /// answer list; worked out once per item by sessions, which evaluate conditions at every step.
    struct Source: Sendable {
        let dataType: DataType
        let answerTypes: [FHIR.ValueType]
        let hasAnswerList: Bool

        init(_ item: FHIR.Item) {
            dataType = DataType(item)
            answerTypes = item.answerTypes
            hasAnswerList = dataType.hasAnswerList(item)
        }
    }

    /// The trigger `_processSkipLogic` makes of an answer[x] written as `json` (nil: missing), converted by the
    /// data type of the last item with the condition's linkId (sdc-import.js:79-95): a choice item's copies the
    /// Coding's code, system and display (as `text`), or is null when none of them is there
    /// (`_copyTriggerCoding`, src/fhir/common/sdc-common.js:127-160); a quantity item's is the Quantity's
    /// value; any other's is the value as written. Fails with the TypeError LHC-Forms throws at import on a
    /// null or missing value.
    static func trigger(_ json: JSONValue?, lastItemType: DataType) -> Result<FHIRJSValue, TypeError> {
        let raw = FHIRJSValue(json)
        switch lastItemType {
        case .coding:
            switch raw {
            case .undefined, .null: return .failure(TypeError("_copyTriggerCoding reads the code of \(raw == .null ? "null" : "undefined")"))
            case .object(let object):
                var copy: [String: JSONValue] = [:]
                for (from, to) in [("code", "code"), ("system", "system"), ("display", "text")] {
                    if let value = object[from], !FHIRJSValue(value).isEmpty { copy[to] = value }
                }
                return .success(copy.isEmpty ? .null : .object(copy))
            default:
                return .success(.null)
            }
        case .quantity:
            switch raw {
            case .undefined, .null: return .failure(TypeError("the trigger reads the value of \(raw == .null ? "null" : "undefined")"))
            case .object(let object): return .success(FHIRJSValue(object["value"]))
            default: return .success(.undefined)
            }
        default:
            return .success(raw)
        }
    }

    /// A JavaScript TypeError LHC-Forms throws.
    struct TypeError: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Whether a condition other than `exists` holds, given its source item and the answers LHC-Forms sees
    /// (none when the source is unanswered or disabled), or the TypeError LHC-Forms throws checking it.
    static func evaluate(
        _ condition: FHIR.EnableWhen, trigger: FHIRJSValue, source: Source, answers: [FHIR.Value], notEquals: FHIRStandardRules.NotEquals
    ) -> Result<Bool, TypeError> {
        let dataType = source.dataType
        // No answer: only `!=` with a trigger that has a value holds (lhc-form-data.ts:3978-3982).
        guard !answers.isEmpty else { return .success(condition.op == .notEquals && !trigger.isEmpty && notEquals == .noAnswerEquals) }
        if dataType == .coding { return codingSource(condition.op, trigger, coding: condition.lhcTriggerCoding, answers, notEquals: notEquals) }
        if dataType != .untyped, let json = trigger.json,
            let type = source.answerTypes.first(where: { FHIRValues.problem(json, as: $0) == nil })
        {
            let typed = FHIR.EnableWhen(question: condition.question, op: condition.op, answer: FHIR.Value(type, json), location: condition.location)
            return .success(FHIRStandardRules(notEquals: notEquals, engine: .lhcForms).holds(typed, answers: answers))
        }
        let hasList = source.hasAnswerList
        let values = answers.map(value(of:))
        switch (dataType, hasList) {
        case (.integer, true), (.string, true), (.date, true), (.time, true):
            // `triggerValue === answerValue.text` (lhc-form-data.ts:3885-3927); an ordering's trigger has
            // neither value nor notEqual, so it never holds.
            let equal = { (value: FHIRJSValue) in trigger.strictlyEquals(value) }
            return .success(compare(condition.op, values, equal: equal, notEquals: notEquals, order: { _ in false }))
        case (.integer, false), (.decimal, false), (.quantity, false):
            // `trigger.value === parseFloat(value)`, `trigger.notEqual != number`, `_inRange` (lhc-form-data.ts:3931-3956, 3706-3750).
            let bound = trigger.numberValue
            let order: (FHIRJSValue) -> Bool = { value in
                let number = value.numberValue
                guard !number.isNaN, !bound.isNaN else { return false }
                switch condition.op {
                case .greater: return bound < number
                case .less: return bound > number
                case .greaterOrEqual: return bound <= number
                case .lessOrEqual: return bound >= number
                default: return false
                }
            }
            return .success(compare(condition.op, values, equal: { trigger.strictlyEquals($0) }, loose: { trigger.looselyEquals($0) }, notEquals: notEquals, order: order))
        case (.string, false), (.text, false), (.boolean, false):
            // `===` and `!=` only (lhc-form-data.ts:3957-3972).
            return .success(compare(condition.op, values, equal: { trigger.strictlyEquals($0) }, loose: { trigger.looselyEquals($0) }, notEquals: notEquals, order: { _ in false }))
        default:
            // No case for the data type: nothing but the unanswered `!=` holds.
            return .success(false)
        }
    }

    /// `=`, `!=` and the orderings over a source's values: `=` and an ordering when one value matches; `!=`
    /// when no value equals (LHC-Forms), or when one differs (the `not-equals` option's other reading).
    /// `loose` is the equality `!=` negates where LHC-Forms writes `!=` (the strict one where it negates
    /// `===`).
    private static func compare(
        _ op: FHIR.Operator, _ values: [FHIRJSValue], equal: (FHIRJSValue) -> Bool, loose: ((FHIRJSValue) -> Bool)? = nil,
        notEquals: FHIRStandardRules.NotEquals, order: (FHIRJSValue) -> Bool
    ) -> Bool {
        switch op {
        case .equals: return values.contains(where: equal)
        case .notEquals:
            let same = values.map { loose?($0) ?? equal($0) }
            switch notEquals {
            case .noAnswerEquals: return !same.contains(true)
            case .anyAnswerDiffers: return same.contains(false)
            }
        default: return values.contains(where: order)
        }
    }

    /// A choice source (CODING: always an answer list): each answer is compared with `_codingsEqual`, which
    /// reads the trigger's system first, so a trigger that is no Coding (null), and an ordering's (whose
    /// trigger has no value at all), throw once the source has an answer (lhc-form-data.ts:3847-3850,
    /// 3886-3906). Answer systems spelled "LOINC" read as http://loinc.org; the trigger's is not rewritten
    /// (lhc-form-data.ts:1549-1558).
    private static func codingSource(
        _ op: FHIR.Operator, _ trigger: FHIRJSValue, coding: FHIRValues.CodingText?, _ answers: [FHIR.Value], notEquals: FHIRStandardRules.NotEquals
    ) -> Result<Bool, TypeError> {
        guard !op.isOrdering else {
            return .failure(TypeError("\(op.rawValue) on a choice item has no trigger value, and _codingsEqual reads the system of null"))
        }
        guard let expected = coding ?? triggerCoding(trigger) else {
            return .failure(TypeError("the trigger of a choice item is \(trigger == .undefined ? "undefined" : "null") (_copyTriggerCoding keeps only a Coding's code, system and display), and _codingsEqual reads its system"))
        }
        // An answer's system "LOINC" reads as http://loinc.org.
        let equal = { (answer: FHIR.Value) -> Bool in
            guard let object = answer.json.objectValue else { return false }
            var given = FHIRValues.CodingText(object)
            if given.system == "LOINC" { given.system = "http://loinc.org" }
            return FHIRValues.codingsEqual(expected, given, engine: .lhcForms)
        }
        switch op {
        case .equals: return .success(answers.contains(where: equal))
        default: return .success(notEquals == .noAnswerEquals ? !answers.contains(where: equal) : answers.contains { !equal($0) })
        }
    }

    /// The texts `_codingsEqual` reads of a trigger that is a Coding object (its display is its `text`); nil
    /// for any other trigger.
    static func triggerCoding(_ trigger: FHIRJSValue) -> FHIRValues.CodingText? {
        guard case .object(let coding) = trigger else { return nil }
        return FHIRValues.CodingText(system: coding["system"], code: coding["code"], display: coding["text"])
    }

    /// An answer as LHC-Forms compares it: an option's text (a number for integer options, `parseInt`), a
    /// number (`parseFloat`; a quantity's value), a string or a boolean.
    private static func value(of answer: FHIR.Value) -> FHIRJSValue {
        if answer.type == .quantity { return FHIRJSValue(answer.json.objectValue?["value"]) }
        return FHIRJSValue(answer.json)
    }
}
