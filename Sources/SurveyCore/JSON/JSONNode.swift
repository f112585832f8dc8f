import Foundation

/// A parsed JSON document stored flat: one array of entries in document order, each container knowing
/// where its contents end, and strings kept as byte ranges of the source until someone asks for them.
/// One allocation for the whole tree, instead of one per object, array and long string.
public final class JSONDocument: Sendable {
    struct Entry: Sendable {
        enum Kind: UInt8, Sendable {
            case null, `false`, `true`, number, string, escapedString, array, object
        }

        var kind: Kind
        /// Byte offset of the value in the source.
        var offset: Int32
        /// number: index in `numbers`; string: start of its bytes; escaped string: index in `strings`;
        /// container: the index after its last entry.
        var first: Int32
        /// string: end of its bytes; container: its number of elements or members.
        var second: Int32
    }

    public let file: SourceFile
    let entries: [Entry]
    let numbers: [Double]
    /// Strings that had escapes, decoded once.
    let strings: [String]

    init(file: SourceFile, entries: [Entry], numbers: [Double], strings: [String]) {
        self.file = file
        self.entries = entries
        self.numbers = numbers
        self.strings = strings
    }

    /// The top-level value.
    public var root: JSONNode { JSONNode(document: self, index: 0) }
}

/// One value of a parsed document, with the byte offset it starts at, so decoders can say where a problem
/// is. A handle: copying it copies two words.
public struct JSONNode: Sendable {
    public enum Kind: Sendable {
        case null, bool, number, string, array, object
    }

    public let document: JSONDocument
    let index: Int

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    private var entry: JSONDocument.Entry { document.entries[index] }

    /// Byte offset of the node's first character in its source.
    public var offset: Int { Int(entry.offset) }

    public var kind: Kind {
        switch entry.kind {
        case .null: .null
        case .false, .true: .bool
        case .number: .number
        case .string, .escapedString: .string
        case .array: .array
        case .object: .object
        }
    }

    public var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var isNull: Bool { entry.kind == .null }

    public var boolValue: Bool? {
        switch entry.kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    public var numberValue: Double? {
        entry.kind == .number ? document.numbers[Int(entry.first)] : nil
    }

    public var stringValue: String? {
        let entry = entry
        switch entry.kind {
        case .string:
            return document.file.bytes.withUnsafeBufferPointer { bytes in
                String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.first)..<Int(entry.second)]), as: UTF8.self)
            }
        case .escapedString: return document.strings[Int(entry.first)]
        default: return nil
        }
    }

    /// The index after this node and everything inside it.
    private var end: Int {
        switch entry.kind {
        case .array, .object: Int(entry.first)
        default: index + 1
        }
    }

    /// The elements of an array, in order.
    public var elements: [JSONNode]? {
        mapElements { $1 }
    }

    /// The elements of an array transformed in order (with their index), in one list; nil for a non-array.
    func mapElements<Element>(_ transform: (Int, JSONNode) -> Element) -> [Element]? {
        guard entry.kind == .array else { return nil }
        var result: [Element] = []
        result.reserveCapacity(Int(entry.second))
        var child = index + 1
        let stop = end
        while child < stop {
            let node = JSONNode(document: document, index: child)
            result.append(transform(result.count, node))
            child = node.end
        }
        return result
    }

    /// The members of an object, in file order.
    public var members: [JSONMember]? {
        guard entry.kind == .object else { return nil }
        var result: [JSONMember] = []
        result.reserveCapacity(Int(entry.second))
        forEachMember { key, value in
            result.append(JSONMember(key: key.stringValue ?? "", keyOffset: key.offset, value: value))
            return true
        }
        return result
    }

    /// The members of an object whose key starts with `prefix` (`answerCoding`, `valueInteger`…), in file
    /// order. The other keys are compared byte by byte with the file, without making their strings.
    public func members(withKeyPrefix prefix: String) -> [JSONMember]? {
        members(withKeyPrefix: prefix) { key, value in JSONMember(key: key.stringValue ?? "", keyOffset: key.offset, value: value) }
    }

    /// The members whose key starts with `prefix`, each made from its key and value nodes, in file order; nil
    /// for a non-object.
    func members<Element>(withKeyPrefix prefix: String, _ transform: (JSONNode, JSONNode) -> Element) -> [Element]? {
        guard entry.kind == .object else { return nil }
        return Self.withUTF8(of: prefix) { prefix in
            var result: [Element] = []
            forEachMember { key, value in
                if key.startsWith(prefix) { result.append(transform(key, value)) }
                return true
            }
            return result
        }
    }

    /// Calls `body` with a string's UTF-8 bytes: those of a literal in place, others copied.
    private static func withUTF8<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(string.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether `bytes` start with `prefix`, compared in place: a document made from a value (a response read
    /// back) holds every key as a string of its own, and members are looked up by key at every item.
    private static func utf8(_ bytes: UnsafeBufferPointer<UInt8>, hasPrefix prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= prefix.count && (prefix.isEmpty || memcmp(bytes.baseAddress!, prefix.baseAddress!, prefix.count) == 0)
    }

    /// Whether a string node's bytes start with `prefix`.
    private func startsWith(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entry
        switch entry.kind {
        case .string:
            let start = Int(entry.first)
            guard Int(entry.second) - start >= prefix.count else { return false }
            return prefix.isEmpty || document.file.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, prefix.baseAddress!, prefix.count) == 0 }
        case .escapedString:
            return Self.withUTF8(of: document.strings[Int(entry.first)]) { Self.utf8($0, hasPrefix: prefix) }
        default:
            return false
        }
    }

    /// Calls `body` with each member's key and value nodes until it returns false.
    private func forEachMember(_ body: (JSONNode, JSONNode) -> Bool) {
        var child = index + 1
        let stop = end
        while child < stop {
            let key = JSONNode(document: document, index: child)
            let value = JSONNode(document: document, index: child + 1)
            guard body(key, value) else { return }
            child = value.end
        }
    }

    /// The value of the member with this key, for an object.
    public subscript(key: String) -> JSONNode? {
        member(key)?.value
    }

    /// The key and value nodes of the member with this key, for an object. Keys are compared byte by byte
    /// with the file, without making strings.
    public func member(_ key: String) -> (key: JSONNode, value: JSONNode)? {
        guard let found = memberIndex(key) else { return nil }
        return (JSONNode(document: document, index: found), JSONNode(document: document, index: found + 1))
    }

    /// The entry index of the key of the member named `key`, comparing the key's bytes with the file's in
    /// place (the keys decoders ask for are literals, whose bytes come without copying).
    private func memberIndex(_ key: String) -> Int? {
        Self.withUTF8(of: key) { memberIndex(utf8: $0) }
    }

    private func memberIndex(utf8 wanted: UnsafeBufferPointer<UInt8>) -> Int? {
        document.entries.withUnsafeBufferPointer { entries in
            guard entries[index].kind == .object else { return nil }
            let stop = Int(entries[index].first)
            return document.file.bytes.withUnsafeBufferPointer { bytes in
                var child = index + 1
                while child < stop {
                    let name = entries[child]
                    let matches: Bool
                    if name.kind == .string {
                        let start = Int(name.first)
                        let count = Int(name.second) - start
                        // The length and first byte tell most keys apart without a call.
                        matches = count == wanted.count && (count == 0 || bytes[start] == wanted[0] && memcmp(bytes.baseAddress! + start, wanted.baseAddress!, count) == 0)
                    } else {
                        matches = Self.withUTF8(of: document.strings[Int(name.first)]) { $0.count == wanted.count && Self.utf8($0, hasPrefix: wanted) }
                    }
                    if matches { return child }
                    let valueEntry = entries[child + 1]
                    child = valueEntry.kind == .array || valueEntry.kind == .object ? Int(valueEntry.first) : child + 2
                }
                return nil
            }
        }
    }

    /// The value without positions.
    public var plain: JSONValue {
        switch entry.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(numberValue!)
        case .string, .escapedString: return .string(stringValue!)
        case .array: return .array(elements!.map(\.plain))
        case .object:
            var object = [String: JSONValue](minimumCapacity: Int(entry.second))
            forEachMember { key, value in
                object[key.stringValue ?? ""] = value.plain
                return true
            }
            return .object(object)
        }
    }
}

public struct JSONMember: Sendable {
    public let key: String
    public let keyOffset: Int
    public let value: JSONNode
}
