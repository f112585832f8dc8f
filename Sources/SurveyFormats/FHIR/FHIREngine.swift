import SurveyCore

/// The R4 renderers the `r4` profile simulates. Where LHC-Forms and android-fhir read a file or compare values
/// differently, `option engine` picks whose reading applies (docs/fhir.md, "Engines"); LHC-Forms by default.
public enum FHIREngine: String, Sendable, CaseIterable {
    case lhcForms = "lhc-forms"
    case androidFHIR = "android-fhir"

    /// The engine as messages name it.
    public var name: String {
        switch self {
        case .lhcForms: "LHC-Forms"
        case .androidFHIR: "android-fhir"
        }
    }

    /// The engine a session's settings choose (LHC-Forms unless `option engine android-fhir`).
    static func of(_ settings: SessionSettings) -> FHIREngine {
        settings.options[FHIRSurvey.engineOption].flatMap(FHIREngine.init(rawValue:)) ?? .lhcForms
    }
}

/// How each engine reads a JSON value that does not have the JSON type R4 gives its element: LHC-Forms works
/// on the parsed JSON as JavaScript values, android-fhir parses the value's text with HAPI's lenient parser,
/// which throws on text its type cannot parse.
enum FHIRLenientReading {
    /// JavaScript truthiness, as `if (qItem.repeats)` reads a flag (LHNCBC/lforms@24c71875
    /// src/fhir/R4R5-common/sdc-import.js:234-290, 300, 319): a non-empty string is true, even "false".
    static func truthy(_ json: JSONValue) -> Bool {
        switch json {
        case .null: false
        case .bool(let flag): flag
        case .number(let number): number != 0 && !number.isNaN
        case .string(let text): !text.isEmpty
        case .array, .object: true
        }
    }

    /// What HAPI's parser makes of a primitive: a value, nothing (a blank text or null is logged and left
    /// unset), or a refusal (the parser throws, so android-fhir never renders the file).
    enum HAPIReading: Equatable {
        case value(JSONValue)
        case unset
        case refused
    }

    /// A boolean as HAPI reads it: the scalar's text, trimmed, must be "true" or "false"
    /// (hapifhir/org.hl7.fhir.core@fb112b20 org.hl7.fhir.r4/src/main/java/org/hl7/fhir/r4/model/BooleanType.java:95-104).
    /// The parser hands every scalar's text to ParserState's PrimitiveState.attributeValue, which passes a
    /// parse failure to LenientErrorHandler.invalidValue; that throws unless the text is blank
    /// (hapifhir/hapi-fhir@6a4b74c5 hapi-fhir-base/.../parser/JsonParser.java, parseChildren's scalar branch;
    /// hapifhir/hapi-fhir@0bbedb8f hapi-fhir-base/.../parser/LenientErrorHandler.java, invalidValue).
    static func hapiBoolean(_ json: JSONValue) -> HAPIReading {
        if json == .null { return .unset }
        guard let text = hapiText(json) else { return .refused }
        let trimmed = javaTrimmed(text)
        if trimmed.isEmpty { return .unset }
        if trimmed == "true" { return .value(true) }
        if trimmed == "false" { return .value(false) }
        return .refused
    }

    /// Java's `String.trim`: every character up to the space removed at both ends.
    private static func javaTrimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }), let last = scalars.lastIndex(where: { $0.value > 0x20 }) else { return "" }
        return String(scalars[first...last])
    }

    /// A scalar's text as HAPI's JSON parser passes it on (`getAsString`): a string as is, a number or a
    /// boolean as written; nil for null, arrays and objects.
    static func hapiText(_ json: JSONValue) -> String? {
        switch json {
        case .string(let text): text
        case .number: CanonicalJSON.compact(json)
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// A primitive enableWhen value of the given type as HAPI parses the text of whatever JSON it is written
    /// as, or nil when the parser throws (IntegerType.parse: Integer.parseInt, so "2022-09" and 2.5 throw:
    /// hapifhir/org.hl7.fhir.core@6b16610a org.hl7.fhir.r4/src/main/java/org/hl7/fhir/r4/model/IntegerType.java:88-95).
    static func hapiValue(_ json: JSONValue, as type: FHIR.ValueType) -> JSONValue? {
        switch type {
        case .boolean:
            guard case .value(let flag) = hapiBoolean(json) else { return nil }
            return flag
        case .integer:
            guard let text = hapiText(json), let number = Int32(text) else { return nil }
            return .number(Double(number))
        case .decimal:
            guard let text = hapiText(json), let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        case .string, .uri:
            guard let text = hapiText(json), !text.isEmpty else { return nil }
            return .string(text)
        case .date, .dateTime, .time:
            guard let text = hapiText(json), FHIRValues.problem(.string(text), as: type) == nil else { return nil }
            return .string(text)
        case .coding, .quantity, .reference, .attachment:
            return FHIRValues.problem(json, as: type) == nil ? json : nil
        }
    }

    /// What a JSON value is, for messages: `the string "false"`, `the number 2.5`.
    static func describe(_ json: JSONValue) -> String {
        switch json {
        case .string: "the string \(CanonicalJSON.compact(json))"
        case .number: "the number \(CanonicalJSON.compact(json))"
        case .bool: "the boolean \(CanonicalJSON.compact(json))"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
