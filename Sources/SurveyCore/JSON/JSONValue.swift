/// A JSON value as the harness handles answers, payloads and literals: no source positions, keys unordered
/// (printing always sorts them), and numbers as `Double` (equal values compare equal: `5 == 5.0`).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// Where an object's members are stored: two objects at one address are one object, equal without
    /// comparing a member (a walk answers with the very option objects the survey holds). Nil for other
    /// values.
    public var objectAddress: UInt? {
        guard case .object(let members) = self, MemoryLayout<[String: JSONValue]>.size == MemoryLayout<UInt>.size else { return nil }
        return withUnsafeBytes(of: members) { $0.load(as: UInt.self) }
    }

    /// The kind of value in words, for messages: "a string", "an array".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: CustomStringConvertible {
    /// Compact canonical JSON (sorted keys), as written in scenario files and messages.
    public var description: String { CanonicalJSON.compact(self) }
}
