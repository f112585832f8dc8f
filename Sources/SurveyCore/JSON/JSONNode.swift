/// A JSON value as parsed from a file: members in file order and every node with the byte offset it starts
/// at, so that decoders can say where in the file a problem is.
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    public let value: Value
    /// Byte offset of the node's first character in its `SourceFile`.
    public let offset: Int

    public init(_ value: Value, offset: Int) {
        self.value = value
        self.offset = offset
    }

    /// The value without positions.
    public var plain: JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(\.plain))
        case .object(let members):
            .object(Dictionary(members.map { ($0.key, $0.value.plain) }, uniquingKeysWith: { _, last in last }))
        }
    }

    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member with this key, for an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }
}

public struct JSONMember: Sendable {
    public let key: String
    public let keyOffset: Int
    public let value: JSONNode

    public init(key: String, keyOffset: Int, value: JSONNode) {
        self.key = key
        self.keyOffset = keyOffset
        self.value = value
    }
}
