import SurveyCore

/// Where an expression's text comes from, so an error inside it is reported at the line and column of
/// the offending character: in a JSON file (the expression is a JSON string there, whose escapes `\"`,
/// `\n`, `\u00e9` make the file's text longer than the expression's), or on its own (a command line).
public struct FHIRPathSource: Sendable {
    /// The expression.
    public let text: String
    /// The file and the offset of the JSON string's opening quote, for an expression read from a file.
    public let file: SourceFile?
    let stringOffset: Int?

    /// An expression given on its own (columns count its characters from 1).
    public init(text: String) {
        self.text = text
        self.file = nil
        self.stringOffset = nil
    }

    /// The expression a JSON string node of a file holds; nil when the node is not a string.
    public init?(jsonString node: JSONNode) {
        guard let text = node.stringValue else { return nil }
        self.text = text
        self.file = node.document.file
        self.stringOffset = node.offset
    }

    /// The byte offset in the file of the expression's byte `offset`, walking the JSON string's escapes.
    func fileOffset(ofExpressionOffset offset: Int) -> Int? {
        guard let file, let start = stringOffset else { return nil }
        let bytes = file.bytes
        var fileIndex = start + 1
        var decoded = 0
        while decoded < offset, fileIndex < bytes.count, bytes[fileIndex] != UInt8(ascii: "\"") {
            if bytes[fileIndex] == UInt8(ascii: "\\"), fileIndex + 1 < bytes.count {
                if bytes[fileIndex + 1] == UInt8(ascii: "u"), fileIndex + 5 < bytes.count,
                    let unit = UInt32(String(decoding: bytes[(fileIndex + 2)...(fileIndex + 5)], as: UTF8.self), radix: 16)
                {
                    // A surrogate pair is two escapes making one four-byte character.
                    if (0xD800...0xDBFF).contains(unit), fileIndex + 11 < bytes.count, bytes[fileIndex + 6] == UInt8(ascii: "\\") {
                        fileIndex += 12
                        decoded += 4
                    } else {
                        fileIndex += 6
                        decoded += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
                    }
                } else {
                    fileIndex += 2
                    decoded += 1
                }
            } else {
                fileIndex += 1
                decoded += 1
            }
        }
        return fileIndex
    }

    /// The file position (or, on its own, line 1 and the character column) of an expression offset.
    public func position(ofExpressionOffset offset: Int) -> SourcePosition {
        if let file, let fileOffset = fileOffset(ofExpressionOffset: offset) {
            return file.position(of: fileOffset)
        }
        let prefix = text.utf8.prefix(max(0, offset))
        var line = 1
        var column = 1
        for scalar in String(decoding: prefix, as: UTF8.self).unicodeScalars {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }

    /// The error as a located finding: `file:line:col: error: FHIRPath syntax error: …`.
    public func diagnostic(for error: FHIRPathError, pointer: String? = nil) -> Diagnostic {
        let position = position(ofExpressionOffset: error.range?.lowerBound ?? 0)
        return Diagnostic(file: file?.path ?? "<expression>", position: position, pointer: pointer, message: "FHIRPath \(error.kind.rawValue) error: \(error.message)")
    }
}
