/// A parsed node together with where it is (file and JSON pointer), for decoders that must report
/// problems at the right `line:column`. Strict accessors throw an `InputError` that says what was expected;
/// lenient ones return nil, for formats whose real engine reads a key with `as?` and ignores a wrong type.
public struct JSONCursor: Sendable {
    public let node: JSONNode
    /// The pointer of the parent and this node's step from it, as numbers: the pointer itself is only allocated
    /// when asked for, since most nodes a decoder reads never need one. No string or enum payload is kept, so
    /// that copying and dropping a cursor, which decoders do by the million, costs two reference counts.
    private let parent: JSONPointer
    private let stepKind: StepKind
    /// The document entry of the member's key, or the element's index.
    private let step: Int

    private enum StepKind: UInt8, Sendable {
        /// The cursor is at `parent` itself.
        case none
        case member, element
    }

    public init(node: JSONNode, pointer: JSONPointer = .root) {
        self.init(node: node, parent: pointer, stepKind: .none, step: 0)
    }

    private init(node: JSONNode, parent: JSONPointer, stepKind: StepKind, step: Int) {
        self.node = node
        self.parent = parent
        self.stepKind = stepKind
        self.step = step
    }

    public var file: SourceFile { node.document.file }

    public var pointer: JSONPointer {
        switch stepKind {
        case .none: parent
        case .member: parent.appending(JSONNode(document: node.document, index: step).stringValue ?? "")
        case .element: parent.appending(step)
        }
    }

    /// The cursor of the member (key and value nodes) of the object whose pointer is `parent`.
    static func member(_ member: (key: JSONNode, value: JSONNode), parent: JSONPointer) -> JSONCursor {
        JSONCursor(node: member.value, parent: parent, stepKind: .member, step: member.key.index)
    }

    public var position: SourcePosition { file.position(of: node.offset) }
    public var location: SourceLocation { SourceLocation(position: position, pointer: pointer) }

    public func diagnostic(
        _ severity: Diagnostic.Severity = .error, _ message: String, hint: String? = nil, rule: String? = nil
    ) -> Diagnostic {
        Diagnostic(severity, file: file.path, location: location, message: message, hint: hint, rule: rule)
    }

    public func error(_ message: String, hint: String? = nil) -> InputError {
        InputError(diagnostic(.error, message, hint: hint))
    }

    /// "expected a string for 'id', found a number"
    public func typeError(expected: String, for what: @autoclosure () -> String) -> InputError {
        error("expected \(expected) for \(what()), found \(node.kindDescription)")
    }

    // MARK: lenient access

    public var stringValue: String? { node.stringValue }
    public var boolValue: Bool? { node.boolValue }
    public var numberValue: Double? { node.numberValue }
    public var isNull: Bool { node.isNull }

    public var elements: [JSONCursor]? {
        guard node.kind == .array else { return nil }
        let here = pointer
        return node.mapElements { JSONCursor(node: $1, parent: here, stepKind: .element, step: $0) }
    }

    public var object: JSONObjectCursor? {
        guard node.kind == .object else { return nil }
        return JSONObjectCursor(node: node, pointer: pointer)
    }

    /// The cursor of the node the steps lead to from this one, or nil when there is none: for a decoder that
    /// scans nodes alone and makes a cursor only for what it finds.
    public func descendant(_ steps: [JSONPointer.Step]) -> JSONCursor? {
        var cursor = self
        for step in steps {
            switch step {
            case .key(let key):
                guard let member = cursor.object?[key] else { return nil }
                cursor = member
            case .index(let index):
                guard let elements = cursor.elements, elements.indices.contains(index) else { return nil }
                cursor = elements[index]
            }
        }
        return cursor
    }

    // MARK: strict access

    public func string(for what: @autoclosure () -> String) throws(InputError) -> String {
        guard let value = stringValue else { throw typeError(expected: "a string", for: what()) }
        return value
    }

    public func bool(for what: @autoclosure () -> String) throws(InputError) -> Bool {
        guard let value = boolValue else { throw typeError(expected: "true or false", for: what()) }
        return value
    }

    public func number(for what: @autoclosure () -> String) throws(InputError) -> Double {
        guard let value = numberValue else { throw typeError(expected: "a number", for: what()) }
        return value
    }

    public func array(for what: @autoclosure () -> String) throws(InputError) -> [JSONCursor] {
        guard let value = elements else { throw typeError(expected: "an array", for: what()) }
        return value
    }

    public func object(for what: @autoclosure () -> String) throws(InputError) -> JSONObjectCursor {
        guard let value = object else { throw typeError(expected: "an object", for: what()) }
        return value
    }
}

/// An object node with its members addressable by key, each member a cursor with its own pointer.
public struct JSONObjectCursor: Sendable {
    private let node: JSONNode
    /// The object's pointer, made once for all its members.
    public let pointer: JSONPointer

    fileprivate init(node: JSONNode, pointer: JSONPointer) {
        self.node = node
        self.pointer = pointer
    }

    /// The object's own cursor.
    public var cursor: JSONCursor { JSONCursor(node: node, pointer: pointer) }

    /// The members in file order (their keys made as strings).
    public var members: [JSONMember] { node.members ?? [] }

    public var keys: [String] { members.map(\.key) }

    /// Where the object is (its pointer made once, with the members').
    public var location: SourceLocation {
        SourceLocation(position: node.document.file.position(of: node.offset), pointer: pointer)
    }

    public subscript(key: String) -> JSONCursor? {
        guard let member = node.member(key) else { return nil }
        return JSONCursor.member(member, parent: pointer)
    }

    public func contains(_ key: String) -> Bool { node.member(key) != nil }

    /// The members whose key starts with `prefix`, in file order, each with its cursor; the other keys'
    /// strings are never made.
    public func members(withKeyPrefix prefix: String) -> [(key: String, cursor: JSONCursor)] {
        node.members(withKeyPrefix: prefix) { key, value in (key.stringValue ?? "", JSONCursor.member((key, value), parent: pointer)) } ?? []
    }

    /// The member, or an error at the object that names the missing key.
    public func required(_ key: String, in what: @autoclosure () -> String) throws(InputError) -> JSONCursor {
        guard let member = self[key] else {
            throw cursor.error("\(what()) has no \(CanonicalJSON.quote(key)); expected one")
        }
        return member
    }

    /// The position of a member's key, for findings about the key itself.
    public func keyLocation(_ key: String) -> SourceLocation? {
        guard let member = node.member(key) else { return nil }
        return SourceLocation(position: node.document.file.position(of: member.key.offset), pointer: pointer.appending(key))
    }
}
