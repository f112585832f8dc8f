/// A strict RFC 8259 parser that keeps the offset of every node and reports errors at a line and column.
/// It fills a flat `JSONDocument`.
///
/// Beyond Foundation's parser it rejects what would otherwise be silently accepted or altered: duplicate
/// keys, invalid UTF-8, a byte-order mark, numbers too large for a double, and nesting deeper than
/// `maximumDepth` (reported, never a stack overflow).
public struct JSONParser {
    public static let defaultMaximumDepth = InputLimits.standard.nestingDepth

    /// The input for the duration of one parse (no reference counting or bounds checks per byte).
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var index: Int
    private var entries: [JSONDocument.Entry] = []
    private var numbers: [Double] = []
    private var strings: [String] = []
    /// The key entries of the objects being parsed, innermost last: one list for the whole parse, so an
    /// object's duplicate check allocates nothing.
    private var openKeys: [Int] = []

    /// The largest file the 32-bit offsets of a document can hold.
    public static let maximumFileSize = Int(Int32.max)

    private struct Failure: Error {
        let offset: Int
        let message: String
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, start: Int, maximumDepth: Int) {
        self.bytes = bytes
        self.index = start
        self.maximumDepth = maximumDepth
    }

    /// Parses a whole file as one JSON document and returns its top-level value.
    public static func parse(_ file: SourceFile, maximumDepth: Int = defaultMaximumDepth) throws(InputError) -> JSONNode {
        if file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw InputError(
                Diagnostic(
                    file: file.path, position: SourcePosition(line: 1, column: 1),
                    message: "the file starts with a UTF-8 byte-order mark; expected JSON text without one (RFC 8259 §8.1)",
                    hint: "save the file as UTF-8 without BOM"))
        }
        guard file.bytes.count <= maximumFileSize else {
            throw InputError(Diagnostic(file: file.path, position: nil, message: "the file is \(file.bytes.count) bytes; expected at most \(maximumFileSize)"))
        }
        let result = file.bytes.withUnsafeBufferPointer { buffer -> Result<JSONDocument, Failure> in
            var parser = JSONParser(bytes: buffer, start: 0, maximumDepth: maximumDepth)
            // Survey files hold a value every ten bytes or so: reserving avoids copying the entries as they grow.
            parser.entries.reserveCapacity(buffer.count / 10 + 16)
            do throws(Failure) {
                parser.skipWhitespace()
                guard parser.index < parser.bytes.count else {
                    throw Failure(offset: 0, message: "the file is empty; expected a JSON value")
                }
                try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.index < parser.bytes.count {
                    throw Failure(offset: parser.index, message: "unexpected \(parser.describeCurrent()) after the JSON value; expected the end of the file")
                }
                return .success(parser.document(of: file))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let document): return document.root
        case .failure(let error):
            throw InputError(Diagnostic(file: file.path, position: file.position(of: error.offset), message: error.message))
        }
    }

    /// Parses one JSON value that starts at `start` inside a larger text (a value on a scenario line).
    /// Returns the value and the offset just after it; errors carry offsets into the file.
    public static func parsePrefix(
        _ file: SourceFile, from start: Int, maximumDepth: Int = defaultMaximumDepth
    ) -> Result<(node: JSONNode, end: Int), PrefixError> {
        guard file.bytes.count <= maximumFileSize else {
            return .failure(PrefixError(offset: start, message: "the text is longer than \(maximumFileSize) bytes"))
        }
        return file.bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, start: start, maximumDepth: maximumDepth)
            do throws(Failure) {
                try parser.parseValue(depth: 0)
                return .success((parser.document(of: file).root, parser.index))
            } catch {
                return .failure(PrefixError(offset: error.offset, message: error.message))
            }
        }
    }

    /// The same, for bytes that are not a file of their own (a line being read).
    public static func parsePrefix(
        _ bytes: [UInt8], from start: Int, maximumDepth: Int = defaultMaximumDepth
    ) -> Result<(node: JSONNode, end: Int), PrefixError> {
        parsePrefix(SourceFile(path: "", bytes: bytes), from: start, maximumDepth: maximumDepth)
    }

    private func document(of file: SourceFile) -> JSONDocument {
        JSONDocument(file: file, entries: entries, numbers: numbers, strings: strings)
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

    private mutating func append(_ kind: JSONDocument.Entry.Kind, at offset: Int, _ first: Int = 0, _ second: Int = 0) {
        entries.append(JSONDocument.Entry(kind: kind, offset: Int32(offset), first: Int32(first), second: Int32(second)))
    }

    private mutating func parseValue(depth: Int) throws(Failure) {
        skipWhitespace()
        guard index < bytes.count else {
            throw Failure(offset: index, message: "unexpected end of input; expected a value (object, array, string, number, true, false or null)")
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try expectLiteral("true"); append(.true, at: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); append(.false, at: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); append(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            numbers.append(try parseNumber())
            append(.number, at: start, numbers.count - 1)
        default:
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(Failure) {
        if depth > maximumDepth {
            throw Failure(offset: index, message: "JSON nested deeper than \(maximumDepth) levels; expected at most \(maximumDepth)")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) {
        try checkDepth(depth)
        let start = index
        let position = entries.count
        append(.object, at: start)
        index += 1
        // The entries of this object's keys, to find duplicates: a scan in small objects, a set in large ones.
        let keysStart = openKeys.count
        defer { openKeys.removeSubrange(keysStart...) }
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            close(position, count: 0)
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a string key in quotes")
            }
            let keyOffset = index
            try parseString()
            let key = entries.count - 1
            let duplicate: Bool
            let keyCount = openKeys.count - keysStart
            if keyCount < 16 {
                duplicate = openKeys[keysStart...].contains { sameText($0, key) }
            } else {
                if seen.isEmpty { seen = Set(openKeys[keysStart...].map(text(of:))) }
                duplicate = !seen.insert(text(of: key)).inserted
            }
            if duplicate {
                throw Failure(offset: keyOffset, message: "duplicate key \(CanonicalJSON.quote(text(of: key))) in this object; expected each key once")
            }
            openKeys.append(key)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected ':' after the key \(CanonicalJSON.quote(text(of: key)))")
            }
            index += 1
            try parseValue(depth: depth)
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
                close(position, count: openKeys.count - keysStart)
                return
            }
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected ',' or '}' after an object member")
        }
    }

    /// Records where a container ends and how many elements or members it has.
    private mutating func close(_ position: Int, count: Int) {
        entries[position].first = Int32(entries.count)
        entries[position].second = Int32(count)
    }

    /// The text of a string entry.
    private func text(of entry: Int) -> String {
        let item = entries[entry]
        if item.kind == .escapedString { return strings[Int(item.first)] }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(item.first)..<Int(item.second)]), as: UTF8.self)
    }

    /// Whether two string entries hold the same text.
    private func sameText(_ left: Int, _ right: Int) -> Bool {
        let a = entries[left]
        let b = entries[right]
        guard a.kind == .string, b.kind == .string else { return text(of: left) == text(of: right) }
        let count = Int(a.second - a.first)
        guard count == Int(b.second - b.first) else { return false }
        for offset in 0..<count where bytes[Int(a.first) + offset] != bytes[Int(b.first) + offset] { return false }
        return true
    }

    private mutating func parseArray(depth: Int) throws(Failure) {
        try checkDepth(depth)
        let position = entries.count
        append(.array, at: index)
        index += 1
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            close(position, count: 0)
            return
        }
        while true {
            try parseValue(depth: depth)
            count += 1
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
                close(position, count: count)
                return
            }
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected ',' or ']' after an array element")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(Failure) {
        let count = literal.utf8.count
        guard index + count <= bytes.count, bytes[index..<(index + count)].elementsEqual(literal.utf8) else {
            throw Failure(offset: index, message: "unexpected \(describeCurrent()); expected a value (did you mean '\(literal)'?)")
        }
        index += count
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
        let digits = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard let value = DecimalNumber.parse(json: digits), value.isFinite else {
            throw Failure(offset: start, message: "the number \(String(decoding: digits, as: UTF8.self)) is too large; expected a number a double can hold (about ±1.8e308)")
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Parses a string and appends its entry: its byte range when it has no escapes (the common case),
    /// else the decoded text in the side table.
    private mutating func parseString() throws(Failure) {
        let start = index
        index += 1
        let contentStart = index
        var ascii = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if !ascii { _ = try text(contentStart, index, ascii: false) }
                append(.string, at: start, contentStart, index)
                index += 1
                return
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
                    strings.append(String(scalars))
                    append(.escapedString, at: start, strings.count - 1)
                    return
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
        SourceFile.firstInvalidUTF8(in: bytes, from: start, to: end)
    }
}
