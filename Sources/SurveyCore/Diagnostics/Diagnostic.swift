/// One finding about an input file: an error that stops a run, or a warning or note beside it.
///
/// Its text reads like a compiler's: `ExampleQuestions.json:212:15: error: show_if refers to 'like_musik',
/// which no question has`, followed by a hint line when there is one.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error, warning, note

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    public var file: String?
    public var position: SourcePosition?
    public var pointer: String?
    public var message: String
    public var hint: String?
    /// A stable rule id for lint findings (`sn-dangling-id`); nil for plain load errors.
    public var rule: String?

    public init(
        _ severity: Severity = .error,
        file: String?,
        position: SourcePosition?,
        pointer: String? = nil,
        message: String,
        hint: String? = nil,
        rule: String? = nil
    ) {
        self.severity = severity
        self.file = file
        self.position = position
        self.pointer = pointer
        self.message = message
        self.hint = hint
        self.rule = rule
    }

    public init(
        _ severity: Severity = .error,
        file: String?,
        location: SourceLocation,
        message: String,
        hint: String? = nil,
        rule: String? = nil
    ) {
        self.init(
            severity, file: file, position: location.position, pointer: location.pointer.description,
            message: message, hint: hint, rule: rule)
    }

    /// `file:line:col: severity: message` and, on the next line, the hint.
    public var description: String {
        var place = file ?? "<input>"
        if let position { place += ":\(position.line):\(position.column)" }
        var text = "\(place): \(severity.rawValue): \(message)"
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }
}

/// A file that cannot be used: every error found in it, in file order.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public init(_ diagnostic: Diagnostic) {
        self.diagnostics = [diagnostic]
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
