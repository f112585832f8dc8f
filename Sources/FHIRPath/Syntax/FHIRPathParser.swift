/// A precedence-climbing parser of FHIRPath (grammar N1 `fhirpath.g4`): postfix `.` and `[]` bind
/// tightest, then unary `+`/`-`, then the binary operators by the spec's precedence table, all left
/// associative. Nesting is bounded so a hostile expression cannot overflow the stack.
struct FHIRPathParser {
    private let tokens: [FHIRPathToken]
    private var position = 0
    private var depth = 0
    static let maximumDepth = 200

    /// Keywords that cannot name an element unless delimited (`as`, `contains`, `in` and `is` can: the
    /// grammar accepts them as identifiers, as in `.contains('x')` and `is(Quantity)`).
    private static func isReserved(_ name: String) -> Bool {
        switch name {
        case "and", "or", "xor", "implies", "div", "mod", "true", "false": true
        default: false
        }
    }
    private static let calendarUnits: Set<String> = [
        "year", "years", "month", "months", "week", "weeks", "day", "days", "hour", "hours", "minute", "minutes", "second", "seconds",
        "millisecond", "milliseconds",
    ]

    private init(tokens: [FHIRPathToken]) {
        self.tokens = tokens
    }

    static func parse(_ text: String, constantNames: FHIRPathOptions.ConstantNames = .grammar) throws(FHIRPathError) -> FHIRPathSyntax {
        let tokens = try FHIRPathLexer.tokens(of: text, constantNames: constantNames)
        var parser = FHIRPathParser(tokens: tokens)
        if tokens.count == 1 { throw FHIRPathError(.syntax, "the expression is empty", at: 0..<0) }
        let expression = try parser.expression(minimumPrecedence: 0)
        let rest = parser.current
        if rest.kind != .end {
            throw FHIRPathError(.syntax, "unexpected \(describe(rest)) after a complete expression; expected an operator or the end", at: rest.range)
        }
        return expression
    }

    private var current: FHIRPathToken { tokens[position] }

    private mutating func advance() -> FHIRPathToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private static func describe(_ token: FHIRPathToken) -> String {
        switch token.kind {
        case .identifier(let name, _): "'\(name)'"
        case .string(let text): "the string '\(text)'"
        case .number(let text): "the number \(text)"
        case .dateTime(let text): "'@\(text)'"
        case .constant(let name): "'%\(name)'"
        case .special(let name): "'\(name)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the expression"
        }
    }

    private func unexpected(_ expected: String) -> FHIRPathError {
        FHIRPathError(.syntax, "unexpected \(Self.describe(current)); expected \(expected)", at: current.range)
    }

    private mutating func expect(symbol: String, _ what: String) throws(FHIRPathError) -> FHIRPathToken {
        guard current.kind == .symbol(symbol) else { throw unexpected(what) }
        return advance()
    }

    /// The binary operator at the current token, if any.
    private var binaryOperator: FHIRPathSyntax.BinaryOperator? {
        switch current.kind {
        case .symbol(let symbol):
            switch symbol {
            case "*": .multiply
            case "/": .divide
            case "+": .add
            case "-": .subtract
            case "&": .concatenate
            case "|": .union
            case "<": .less
            case ">": .greater
            case "<=": .lessOrEqual
            case ">=": .greaterOrEqual
            case "=": .equal
            case "~": .equivalent
            case "!=": .notEqual
            case "!~": .notEquivalent
            default: nil
            }
        case .identifier(let name, delimited: false):
            switch name {
            case "div": .div
            case "mod": .mod
            case "in": .in
            case "contains": .contains
            case "and": .and
            case "or": .or
            case "xor": .xor
            case "implies": .implies
            default: nil
            }
        default: nil
        }
    }

    private mutating func expression(minimumPrecedence: Int) throws(FHIRPathError) -> FHIRPathSyntax {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw FHIRPathError(.syntax, "the expression nests deeper than \(Self.maximumDepth) levels", at: current.range)
        }
        var left = try unary()
        while true {
            // `is` and `as` (precedence 8) take a type, not an expression.
            if case .identifier(let word, delimited: false) = current.kind, word == "is" || word == "as", minimumPrecedence <= 8 {
                _ = advance()
                let type = try typeSpecifier()
                left = FHIRPathSyntax(.typeTest(isAs: word == "as", left, type), left.range.lowerBound..<type.range.upperBound)
                continue
            }
            guard let op = binaryOperator, op.precedence >= minimumPrecedence else { return left }
            let operatorToken = advance()
            if current.kind == .end { throw FHIRPathError(.syntax, "'\(op.rawValue)' at the end; expected an expression after it", at: operatorToken.range) }
            let right = try expression(minimumPrecedence: op.precedence + 1)
            left = FHIRPathSyntax(.binary(op, left, right), left.range.lowerBound..<right.range.upperBound, nameRange: operatorToken.range)
            guard left.depth <= Self.maximumDepth else {
                throw FHIRPathError(.syntax, "the expression nests deeper than \(Self.maximumDepth) levels", at: operatorToken.range)
            }
        }
    }

    private mutating func unary() throws(FHIRPathError) -> FHIRPathSyntax {
        if case .symbol(let sign) = current.kind, sign == "+" || sign == "-" {
            let token = advance()
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw FHIRPathError(.syntax, "the expression nests deeper than \(Self.maximumDepth) levels", at: token.range) }
            let operand = try unary()
            return FHIRPathSyntax(.polarity(negative: sign == "-", operand), token.range.lowerBound..<operand.range.upperBound, nameRange: token.range)
        }
        return try postfix(try term())
    }

    /// `.member`, `.function(…)` and `[index]` after a term.
    private mutating func postfix(_ start: FHIRPathSyntax) throws(FHIRPathError) -> FHIRPathSyntax {
        var node = start
        while true {
            guard node.depth <= Self.maximumDepth else {
                throw FHIRPathError(.syntax, "the expression nests deeper than \(Self.maximumDepth) levels", at: node.range)
            }
            if current.kind == .symbol(".") {
                _ = advance()
                node = try invocation(target: node)
            } else if current.kind == .symbol("[") {
                _ = advance()
                let index = try expression(minimumPrecedence: 0)
                let close = try expect(symbol: "]", "']' to close the indexer")
                node = FHIRPathSyntax(.indexer(node, index), node.range.lowerBound..<close.range.upperBound)
            } else {
                return node
            }
        }
    }

    /// A name, function call, or special variable after `.` (or at the start of a term).
    private mutating func invocation(target: FHIRPathSyntax?) throws(FHIRPathError) -> FHIRPathSyntax {
        let token = current
        let start = target?.range.lowerBound ?? token.range.lowerBound
        switch token.kind {
        case .identifier(let name, let delimited):
            if !delimited, Self.isReserved(name), tokens[position + 1].kind != .symbol("(") {
                throw unexpected("a name")
            }
            _ = advance()
            if current.kind == .symbol("(") {
                _ = advance()
                var arguments: [FHIRPathSyntax] = []
                if current.kind != .symbol(")") {
                    while true {
                        var argument = try expression(minimumPrecedence: 0)
                        // sort(key asc, key desc): a descending key is kept as `-key`, the suite's older form.
                        if name == "sort", case .identifier(let direction, delimited: false) = current.kind, direction == "asc" || direction == "desc" {
                            let token = advance()
                            if direction == "desc" {
                                argument = FHIRPathSyntax(.polarity(negative: true, argument), argument.range.lowerBound..<token.range.upperBound, nameRange: token.range)
                            }
                        }
                        arguments.append(argument)
                        if current.kind == .symbol(",") {
                            _ = advance()
                            continue
                        }
                        break
                    }
                }
                let close = try expect(symbol: ")", "',' or ')' in the arguments of '\(name)'")
                return FHIRPathSyntax(.function(target, name, arguments), start..<close.range.upperBound, nameRange: token.range)
            }
            if let target {
                return FHIRPathSyntax(.member(target, name), start..<token.range.upperBound, nameRange: token.range)
            }
            return FHIRPathSyntax(.identifier(name), token.range, nameRange: token.range)
        default:
            throw unexpected("a name or function after '.'")
        }
    }

    private mutating func term() throws(FHIRPathError) -> FHIRPathSyntax {
        let token = current
        switch token.kind {
        case .identifier(let name, delimited: false) where name == "true" || name == "false":
            _ = advance()
            return FHIRPathSyntax(.literal(.boolean(name == "true")), token.range)
        case .identifier:
            return try invocation(target: nil)
        case .string(let text):
            _ = advance()
            return FHIRPathSyntax(.literal(.string(text)), token.range)
        case .number(let text):
            _ = advance()
            return try numberOrQuantity(text, token)
        case .dateTime(let text):
            _ = advance()
            guard let value = FHIRPathDateTime(literal: Substring(text)) else {
                throw FHIRPathError(.syntax, "'@\(text)' is not a valid date, date-time or time", at: token.range)
            }
            return FHIRPathSyntax(.literal(.dateTime(value)), token.range)
        case .constant(let name):
            _ = advance()
            return FHIRPathSyntax(.constant(name), token.range, nameRange: token.range)
        case .special(let name):
            _ = advance()
            return FHIRPathSyntax(name == "$this" ? .this : name == "$index" ? .index : .total, token.range)
        case .symbol("("):
            _ = advance()
            let inner = try expression(minimumPrecedence: 0)
            let close = try expect(symbol: ")", "')'")
            return FHIRPathSyntax(.parenthesized(inner), token.range.lowerBound..<close.range.upperBound)
        case .symbol("{"):
            _ = advance()
            let close = try expect(symbol: "}", "'}' (only the empty collection '{}' can be written)")
            return FHIRPathSyntax(.literal(.empty), token.range.lowerBound..<close.range.upperBound)
        case .end:
            throw unexpected("an expression")
        default:
            throw unexpected("a name, literal, '(' or function")
        }
    }

    /// A number, and a quantity when a unit string or calendar keyword follows it.
    private mutating func numberOrQuantity(_ text: String, _ token: FHIRPathToken) throws(FHIRPathError) -> FHIRPathSyntax {
        let number: FHIRPathSyntax.Literal
        if text.utf8.contains(UInt8(ascii: ".")) {
            guard let decimal = FHIRPathDecimal(text) else { throw FHIRPathError(.syntax, "the number \(text) has too many digits", at: token.range) }
            number = .decimal(decimal)
        } else if let integer = Int(text), integer <= Int(Int32.max) {
            number = .integer(integer)
        } else {
            throw FHIRPathError(.syntax, "the integer \(text) is larger than 2147483647", at: token.range)
        }
        func decimalValue() -> FHIRPathDecimal {
            switch number {
            case .decimal(let value): value
            case .integer(let value): FHIRPathDecimal(value)
            default: .zero
            }
        }
        switch current.kind {
        case .string(let unit):
            let unitToken = advance()
            return FHIRPathSyntax(.literal(.quantity(FHIRPathQuantity(value: decimalValue(), unit: unit))), token.range.lowerBound..<unitToken.range.upperBound)
        case .identifier(let word, delimited: false) where Self.calendarUnits.contains(word):
            let unitToken = advance()
            return FHIRPathSyntax(.literal(.quantity(FHIRPathQuantity(value: decimalValue(), unit: word))), token.range.lowerBound..<unitToken.range.upperBound)
        default:
            return FHIRPathSyntax(.literal(number), token.range)
        }
    }

    /// `Name` or `Namespace.Name` (names may be delimited: FHIR.`Patient`).
    private mutating func typeSpecifier() throws(FHIRPathError) -> FHIRPathSyntax.TypeSpecifier {
        guard case .identifier(let first, _) = current.kind else { throw unexpected("a type name after 'is' or 'as'") }
        let start = advance().range
        if current.kind == .symbol("."), case .identifier(let second, _) = tokens[position + 1].kind {
            _ = advance()
            let end = advance().range
            return .init(namespace: first, name: second, range: start.lowerBound..<end.upperBound)
        }
        return .init(namespace: nil, name: first, range: start)
    }
}
