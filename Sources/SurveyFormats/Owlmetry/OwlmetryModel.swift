import Foundation
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
        /// `multiline` as written; absent or null is omitted from the normalised schema (the SDK reads false).
        public var multiline: Bool?
        public var options: [Option]
        public var location: SourceLocation

        /// The SDK decodes a missing `multiline` as false (`OwlQuestionnaireTextQuestion.init(from:)`).
        public var isMultiline: Bool { multiline ?? false }

        /// The schema entry as the server's validator normalises it (what `schema_snapshot` copies).
        var normalised: JSONValue {
            var entry: [String: JSONValue] = ["id": .string(id), "type": .string(type.rawValue), "title": .string(title), "required": .bool(isRequired)]
            if let subtitle { entry["subtitle"] = .string(subtitle) }
            switch type {
            case .text:
                if let placeholder { entry["placeholder"] = .string(placeholder) }
                if let multiline { entry["multiline"] = .bool(multiline) }
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

    /// JavaScript's `String.prototype.length`: UTF-16 code units. Every length limit of the validators
    /// counts these (`questionnaires.ts:170-178, 184, 205, 270, 326`), so an emoji counts two.
    static func length(_ text: String) -> Int { text.utf16.count }

    /// The server's emptiness test, `text.trim().length === 0` (`questionnaires.ts:178, 270, 313`):
    /// JavaScript's `trim` removes WhiteSpace (tab, VT, FF, space, NBSP, BOM and every Zs) and line terminators.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isJavaScriptWhitespace)
    }

    private static func isJavaScriptWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0xFEFF, 0x2028, 0x2029: true
        default: scalar.properties.generalCategory == .spaceSeparator
        }
    }

    /// What the Swift SDK sends for a text: `trimmingCharacters(in: .whitespacesAndNewlines)`
    /// (`OwlQuestionnaireAnswerStore.collected`). A text that neither starts nor ends with one of those
    /// characters comes back as it is, without Foundation's trimming (slow, and asked for at every step).
    static func sdkTrimmed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        if !sdkBlanks.contains(first), !sdkBlanks.contains(last) { return text }
        return text.trimmingCharacters(in: sdkBlanks)
    }

    /// Whether the SDK trims a text to nothing (`isAnswered` is false): every character is one it trims.
    static func sdkTrimsAway(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(sdkBlanks.contains)
    }

    private static let sdkBlanks = CharacterSet.whitespacesAndNewlines
}
