/// The bytes of one input file (a survey, a scenario, a golden) with a line index, so that any byte
/// offset can be turned into the `line:column` a person sees in an editor. A class, because cursors over
/// a file's JSON all refer to it: one reference to count rather than four.
public final class SourceFile: Sendable {
    /// The path as it should be shown in messages (relative where the caller knows how).
    public let path: String
    public let bytes: [UInt8]
    /// Byte offset at which each line starts; `lineStarts[0] == 0`.
    private let lineStarts: [Int]
    /// Whether each line holds only ASCII, so its columns are byte counts (the common case, O(1)).
    private let lineIsASCII: [Bool]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        var starts = [0]
        var ascii = [true]
        bytes.withUnsafeBufferPointer { buffer in
            var lineASCII = true
            for offset in buffer.indices {
                let byte = buffer[offset]
                if byte == UInt8(ascii: "\n") {
                    ascii[ascii.count - 1] = lineASCII
                    starts.append(offset + 1)
                    ascii.append(true)
                    lineASCII = true
                } else if byte >= 0x80 {
                    lineASCII = false
                }
            }
            ascii[ascii.count - 1] = lineASCII
        }
        lineStarts = starts
        lineIsASCII = ascii
    }

    public convenience init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The 1-based line and column of a byte offset. Columns count characters (UTF-8 sequences), not bytes.
    public func position(of offset: Int) -> SourcePosition {
        let clamped = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= clamped { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        if lineIsASCII[low] {
            return SourcePosition(line: low + 1, column: clamped - start + 1)
        }
        var column = 1
        var index = start
        while index < clamped {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        // Count the sequence the offset is in as one character; a stray continuation byte at the start of a
        // line is a character of its own.
        if clamped < bytes.count, bytes[clamped] & 0xC0 == 0x80, column > 1 { column -= 1 }
        return SourcePosition(line: low + 1, column: column)
    }

    /// The number of lines (a final line break starts an empty last line).
    public var lineCount: Int { lineStarts.count }

    /// The byte offset at which a 1-based line starts.
    public func offset(ofLine number: Int) -> Int {
        lineStarts[max(0, min(number, lineStarts.count) - 1)]
    }

    /// The text of a 1-based line, without its line break.
    public func line(_ number: Int) -> String {
        guard number >= 1, number <= lineStarts.count else { return "" }
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }
}

extension SourceFile {
    /// The offset, from the start of `bytes`, of the first byte that is not valid UTF-8, or nil when all
    /// is UTF-8: line readers (scenarios, properties) report it where it is, rather than read a replacement
    /// character into an id.
    public static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            String(validating: buffer, as: UTF8.self) != nil ? nil : firstInvalidUTF8(in: buffer, from: 0, to: buffer.count)
        }
    }

    /// The offset in `start..<end` of the first byte that begins no valid UTF-8 sequence (`start` when all do).
    static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
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

/// A 1-based line and column in a source file.
public struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
