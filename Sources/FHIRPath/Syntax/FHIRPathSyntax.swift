/// The syntax tree of an expression, each node with the byte range of its text.
public final class FHIRPathSyntax: Sendable {
    public enum Literal: Sendable, Equatable {
        /// `{}`
        case empty
        case boolean(Bool)
        case string(String)
        case integer(Int)
        case decimal(FHIRPathDecimal)
        case dateTime(FHIRPathDateTime)
        case quantity(FHIRPathQuantity)
    }

    public enum BinaryOperator: String, Sendable, CaseIterable {
        case multiply = "*", divide = "/", div, mod
        case add = "+", subtract = "-", concatenate = "&"
        case union = "|"
        case less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
        case equal = "=", equivalent = "~", notEqual = "!=", notEquivalent = "!~"
        case `in`, contains
        case and
        case or, xor
        case implies

        /// Higher binds tighter (spec "Operator precedence", #04 to #13).
        var precedence: Int {
            switch self {
            case .multiply, .divide, .div, .mod: 10
            case .add, .subtract, .concatenate: 9
            case .union: 7
            case .less, .greater, .lessOrEqual, .greaterOrEqual: 6
            case .equal, .equivalent, .notEqual, .notEquivalent: 5
            case .in, .contains: 4
            case .and: 3
            case .or, .xor: 2
            case .implies: 1
            }
        }
    }

    /// A type name as written: `Quantity`, `FHIR.Patient`, `System.Integer`.
    public struct TypeSpecifier: Sendable, Equatable, CustomStringConvertible {
        public let namespace: String?
        public let name: String
        public let range: Range<Int>

        public var description: String { namespace.map { "\($0).\(name)" } ?? name }
    }

    public enum Kind: Sendable {
        case literal(Literal)
        /// A name at the start of a path or inside a function's argument: a member of `$this` (or, first in
        /// the expression, possibly the context's type name).
        case identifier(String)
        /// `%name`
        case constant(String)
        case this, index, total
        /// `target.name`
        case member(FHIRPathSyntax, String)
        /// `target.name(arguments)`, or `name(arguments)` without a target (on `$this`).
        case function(FHIRPathSyntax?, String, [FHIRPathSyntax])
        /// `target[index]`
        case indexer(FHIRPathSyntax, FHIRPathSyntax)
        /// Unary `+` or `-`.
        case polarity(negative: Bool, FHIRPathSyntax)
        case binary(BinaryOperator, FHIRPathSyntax, FHIRPathSyntax)
        /// `operand is Type`, `operand as Type`.
        case typeTest(isAs: Bool, FHIRPathSyntax, TypeSpecifier)
        /// `(expression)`: kept so that `(1 | 2).count()` reads as written in messages.
        case parenthesized(FHIRPathSyntax)
    }

    public let kind: Kind
    public let range: Range<Int>
    /// For a member or function: the range of its name.
    public let nameRange: Range<Int>?
    /// The number of nodes on the longest path from this one down (bounded by the parser, so that every
    /// recursive walk of the tree stays shallow).
    let depth: Int

    init(_ kind: Kind, _ range: Range<Int>, nameRange: Range<Int>? = nil) {
        self.kind = kind
        self.range = range
        self.nameRange = nameRange
        switch kind {
        case .literal, .identifier, .constant, .this, .index, .total: depth = 1
        case .member(let target, _): depth = target.depth + 1
        case .function(let target, _, let arguments): depth = max(target?.depth ?? 0, arguments.map(\.depth).max() ?? 0) + 1
        case .indexer(let target, let index): depth = max(target.depth, index.depth) + 1
        case .polarity(_, let operand), .typeTest(_, let operand, _), .parenthesized(let operand): depth = operand.depth + 1
        case .binary(_, let left, let right): depth = max(left.depth, right.depth) + 1
        }
    }

    /// The node without the parentheses around it.
    var unwrapped: FHIRPathSyntax {
        if case .parenthesized(let inner) = kind { return inner.unwrapped }
        return self
    }

    /// The syntax of an expression, without the static checks of `FHIRPathExpression` (for what is written
    /// in it whatever an engine's functions and variables are).
    public static func parse(_ text: String, constantNames: FHIRPathOptions.ConstantNames = .grammar) throws(FHIRPathError) -> FHIRPathSyntax {
        try FHIRPathParser.parse(text, constantNames: constantNames)
    }

    /// Calls `body` with this node and every node under it, each before those under it: a target before the
    /// member or arguments after it, operands left to right.
    public func forEachNode(_ body: (FHIRPathSyntax) -> Void) {
        body(self)
        switch kind {
        case .literal, .identifier, .constant, .this, .index, .total: break
        case .member(let target, _): target.forEachNode(body)
        case .function(let target, _, let arguments):
            target?.forEachNode(body)
            for argument in arguments { argument.forEachNode(body) }
        case .indexer(let target, let index):
            target.forEachNode(body)
            index.forEachNode(body)
        case .polarity(_, let operand), .typeTest(_, let operand, _), .parenthesized(let operand): operand.forEachNode(body)
        case .binary(_, let left, let right):
            left.forEachNode(body)
            right.forEachNode(body)
        }
    }

    /// The `iif()` calls, in the order their names are written: the branch points an environment's
    /// `iifObserver` reports, by the start of their `nameRange`.
    public var iifCalls: [FHIRPathSyntax] {
        var calls: [(offset: Int, node: FHIRPathSyntax)] = []
        forEachNode { node in
            if case .function(_, "iif", _) = node.kind, let name = node.nameRange { calls.append((name.lowerBound, node)) }
        }
        return calls.sorted { $0.offset < $1.offset }.map(\.node)
    }
}
