import FHIRPath
import SurveyCore

/// How FHIRPath results become what the engines store, and stored answers what expressions read.
enum FHIRExpressionValues {
    /// The answers a computed result gives an item (calculated and initial values): each result converted to
    /// the item's answer type, what does not convert dropped, one value for an item that does not repeat. A
    /// Coding on a choice item becomes the option it matches (LHC-Forms: by system and code or display,
    /// `_convertFHIRValues`, LHNCBC/lforms@24c71875 src/fhir/common/sdc-import-common.js:488-505;
    /// android-fhir's initial values: by system and code, ResourceMapper.kt:308-325); an unmatched one stays a
    /// Coding on an item without options or with open choices. `matchOptions` false keeps Codings as they are
    /// (android-fhir's calculated values, `asExpectedType`, ResourceMapper.kt:824-834).
    static func answers(_ result: FHIRPathCollection, for item: FHIR.Item, matchOptions: Bool = true) -> [FHIR.Value] {
        var values: [FHIR.Value] = []
        for entry in result {
            if let value = answer(entry, for: item, matchOptions: matchOptions) { values.append(value) }
            if !item.repeats, !values.isEmpty { break }
        }
        return values
    }

    private static func answer(_ entry: FHIRPathItem, for item: FHIR.Item, matchOptions: Bool) -> FHIR.Value? {
        let system = entry.systemValue
        switch item.type {
        case .boolean:
            if case .boolean(let flag)? = system { return FHIR.Value(.boolean, .bool(flag)) }
        case .decimal:
            if let number = number(system) { return FHIR.Value(.decimal, .number(number)) }
        case .integer:
            if let number = number(system), number == number.rounded(), abs(number) < 2_147_483_648 { return FHIR.Value(.integer, .number(number)) }
        case .string, .text:
            if case .string(let text)? = system, !text.isEmpty { return FHIR.Value(.string, .string(text)) }
        case .url:
            if case .string(let text)? = system, !text.isEmpty { return FHIR.Value(.uri, .string(text)) }
        case .date, .dateTime, .time:
            let type = item.type.valueType!
            let text: String? =
                switch system {
                case .dateTime(let date)?: date.description
                case .string(let text)?: text
                default: nil
                }
            if let text, FHIRValues.problem(.string(text), as: type) == nil { return FHIR.Value(type, .string(text)) }
        case .quantity:
            if case .quantity(let quantity)? = system, let value = Double(quantity.value.description) {
                return FHIR.Value(.quantity, ["value": .number(value), "unit": .string(quantity.unit)])
            }
        case .choice, .openChoice:
            return choice(entry, system: system, for: item, matchOptions: matchOptions)
        case .reference, .attachment:
            if case .node(let node) = entry, let type = item.type.valueType, FHIRValues.problem(node.jsonValue, as: type) == nil {
                return FHIR.Value(type, node.jsonValue)
            }
        case .group, .display:
            return nil
        }
        return nil
    }

    private static func choice(_ entry: FHIRPathItem, system: FHIRPathItem?, for item: FHIR.Item, matchOptions: Bool) -> FHIR.Value? {
        if case .node(let node) = entry, node.type.name == "Coding", let coding = node.jsonValue.objectValue {
            guard matchOptions else { return FHIR.Value(.coding, .object(coding)) }
            let match = item.options.first { option in
                guard option.value.type == .coding, let wanted = option.value.json.objectValue else { return false }
                guard coding["system"] == wanted["system"] else { return false }
                return (coding["code"] != nil && coding["code"] == wanted["code"]) || (coding["display"] != nil && coding["display"] == wanted["display"])
            }
            if let match { return match.value }
            return item.options.isEmpty || item.type == .openChoice ? FHIR.Value(.coding, .object(coding)) : nil
        }
        let json: JSONValue
        let type: FHIR.ValueType
        switch system {
        case .string(let text)?: (json, type) = (.string(text), .string)
        case .integer(let number)?: (json, type) = (.number(Double(number)), .integer)
        case .dateTime(let date)?: (json, type) = (.string(date.description), date.kind == .date ? .date : date.kind == .time ? .time : .dateTime)
        default: return nil
        }
        if let option = item.options.first(where: { $0.value.type == type && $0.value.json == json }) { return option.value }
        return item.type == .openChoice && type == .string ? FHIR.Value(.string, json) : nil
    }

    private static func number(_ system: FHIRPathItem?) -> Double? {
        switch system {
        case .integer(let number)?: Double(number)
        case .decimal(let number)?: Double(number.description)
        default: nil
        }
    }

    /// The options an answerExpression's result offers: Codings, strings, integers, dates and times, as
    /// answerOption values (LHC-Forms' `_setItemListFromFHIRPath`, LHNCBC/lforms@24c71875
    /// src/fhir/expression-processor.js:764-855; android-fhir's `extractAnswerOptions`).
    static func options(_ result: FHIRPathCollection) -> [FHIR.Value] {
        result.compactMap { entry in
            if case .node(let node) = entry, node.type.name == "Coding" { return FHIR.Value(.coding, node.jsonValue) }
            switch entry.systemValue {
            case .string(let text)?: return FHIR.Value(.string, .string(text))
            case .integer(let number)?: return FHIR.Value(.integer, .number(Double(number)))
            case .dateTime(let date)? where date.kind != .dateTime: return FHIR.Value(date.kind == .date ? .date : .time, .string(date.description))
            default: return nil
            }
        }
    }

    /// Whether an enableWhenExpression's result enables its item. LHC-Forms takes the first item's JavaScript
    /// truthiness (`!!newVal[0]`, LHNCBC/lforms@24c71875 src/fhir/expression-processor.js:538-551): empty,
    /// false, 0 and '' disable. android-fhir calls HAPI's `convertToBoolean`: one Boolean gives its value,
    /// anything else non-empty enables (hapifhir/org.hl7.fhir.core@6.0.22
    /// org.hl7.fhir.r4/src/main/java/org/hl7/fhir/r4/utils/FHIRPathEngine.java:943-953).
    static func enables(_ result: FHIRPathCollection, engine: FHIREngine) -> Bool {
        switch engine {
        case .lhcForms:
            guard let first = result.first else { return false }
            switch first.systemValue {
            case .boolean(let flag)?: return flag
            case .integer(let number)?: return number != 0
            case .decimal(let number)?: return !number.isZero
            case .string(let text)?: return !text.isEmpty
            default: return true
            }
        case .androidFHIR:
            if result.count == 1, case .boolean(let flag)? = result[0].systemValue { return flag }
            return !result.isEmpty
        }
    }

    /// A stored Coding as LHC-Forms exports it into the response its expressions read: system, code and
    /// display only, plus the option's score as an extension when the option has one
    /// (`_lfItemValueToFhirAnswer`, LHNCBC/lforms@24c71875 src/fhir/STU3R4-common/sdc-export.js:80-100; the
    /// score is read from the option's own extension only, src/fhir/R4R5-common/sdc-import.js:196-203).
    static func lhcCoding(_ value: FHIR.Value, of item: FHIR.Item) -> FHIR.Value {
        guard value.type == .coding, let coding = value.json.objectValue else { return value }
        var written: [String: JSONValue] = [:]
        for key in ["system", "code", "display"] { written[key] = coding[key] }
        if let score = item.options.first(where: { $0.value == value })?.score {
            written["extension"] = [["url": .string(score.url), "valueDecimal": .number(score.value)]]
        }
        return FHIR.Value(.coding, .object(written))
    }
}
