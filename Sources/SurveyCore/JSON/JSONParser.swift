/// A strict RFC 8259 parser that keeps the offset of every node and reports errors at a line and column.
///
/// Beyond Foundation's parser it rejects what would otherwise be silently accepted or altered: duplicate
/// keys, invalid UTF-8, a byte-order mark, numbers too large for a double, and nesting deeper than
/// `maximumDepth` (reported, never a stack overflow).
public struct JSONParser {
    public static let defaultMaximumDepth = 256

    /// The input for the duration of one parse (no reference counting or bounds checks per byte).
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var index: Int

    private struct Failure: Error {
        let offset: Int
        let message: String
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, start: Int, maximumDepth: Int) {
        self.bytes = bytes
        self.index = start
        self.maximumDepth = maximumDepth
    }

    /// Parses a whole file as one JSON document.
    public static func parse(_ file: SourceFile, maximumDepth: Int = defaultMaximumDepth) throws(InputError) -> JSONNode {
        if file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw InputError(
                Diagnostic(
                    file: file.path, position: SourcePosition(line: 1, column: 1),
                    message: "the file starts with a UTF-8 byte-order mark; expected JSON text without one (RFC 8259 §8.1)",
                    hint: "save the file as UTF-8 without BOM"))
        }
        let result = file.bytes.withUnsafeBufferPointer { buffer -> Result<JSONNode, Failure> in
            var parser = JSONParser(bytes: buffer, start: 0, maximumDepth: maximumDepth)
            do throws(Failure) {
                parser.skipWhitespace()
                guard parser.index < parser.bytes.count else {
                    throw Failure(offset: 0, message: "the file is empty; expected a JSON value")
                }
                let node = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.index < parser.bytes.count {
                    throw Failure(offset: parser.index, message: "unexpected \(parser.describeCurrent()) after the JSON value; expected the end of the file")
                }
                return .success(node)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let node): return node
        case .failure(let error):
            throw InputError(Diagnostic(file: file.path, position: file.position(of: error.offset), message: error.message))
        }
    }

    /// Parses one JSON value that starts at `start` inside a larger text (a value on a scenario line).
    /// Returns the value and the offset just after it; errors carry offsets into `bytes`.
    public static func parsePrefix(
        _ bytes: [UInt8], from start: Int, maximumDepth: Int = defaultMaximumDepth
    ) -> Result<(node: JSONNode, end: Int), PrefixError> {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, start: start, maximumDepth: maximumDepth)
            do throws(Failure) {
                let node = try parser.parseValue(depth: 0)
                return .success((node, parser.index))
            } catch {
                return .failure(PrefixError(offset: error.offset, message: error.message))
            }
        }
    }

    public struct PrefixError: Error, Sendable {
        public let offset: Int
        public let message: String
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONNode {
        skipWhitespace()
        guard index < bytes.count else {
            throw Failure(offset: index, message: "unexpected end of input; expected a value (object, array, string, number, true, false or null)")
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(.number(try parseNumber()), offset: start)
        default:
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(Failure) {
        if depth > maximumDepth {
            throw Failure(offset: index, message: "JSON nested deeper than \(maximumDepth) levels; expected at most \(maximumDepth)")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONNode {
        try checkDepth(depth)
        let start = index
        index += 1
        var members: [JSONMember] = []
        members.reserveCapacity(8)
        // Duplicate keys: a scan in small objects (most of them), a set in large ones.
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONNode(.object(members), offset: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a string key in quotes")
            }
            let keyOffset = index
            let key = try parseString()
            let duplicate: Bool
            if members.count < 16 {
                duplicate = members.contains { $0.key == key }
            } else {
                if seen.isEmpty { seen = Set(members.map(\.key)) }
                duplicate = !seen.insert(key).inserted
            }
            if duplicate {
                throw Failure(offset: keyOffset, message: "duplicate key \(CanonicalJSON.quote(key)) in this object; expected each key once")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected ':' after the key \(CanonicalJSON.quote(key))")
            }
            index += 1
            let value = try parseValue(depth: depth)
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < bytes.count else {
                throw Failure(offset: index, message: "unexpected end of input; expected ',' or '}' to continue the object that starts at offset \(start)")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONNode(.object(members), offset: start)
            }
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected ',' or '}' after an object member")
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONNode {
        try checkDepth(depth)
        let start = index
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONNode(.array(elements), offset: start)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else {
                throw Failure(offset: index, message: "unexpected end of input; expected ',' or ']' to continue the array")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONNode(.array(elements), offset: start)
            }
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected ',' or ']' after an array element")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(Failure) {
        let expected = Array(literal.utf8)
        guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a value (did you mean '\(literal)'?)")
        }
        index += expected.count
    }

    private mutating func parseNumber() throws(Failure) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a digit in the number")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw Failure(offset: start, message: "a number with a leading zero; expected no leading zeros (JSON has no octal)")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a digit after the decimal point")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a digit in the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Failure(offset: start, message: "the number \(text) is too large; expected a number a double can hold (about ±1.8e308)")
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func parseString() throws(Failure) -> String {
        let start = index
        index += 1
        let contentStart = index
        var ascii = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = try text(contentStart, index, ascii: ascii)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw Failure(offset: index, message: "a control character (0x\(String(byte, radix: 16))) inside a string; expected it escaped (e.g. \\n)")
            }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        guard index < bytes.count else {
            throw Failure(offset: start, message: "a string that never ends; expected a closing '\"'")
        }
        // Slow path: escapes.
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: try text(contentStart, index, ascii: ascii).unicodeScalars)
        var runStart = index
        ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if runStart < index {
                    scalars.append(contentsOf: try text(runStart, index, ascii: ascii).unicodeScalars)
                }
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(scalars)
                }
                scalars.append(try parseEscape())
                runStart = index
                ascii = true
                continue
            }
            if byte < 0x20 {
                throw Failure(offset: index, message: "a control character (0x\(String(byte, radix: 16))) inside a string; expected it escaped (e.g. \\n)")
            }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw Failure(offset: start, message: "a string that never ends; expected a closing '\"'")
    }

    /// The bytes `start..<end` as a string: copied directly when ASCII, validated as UTF-8 otherwise.
    private func text(_ start: Int, _ end: Int, ascii: Bool) throws(Failure) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if ascii { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw Failure(offset: firstInvalidUTF8(from: start, to: end), message: "invalid UTF-8 in a string; expected UTF-8 text")
        }
        return string
    }

    private mutating func parseEscape() throws(Failure) -> Unicode.Scalar {
        let escapeStart = index
        index += 1
        guard index < bytes.count else {
            throw Failure(offset: escapeStart, message: "a string that never ends; expected a closing '\"'")
        }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(first) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw Failure(offset: escapeStart, message: "a lone high surrogate \\u\(String(first, radix: 16)); expected a low surrogate \\uDC00-\\uDFFF after it")
                }
                index += 2
                let second = try parseHex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw Failure(offset: escapeStart, message: "an invalid surrogate pair; expected \\uDC00-\\uDFFF after a high surrogate")
                }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw Failure(offset: escapeStart, message: "a lone low surrogate \\u\(String(first, radix: 16)); expected a valid Unicode scalar")
            }
            return scalar
        default:
            throw Failure(offset: escapeStart, message: "an unknown escape '\\\(Character(Unicode.Scalar(byte)))'; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw Failure(offset: escapeStart, message: "a \\u escape cut short; expected four hex digits")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw Failure(offset: escapeStart, message: "a \\u escape with a non-hex digit; expected four hex digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private func firstInvalidUTF8(from start: Int, to end: Int) -> Int {
        var offset = start
        while offset < end {
            var length = 1
            while offset + length <= end, length <= 4 {
                if String(validating: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self) != nil { break }
                length += 1
            }
            if length > 4 || offset + length > end { return offset }
            offset += length
        }
        return start
    }
}
