/// An RFC 6901 JSON pointer (`/questions/3/show_if`), built one step at a time while a decoder descends.
///
/// Each step is one small node that points at its parent, so descending costs one allocation and the
/// text is only rendered when a message or report needs it.
public final class JSONPointer: Sendable, CustomStringConvertible, Hashable {
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public let parent: JSONPointer?
    public let step: Step?

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(parent: nil, step: nil)

    private init(parent: JSONPointer?, step: Step?) {
        self.parent = parent
        self.step = step
    }

    public func appending(_ key: String) -> JSONPointer { JSONPointer(parent: self, step: .key(key)) }
    public func appending(_ index: Int) -> JSONPointer { JSONPointer(parent: self, step: .index(index)) }

    public var steps: [Step] {
        var result: [Step] = []
        var node: JSONPointer? = self
        while let current = node, let step = current.step {
            result.append(step)
            node = current.parent
        }
        return result.reversed()
    }

    public var description: String {
        steps.map { step -> String in
            switch step {
            case .index(let index): return "/\(index)"
            case .key(let key):
                var escaped = "/"
                for character in key {
                    switch character {
                    case "~": escaped += "~0"
                    case "/": escaped += "~1"
                    default: escaped.append(character)
                    }
                }
                return escaped
            }
        }.joined()
    }

    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool { lhs.steps == rhs.steps }
    public func hash(into hasher: inout Hasher) { hasher.combine(steps) }
}

/// Where something is in a source file: the position a person reads and the pointer a tool follows.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public let position: SourcePosition
    public let pointer: JSONPointer

    public init(position: SourcePosition, pointer: JSONPointer) {
        self.position = position
        self.pointer = pointer
    }

    public var description: String { "\(position) (\(pointer.description.isEmpty ? "/" : pointer.description))" }
}
