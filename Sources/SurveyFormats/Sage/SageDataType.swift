import SurveyCore

/// The legacy `type` string of an input field (`RSDFormDataType.init?(rawValue:)`, reference §1.1), and the
/// type names of v3 and successor input items and choice questions.
struct SageDataType {
    enum Kind {
        case base(String)
        case dateRange(String)
        case singleChoice, multipleChoice, multipleComponent
        case measurement(String)
        case postalCode
        case detail
        case custom
    }

    let kind: Kind
    let shape: Sage.ValueShape
    /// `RSDFormDataType.baseType`: what the factory decodes a rule's `matchingAnswer` as. It is not the
    /// answer's type: `bloodPressure` rules are integers, `year` and `duration` keep their own names.
    let ruleBase: String

    static let baseNames = ["boolean", "date", "decimal", "duration", "fraction", "integer", "string", "year", "codable"]

    init(_ raw: String) {
        let parts = raw.split(separator: ".", maxSplits: 1).map(String.init)
        let head = parts.first ?? raw
        let suffix = parts.count > 1 ? parts[1] : nil
        // A choice's base defaults to string; anything unknown is `custom(raw, base)` with base `codable`.
        func base(_ name: String?, default fallback: String) -> Sage.BaseType { SageDataType.answerBase(name ?? fallback) ?? .codable }
        func named(_ name: String?, default fallback: String) -> String {
            name.flatMap { SageDataType.baseNames.contains($0) ? $0 : nil } ?? fallback
        }
        switch head {
        case _ where parts.count == 1 && SageDataType.baseNames.contains(head):
            kind = .base(head)
            shape = Sage.ValueShape(base: base(head, default: head), isArray: false)
            ruleBase = head
        case _ where parts.count == 1 && ["timestamp", "dateOnly", "time"].contains(head):
            kind = .dateRange(head)
            shape = Sage.ValueShape(base: .date, isArray: false)
            ruleBase = "date"
        case "singleChoice":
            kind = .singleChoice
            shape = Sage.ValueShape(base: base(suffix, default: "string"), isArray: false)
            ruleBase = named(suffix, default: "string")
        case "multipleChoice":
            kind = .multipleChoice
            shape = Sage.ValueShape(base: base(suffix, default: "string"), isArray: true)
            ruleBase = named(suffix, default: "string")
        case "multipleComponent":
            kind = .multipleComponent
            shape = Sage.ValueShape(base: .string, isArray: true)
            ruleBase = named(suffix, default: "string")
        case "height", "weight":
            kind = .measurement(head)
            shape = Sage.ValueShape(base: .decimal, isArray: false)
            ruleBase = "decimal"
        case "bloodPressure":
            kind = .measurement(head)
            shape = Sage.ValueShape(base: .string, isArray: false)
            ruleBase = "integer"
        case "postalCode" where parts.count == 1:
            kind = .postalCode
            shape = Sage.ValueShape(base: .string, isArray: false)
            ruleBase = "string"
        case "detail" where suffix != nil:
            kind = .detail
            shape = Sage.ValueShape(base: base(suffix, default: "codable"), isArray: false)
            ruleBase = named(suffix, default: "codable")
        default:
            kind = .custom
            shape = Sage.ValueShape(base: base(suffix, default: "codable"), isArray: false)
            ruleBase = named(suffix, default: "codable")
        }
    }

    var hasChoices: Bool {
        switch kind {
        case .singleChoice, .multipleChoice, .multipleComponent: true
        default: false
        }
    }

    var isComponent: Bool {
        if case .multipleComponent = kind { return true }
        return false
    }

    /// The answer type of a base type name: decimal, fraction and duration are decimal; integer and year
    /// are integer (reference §1.1, "Answer type").
    static func answerBase(_ name: String) -> Sage.BaseType? {
        switch name {
        case "boolean": .boolean
        case "integer", "year": .integer
        case "decimal", "fraction", "duration": .decimal
        case "string": .string
        case "date": .date
        case "codable": .codable
        default: nil
        }
    }

    static let inputItemTypes = [
        "string", "integer", "year", "number", "decimal", "duration", "date", "time", "dateTime", "checkbox", "boolean",
        "height", "weight", "postalCode",
    ]

    /// The answer type of a v3 or successor input item type.
    static func inputItemBase(_ name: String) -> Sage.BaseType? {
        switch name {
        case "string", "postalCode": .string
        case "integer", "year": .integer
        case "number", "decimal", "duration", "height", "weight": .decimal
        case "date", "time", "dateTime": .date
        case "checkbox", "boolean": .boolean
        default: nil
        }
    }

    /// The answer type of a choice question's `baseType`, a JsonModel `JsonType` name.
    static func choiceBase(_ name: String) -> Sage.BaseType? {
        switch name {
        case "boolean": .boolean
        case "integer": .integer
        case "number": .decimal
        case "string": .string
        default: nil
        }
    }

    /// The JSON type name of a value as `JsonElement` decodes it (an integral number is an `integer`).
    static func jsonTypeName(_ cursor: JSONCursor) -> String {
        if cursor.boolValue != nil { return "boolean" }
        if let number = cursor.numberValue { return number == number.rounded() ? "integer" : "number" }
        return cursor.stringValue != nil ? "string" : "object"
    }

    /// The JsonModel answer type a v3 or successor input item writes into its result.
    static func resultType(ofInputItem name: String) -> String {
        switch name {
        case "integer", "year": "integer"
        case "number", "decimal": "number"
        case "date", "dateTime": "date-time"
        case "time": "time"
        case "duration": "duration"
        case "height", "weight": "measurement"
        case "checkbox", "boolean": "boolean"
        default: "string"
        }
    }

    /// What the legacy factory decodes a rule value of this base type as.
    static func describeRuleBase(_ name: String) -> String {
        switch name {
        case "boolean": "a Bool"
        case "string": "a String"
        case "date": "a Date (an ISO 8601 string)"
        case "decimal", "duration": "a Double"
        case "fraction": "an RSDFraction (a number or \"n/d\")"
        case "integer", "year": "an Int"
        default: "nothing (no rules)"
        }
    }

    static func describe(_ base: Sage.BaseType) -> String {
        switch base {
        case .boolean: "true or false"
        case .integer: "a whole number"
        case .decimal: "a number"
        case .string: "a string"
        case .date: "a date string"
        case .codable: "any JSON value"
        }
    }
}
