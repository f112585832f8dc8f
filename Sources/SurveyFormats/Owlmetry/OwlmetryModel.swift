import SurveyCore

/// The model of an Owlmetry questionnaire schema (reference §3.1): `{"version": 1, "questions": [...]}`,
/// linear, one question per page.
public enum Owlmetry {
    public enum QuestionType: String, Sendable, CaseIterable {
        case text
        case singleChoice = "single_choice"
        case multiChoice = "multi_choice"
        case rating
        case nps
    }

    public struct Option: Sendable {
        public var id: String
        public var label: String
        public var location: SourceLocation
    }

    public struct Question: Sendable {
        public var id: String
        public var type: QuestionType
        public var title: String
        public var subtitle: String?
        public var isRequired: Bool
        public var placeholder: String?
        public var isMultiline: Bool
        public var options: [Option]
        public var location: SourceLocation

        /// The schema entry as the server's validator normalises it (what `schema_snapshot` copies).
        var normalised: JSONValue {
            var entry: [String: JSONValue] = ["id": .string(id), "type": .string(type.rawValue), "title": .string(title), "required": .bool(isRequired)]
            if let subtitle { entry["subtitle"] = .string(subtitle) }
            switch type {
            case .text:
                if let placeholder { entry["placeholder"] = .string(placeholder) }
                entry["multiline"] = .bool(isMultiline)
            case .singleChoice, .multiChoice:
                entry["options"] = .array(options.map { ["id": .string($0.id), "label": .string($0.label)] })
            case .rating:
                entry["scale"] = 5
            case .nps:
                break
            }
            return .object(entry)
        }
    }

    // The limits of `packages/shared/src/questionnaires.ts` (reference §3.1, §3.2).
    static let maximumQuestions = 30
    static let maximumIDLength = 32
    static let maximumTitleLength = 200
    static let maximumSubtitleLength = 500
    static let maximumPlaceholderLength = 200
    static let maximumLabelLength = 100
    static let optionCount = 2...20
    static let maximumTextAnswer = 4000

    /// `/^[a-z0-9_]+$/`.
    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
