import SurveyCore

/// What the answer a condition or a validation reads can be (reference §2), as far as lint needs to know:
/// its shape, and the strings it is limited to when the question offers choices.
enum SurveyNativeAnswerForm {
    /// A string: one of `choices` when the question offers only those, any text when nil.
    case text(choices: [String]?)
    /// A date picker's `"yyyy-MM-dd"`, which is never a number to `Double(_:)`.
    case date
    /// A single_select answer: one of `options` as a string, or `{title: typed text}` for one of `others`.
    case choice(options: [String], others: [String])
    /// A list of strings: picked among `choices` (any text when nil), plus typed text when `typed`.
    case list(choices: [String]?, typed: Bool)
    /// A dictionary of strings keyed by `keys` (table rows, field labels).
    case dictionary(keys: [String])
    /// Nothing: a question of a type the engine does not know is never answered.
    case none

    /// What `subid` reads from answers of a kind (SQ:474-476).
    enum PartReading {
        case part(SurveyNativeAnswerForm)
        /// The answers are dictionaries without this key: the part read is always missing.
        case missing(keys: [String])
        /// The engine ignores `subid` on this kind, or on some of its answers; why, in words.
        case ignored(String)
    }

    init(_ kind: SurveyNative.Kind) {
        switch kind {
        case .singleSelect(let options):
            self = .choice(options: options.plainTitles, others: options.otherTitles)
        case .multiSelect(let options):
            self = .list(choices: options.plainTitles, typed: !options.otherTitles.isEmpty)
        case .segmentSelect(let values):
            self = .text(choices: values)
        case .yearPicker, .singleTextField, .singleTextArea:
            self = .text(choices: nil)
        case .datePicker:
            self = .date
        case .addTextField:
            self = .list(choices: nil, typed: true)
        case .multiTextField(let fields, _):
            self = .dictionary(keys: fields.map(\.label))
        case .dynamicLabelTextField(let labelSets, _, _):
            self = .dictionary(keys: labelSets.flatMap { $0 })
        case .tableSelect(_, let rows):
            self = .dictionary(keys: rows)
        case .unknown:
            self = .none
        }
    }

    /// The part `key` of answers of `kind`: a table row's option (only the first three can be picked), a
    /// field's text, an Other option's typed text (a plain option's answer is a string, which `subid` leaves
    /// as it is).
    static func reading(_ key: String, of kind: SurveyNative.Kind) -> PartReading {
        switch kind {
        case .tableSelect(let options, let rows):
            return rows.contains(key) ? .part(.text(choices: Array(options.prefix(3)))) : .missing(keys: rows)
        case .multiTextField(let fields, _):
            return typedPart(key, among: fields.map(\.label))
        case .dynamicLabelTextField(let labelSets, _, _):
            return typedPart(key, among: labelSets.flatMap { $0 })
        case .singleSelect(let options):
            return options.otherTitles.contains(key)
                ? .part(.text(choices: nil))
                : .ignored("subid '\(key)' names no Other option of this single_select\(Spelling.suggestion(for: key, in: options.otherTitles)): the engine ignores it on a plain option and finds nothing in an Other answer")
        case .multiSelect, .yearPicker, .datePicker, .singleTextField, .singleTextArea, .addTextField, .segmentSelect, .unknown:
            return .ignored("the answer to a \(kind.typeName) is not a dictionary, so the engine ignores subid '\(key)'")
        }
    }

    private static func typedPart(_ key: String, among keys: [String]) -> PartReading {
        keys.contains(key) ? .part(.text(choices: nil)) : .missing(keys: keys)
    }

    /// Whether the answer can be a number for `numberComparison` (a string `Double(_:)` parses).
    var canBeNumber: Bool {
        switch self {
        case .text(let choices?): choices.contains(where: Self.isNumber)
        case .text(nil): true
        case .choice(let options, _): options.contains(where: Self.isNumber)
        case .date, .list, .dictionary, .none: false
        }
    }

    private static func isNumber(_ text: String) -> Bool {
        SurveyNativeComparison.number(.string(text)) != nil
    }

    /// The answer in words, for messages: "a list of the options picked".
    var description: String {
        switch self {
        case .text(let choices?): "one of \(Self.list(choices))"
        case .text(nil): "a string"
        case .date: "a date \"yyyy-MM-dd\""
        case .choice(let options, let others):
            others.isEmpty ? "one of \(Self.list(options))" : "one of \(Self.list(options)), or a dictionary {\"\(others[0])\": typed text}"
        case .list(_, true): "a list of strings"
        case .list: "a list of the options picked"
        case .dictionary(let keys): "a dictionary keyed by \(Self.list(keys))"
        case .none: "never given"
        }
    }

    static func list(_ items: [String]) -> String {
        items.map { "'\($0)'" }.joined(separator: ", ")
    }
}

extension [SurveyNative.Option] {
    var plainTitles: [String] {
        compactMap { option in
            if case .plain(let title) = option { return title }
            return nil
        }
    }

    var otherTitles: [String] {
        compactMap { option in
            if case .other(let title, _) = option { return title }
            return nil
        }
    }
}
