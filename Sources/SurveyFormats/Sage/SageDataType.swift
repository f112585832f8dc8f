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

    static let baseNames = ["boolean", "date", "decimal", "duration", "fraction", "integer", "string", "year", "codable"]

    init(_ raw: String) {
        let parts = raw.split(separator: ".", maxSplits: 1).map(String.init)
        let head = parts.first ?? raw
        let suffix = parts.count > 1 ? parts[1] : nil
        // A choice's base defaults to string; anything unknown is `custom(raw, base)` with base `codable`.
        func base(_ name: String?, default fallback: String) -> Sage.BaseType { SageDataType.answerBase(name ?? fallback) ?? .codable }
        switch head {
        case _ where parts.count == 1 && SageDataType.baseNames.contains(head):
            kind = .base(head)
            shape = Sage.ValueShape(base: base(head, default: head), isArray: false)
        case _ where parts.count == 1 && ["timestamp", "dateOnly", "time"].contains(head):
            kind = .dateRange(head)
            shape = Sage.ValueShape(base: .date, isArray: false)
        case "singleChoice":
            kind = .singleChoice
            shape = Sage.ValueShape(base: base(suffix, default: "string"), isArray: false)
        case "multipleChoice":
            kind = .multipleChoice
            shape = Sage.ValueShape(base: base(suffix, default: "string"), isArray: true)
        case "multipleComponent":
            kind = .multipleComponent
            shape = Sage.ValueShape(base: .string, isArray: true)
        case "height", "weight":
            kind = .measurement(head)
            shape = Sage.ValueShape(base: .decimal, isArray: false)
        case "bloodPressure":
            kind = .measurement(head)
            shape = Sage.ValueShape(base: .string, isArray: false)
        case "postalCode" where parts.count == 1:
            kind = .postalCode
            shape = Sage.ValueShape(base: .string, isArray: false)
        case "detail" where suffix != nil:
            kind = .detail
            shape = Sage.ValueShape(base: base(suffix, default: "codable"), isArray: false)
        default:
            kind = .custom
            shape = Sage.ValueShape(base: base(suffix, default: "codable"), isArray: false)
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

    /// The answer type of a choice question's `baseType`.
    static func choiceBase(_ name: String) -> Sage.BaseType? {
        switch name {
        case "boolean": .boolean
        case "integer": .integer
        case "number", "decimal": .decimal
        case "string": .string
        default: nil
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
