/// A token of FHIRPath text with its byte range (grammar: FHIRPath N1 `fhirpath.g4`, with the string
/// escapes of later versions: `\"`).
struct FHIRPathToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// A name, or a keyword (`and`, `div`, `true`); `delimited` for one in backticks, never a keyword.
        case identifier(String, delimited: Bool)
        case string(String)
        /// Digits with an optional fraction, as written.
        case number(String)
        /// A date, date-time or time literal, without its `@`.
        case dateTime(String)
        /// `%name`, `%'name'` or %`name`.
        case constant(String)
        /// `$this`, `$index`, `$total`.
        case special(String)
        /// An operator or punctuation: `.`, `(`, `<=`, `!~`…
        case symbol(String)
        case end
    }

    let kind: Kind
    let range: Range<Int>
}

/// Splits an expression into tokens, skipping whitespace and comments.
struct FHIRPathLexer {
    let bytes: [UInt8]
    private var index = 0
    /// Which characters a `%` name may hold without backticks.
    private let constantNames: FHIRPathOptions.ConstantNames

    init(_ text: String, constantNames: FHIRPathOptions.ConstantNames = .grammar) {
        bytes = Array(text.utf8)
        self.constantNames = constantNames
    }

    /// Every token, ending with `.end`.
    static func tokens(of text: String, constantNames: FHIRPathOptions.ConstantNames = .grammar) throws(FHIRPathError) -> [FHIRPathToken] {
        var lexer = FHIRPathLexer(text, constantNames: constantNames)
        var tokens: [FHIRPathToken] = []
        tokens.reserveCapacity(lexer.bytes.count / 3 + 2)
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ message: String, _ start: Int, _ end: Int? = nil) -> FHIRPathError {
        FHIRPathError(.syntax, message, at: start..<max(start + 1, end ?? start + 1))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private func isASCIILetter(_ byte: UInt8) -> Bool { (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
    private func isLetter(_ byte: UInt8) -> Bool { isASCIILetter(byte) || byte == UInt8(ascii: "_") }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func skipTrivia() throws(FHIRPathError) {
        while let byte = peek() {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let next = peek(), next != 0x0A, next != 0x0D { index += 1 }
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                let start = index
                index += 2
                while true {
                    guard let next = peek() else { throw error("a comment that never ends; expected '*/'", start, index) }
                    if next == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                        index += 2
                        break
                    }
                    index += 1
                }
            } else {
                return
            }
        }
    }

    mutating func next() throws(FHIRPathError) -> FHIRPathToken {
        try skipTrivia()
        let start = index
        guard let byte = peek() else { return FHIRPathToken(kind: .end, range: index..<index) }
        func token(_ kind: FHIRPathToken.Kind) -> FHIRPathToken { FHIRPathToken(kind: kind, range: start..<index) }
        if isLetter(byte) {
            while let next = peek(), isLetter(next) || isDigit(next) { index += 1 }
            return token(.identifier(String(decoding: bytes[start..<index], as: UTF8.self), delimited: false))
        }
        if isDigit(byte) {
            while let next = peek(), isDigit(next) { index += 1 }
            if peek() == UInt8(ascii: "."), let after = peek(1), isDigit(after) {
                index += 1
                while let next = peek(), isDigit(next) { index += 1 }
            }
            return token(.number(String(decoding: bytes[start..<index], as: UTF8.self)))
        }
        switch byte {
        case UInt8(ascii: "'"):
            return token(.string(try quoted(UInt8(ascii: "'"), what: "string")))
        case UInt8(ascii: "`"):
            return token(.identifier(try quoted(UInt8(ascii: "`"), what: "delimited identifier"), delimited: true))
        case UInt8(ascii: "@"):
            index += 1
            return token(.dateTime(try dateTimeText(start)))
        case UInt8(ascii: "%"):
            index += 1
            guard let next = peek() else { throw error("'%' at the end; expected a variable name after it", start) }
            if next == UInt8(ascii: "'") { return token(.constant(try quoted(next, what: "string"))) }
            if next == UInt8(ascii: "`") { return token(.constant(try quoted(next, what: "delimited identifier"))) }
            let nameStart = index
            if constantNames == .hapi {
                // HAPI's FHIRLexer takes letters, digits, ':' and '-' after '%', and no '_'.
                while let next = peek(), isASCIILetter(next) || isDigit(next) || next == UInt8(ascii: ":") || next == UInt8(ascii: "-") { index += 1 }
                guard index > nameStart else { throw error("'%' must be followed by a name; found '\(Character(Unicode.Scalar(next)))'", start, index + 1) }
                return token(.constant(String(decoding: bytes[nameStart..<index], as: UTF8.self)))
            }
            guard isLetter(next) else { throw error("'%' must be followed by a name; found '\(Character(Unicode.Scalar(next)))'", start, index + 1) }
            let dashes = constantNames == .dashes
            while let next = peek(), isLetter(next) || isDigit(next) || (dashes && next == UInt8(ascii: "-") && peek(1).map(isLetterOrDigit) == true) {
                index += 1
            }
            return token(.constant(String(decoding: bytes[nameStart..<index], as: UTF8.self)))
        case UInt8(ascii: "$"):
            index += 1
            while let next = peek(), isLetter(next) { index += 1 }
            let name = String(decoding: bytes[start..<index], as: UTF8.self)
            guard ["$this", "$index", "$total"].contains(name) else {
                throw error("unknown special variable '\(name)'; expected $this, $index or $total", start, index)
            }
            return token(.special(name))
        default:
            break
        }
        let twoCharacter = [("<=", UInt8(ascii: "<"), UInt8(ascii: "=")), (">=", UInt8(ascii: ">"), UInt8(ascii: "=")), ("!=", UInt8(ascii: "!"), UInt8(ascii: "=")), ("!~", UInt8(ascii: "!"), UInt8(ascii: "~"))]
        for (symbol, first, second) in twoCharacter where byte == first && peek(1) == second {
            index += 2
            return token(.symbol(symbol))
        }
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: ","), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "&"), UInt8(ascii: "|"),
            UInt8(ascii: "="), UInt8(ascii: "~"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            index += 1
            return token(.symbol(String(Character(Unicode.Scalar(byte)))))
        default:
            break
        }
        let scalar = String(decoding: bytes[start..<min(bytes.count, start + scalarLength(byte))], as: UTF8.self)
        throw error("unexpected character '\(scalar)'", start, start + scalarLength(byte))
    }

    private func isLetterOrDigit(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }

    private func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    }

    /// A quoted string or delimited identifier with its escapes resolved. A `\` before any other character
    /// stands for that character (spec "String": `'\p'` is `'p'`).
    private mutating func quoted(_ quote: UInt8, what: String) throws(FHIRPathError) -> String {
        let start = index
        index += 1
        var result: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw error("a \(what) that never ends; expected a closing \(Character(Unicode.Scalar(quote)))", start, index)
            }
            index += 1
            if byte == quote { break }
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                continue
            }
            guard let escaped = peek() else { continue }
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "u"):
                guard let unit = hex4() else {
                    // Not four hex digits: the `u` stands for itself.
                    result.append(UInt8(ascii: "u"))
                    continue
                }
                var scalar = Unicode.Scalar(unit)
                if (0xD800...0xDBFF).contains(unit), peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") {
                    let save = index
                    index += 2
                    if let low = hex4(), (0xDC00...0xDFFF).contains(low) {
                        scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    } else {
                        index = save
                    }
                }
                guard let scalar else { throw error("an escape '\\u\(String(unit, radix: 16))' that is not a character", index - 6, index) }
                result.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                result.append(escaped)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            value = value * 16 + digit
        }
        index += 4
        return value
    }

    /// The text of a date/time literal after `@`: `T` and a time, or a date with an optional `T`, time and
    /// offset, taken greedily by the grammar's shape (checked for real dates by the parser).
    private mutating func dateTimeText(_ start: Int) throws(FHIRPathError) -> String {
        let textStart = index
        func digits(_ count: Int) -> Bool {
            guard index + count <= bytes.count, bytes[index..<(index + count)].allSatisfy(isDigit) else { return false }
            index += count
            return true
        }
        func time() -> Bool {
            guard digits(2) else { return false }
            if peek() == UInt8(ascii: ":"), index + 2 < bytes.count, isDigit(bytes[index + 1]) {
                index += 1
                guard digits(2) else { return false }
                if peek() == UInt8(ascii: ":"), index + 2 < bytes.count, isDigit(bytes[index + 1]) {
                    index += 1
                    guard digits(2) else { return false }
                    if peek() == UInt8(ascii: "."), let after = peek(1), isDigit(after) {
                        index += 1
                        while let next = peek(), isDigit(next) { index += 1 }
                    }
                }
            }
            return true
        }
        if peek() == UInt8(ascii: "T") {
            index += 1
            guard time() else { throw error("a time literal must have two-digit hours after '@T'", start, index + 1) }
            return String(decoding: bytes[textStart..<index], as: UTF8.self)
        }
        guard digits(4) else { throw error("a date literal must start with a four-digit year after '@'", start, index + 1) }
        if peek() == UInt8(ascii: "-"), let after = peek(1), isDigit(after) {
            index += 1
            guard digits(2) else { throw error("a month must have two digits", start, index + 1) }
            if peek() == UInt8(ascii: "-"), let after = peek(1), isDigit(after) {
                index += 1
                guard digits(2) else { throw error("a day must have two digits", start, index + 1) }
            }
        }
        if peek() == UInt8(ascii: "T") {
            index += 1
            if let next = peek(), isDigit(next) {
                guard time() else { throw error("a time must have two-digit hours", start, index + 1) }
                if peek() == UInt8(ascii: "Z") {
                    index += 1
                } else if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 <= bytes.count,
                    isDigit(bytes[index + 1]), isDigit(bytes[index + 2]), bytes[index + 3] == UInt8(ascii: ":"), isDigit(bytes[index + 4]),
                    isDigit(bytes[index + 5])
                {
                    index += 6
                }
            }
        }
        return String(decoding: bytes[textStart..<index], as: UTF8.self)
    }
}
