/// A `%` variable's name as evaluations look it up: its text, and a tag worked out from the text once, where
/// the name is written (a compiled `%name`, a list of variables bound for many evaluations). A lookup
/// compares tags and only then the text, so the names it passes over cost an integer comparison each
/// rather than a string comparison.
public struct FHIRPathVariableName: Hashable, Sendable {
    public let text: String
    let tag: UInt64

    public init(_ text: String) {
        self.text = text
        // FNV-1a over the UTF-8 bytes: worked out once per name, never per lookup.
        var tag: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { tag = (tag ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        self.tag = tag
    }

    /// The names evaluations bind or read themselves.
    public static let resource = FHIRPathVariableName("resource")
    public static let rootResource = FHIRPathVariableName("rootResource")
    public static let context = FHIRPathVariableName("context")
    public static let questionnaire = FHIRPathVariableName("questionnaire")

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.tag == rhs.tag && lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tag)
    }
}

/// A variable bound for evaluations: its name and its value. A struct rather than a pair: lists of these
/// are made and dropped at every evaluation, and a list of pairs is destroyed element by element through
/// the runtime's generic tuple code.
public struct FHIRPathBinding: Sendable {
    public let name: FHIRPathVariableName
    public let value: FHIRPathCollection

    public init(_ name: FHIRPathVariableName, _ value: FHIRPathCollection) {
        self.name = name
        self.value = value
    }
}
