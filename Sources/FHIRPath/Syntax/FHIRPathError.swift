/// Why an expression could not be compiled or evaluated, of the three kinds the spec and its test suite
/// name: a `syntax` error (the text is not FHIRPath), a `semantic` error (knowable before running: an
/// unknown function, a wrong number of arguments, operands whose types no operator takes, a path the model
/// does not have in strict mode), or an `execution` error (raised while evaluating: a collection where one
/// item is expected, a value of the wrong type).
public struct FHIRPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case syntax, semantic, execution
    }

    public let kind: Kind
    public let message: String
    /// Byte offsets in the expression's UTF-8 text of the part the error is about.
    public let range: Range<Int>?

    public init(_ kind: Kind, _ message: String, at range: Range<Int>?) {
        self.kind = kind
        self.message = message
        self.range = range
    }

    public var description: String { "\(kind) error: \(message)" }
}
