/// A type FHIRPath can name: a System type (`System.Integer`), a FHIR type of the R4 model (`FHIR.code`,
/// `FHIR.HumanName`, `FHIR.Patient`), a backbone element of a resource (`Questionnaire.item`), or a
/// resource type the model does not describe (known only from a `resourceType`). A class: types are
/// compared by identity and shared by every tree. Unchecked Sendable: `elements` is set once, while the
/// model is built, before the type is shared.
public final class FHIRType: @unchecked Sendable, CustomStringConvertible {
    public enum Namespace: String, Sendable {
        case system = "System"
        case fhir = "FHIR"
    }

    public enum Kind: Sendable {
        /// A System type (Boolean, String, Integer, Decimal, Date, DateTime, Time, Quantity).
        case system
        /// A FHIR primitive (`boolean`, `string`, `code`…): a node with a value and maybe extensions.
        case primitive
        /// A FHIR complex datatype (`HumanName`) or a backbone element.
        case complex
        case resource
    }

    public let namespace: Namespace
    public let name: String
    public let kind: Kind
    /// The type this one specializes (`code` → `string`, `Age` → `Quantity`, `Patient` → `DomainResource`).
    public let base: FHIRType?
    /// Whether the model lists this type's elements (paths on it can be checked in strict mode).
    public let isModeled: Bool
    /// The System type a primitive's value converts to (`code` → `System.String`).
    public let systemType: SystemType?

    /// The System types of FHIRPath values.
    public enum SystemType: String, Sendable {
        case boolean = "Boolean", string = "String", integer = "Integer", decimal = "Decimal", date = "Date", dateTime = "DateTime",
            time = "Time", quantity = "Quantity"
    }

    /// Elements by name (choice elements by their base name: `value` for `value[x]`). Set once while the
    /// model is built; never changed after.
    private(set) var elements: [String: FHIRElementDefinition] = [:]

    init(namespace: Namespace, name: String, kind: Kind, base: FHIRType?, isModeled: Bool, systemType: SystemType? = nil) {
        self.namespace = namespace
        self.name = name
        self.kind = kind
        self.base = base
        self.isModeled = isModeled
        self.systemType = systemType
    }

    func define(_ elements: [String: FHIRElementDefinition]) {
        self.elements = elements
    }

    public var description: String { "\(namespace.rawValue).\(name)" }

    /// Whether this type is `other` or derives from it.
    public func conforms(to other: FHIRType) -> Bool {
        var type: FHIRType? = self
        while let current = type {
            if current === other { return true }
            type = current.base
        }
        return false
    }

    /// The element of this type or its bases with this name.
    public func element(named name: String) -> FHIRElementDefinition? {
        var type: FHIRType? = self
        while let current = type {
            if let element = current.elements[name] { return element }
            type = current.base
        }
        return nil
    }

    /// Every element of the type and its bases, by name.
    var allElements: [String: FHIRElementDefinition] {
        var result = base?.allElements ?? [:]
        result.merge(elements) { _, own in own }
        return result
    }
}

/// One element of a FHIR type: its name, its type or types (a choice element has several, each found in
/// JSON as the name followed by the type's name: `valueQuantity`), and whether it repeats.
public struct FHIRElementDefinition: Sendable {
    public let name: String
    public let types: [FHIRType]
    public let isList: Bool

    public var isChoice: Bool { types.count > 1 }

    /// The type of a choice element's JSON key suffix (`Quantity` in `valueQuantity`).
    func choiceType(suffix: Substring) -> FHIRType? {
        // Type names are ASCII: compared byte by byte, the first one capitalized.
        let wanted = suffix.utf8
        guard let head = wanted.first else { return nil }
        return types.first { type in
            let name = type.name.utf8
            guard name.count == wanted.count, let first = name.first else { return false }
            let capital = first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") ? first - 0x20 : first
            return capital == head && name.dropFirst().elementsEqual(wanted.dropFirst())
        }
    }
}
