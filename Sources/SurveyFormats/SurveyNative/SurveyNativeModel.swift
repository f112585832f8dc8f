import SurveyCore

/// The pieces of a SurveyNative survey (recoveryrecord/SurveyNative, docs/reference/surveynative.md §1).
public enum SurveyNative {
    public struct Question: Sendable {
        public let id: String
        public let text: String?
        public let header: String?
        public let kind: Kind
        public let showIf: Condition?
        /// Slots of the sub-questions (one level only), in file order.
        public let subQuestions: [Int]
        /// Index of the top-level question whose section shows this question (itself when top-level).
        public let owner: Int
        public let isSubQuestion: Bool
        public let location: SourceLocation
        /// Where each choice is: the options of a select or table, the values of a segment_select.
        public let choiceLocations: [SourceLocation]
        /// Why the real engine would crash when this question is shown (a force-unwrapped key is missing).
        public let crash: String?
    }

    public enum Kind: Sendable {
        case singleSelect([Option])
        case multiSelect([Option])
        case yearPicker(YearPicker)
        case datePicker(DatePicker)
        case singleTextField(maxChars: MaxChars, validations: [Validation])
        /// Its `validations` and `max_chars` are read but have no effect (§5).
        case singleTextArea
        case multiTextField(fields: [Field], validations: [Validation])
        case dynamicLabelTextField(labelSets: [[String]], metadataID: String?, validations: [Validation])
        case addTextField
        case segmentSelect(values: [String])
        /// Only the first three options can be picked: the cell has three buttons (§1).
        case tableSelect(options: [String], rows: [String])
        /// A type the engine does not know: it renders as text and can never be answered.
        case unknown(String)

        public var typeName: String {
            switch self {
            case .singleSelect: "single_select"
            case .multiSelect: "multi_select"
            case .yearPicker: "year_picker"
            case .datePicker: "date_picker"
            case .singleTextField: "single_text_field"
            case .singleTextArea: "single_text_area"
            case .multiTextField: "multi_text_field"
            case .dynamicLabelTextField: "dynamic_label_text_field"
            case .addTextField: "add_text_field"
            case .segmentSelect: "segment_select"
            case .tableSelect: "table_select"
            case .unknown(let name): name
            }
        }
    }

    public enum Option: Sendable, Hashable {
        case plain(String)
        /// An "Other" option: its title is the answer key; its text has its own validations.
        case other(title: String, validations: [Validation])

        public var title: String {
            switch self {
            case .plain(let title), .other(let title, _): title
            }
        }
    }

    public struct Field: Sendable, Hashable {
        public let label: String
        public let maxChars: MaxChars
    }

    /// `max_chars` as the text field reads it: only a string counts (§5).
    public enum MaxChars: Sendable, Hashable {
        case unlimited
        case limit(Int)
        /// A string that is not an integer: the field then rejects all typing.
        case rejectsAll(String)
    }

    public struct Validation: Sendable, Hashable {
        public enum Operand: Sendable, Hashable {
            case value(JSONValue)
            case answer(of: String)
            case none
        }

        /// The four numeric comparisons `DefaultValidator` implements; any other operation never holds.
        public enum Comparison: Sendable, Hashable {
            case greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual, unimplemented

            /// The operation read as a condition reads it; only its numeric comparisons are validations.
            init(_ operation: String) {
                switch CompiledCondition.Test(operation: operation) {
                case .greaterThan: self = .greaterThan
                case .greaterThanOrEqual: self = .greaterThanOrEqual
                case .lessThan: self = .lessThan
                case .lessThanOrEqual: self = .lessThanOrEqual
                case .equals, .notEquals, .contains, .notContains, .unknown: self = .unimplemented
                }
            }

            func holds(_ left: Double, _ right: Double) -> Bool {
                switch self {
                case .greaterThan: left > right
                case .greaterThanOrEqual: left >= right
                case .lessThan: left < right
                case .lessThanOrEqual: left <= right
                case .unimplemented: false
                }
            }
        }

        public let operation: String
        public let operand: Operand
        /// nil when missing: the engine force-casts it and crashes when this validation fails.
        public let failMessage: String?
        public let forLabel: String?
        public let location: SourceLocation
        /// `operation`, decoded once.
        public let comparison: Comparison
        /// A constant operand as the validator reads it through Double (nil when it is not a number).
        let operandNumber: Double?

        init(operation: String, operand: Operand, failMessage: String?, forLabel: String?, location: SourceLocation) {
            self.operation = operation
            self.operand = operand
            self.failMessage = failMessage
            self.forLabel = forLabel
            self.location = location
            self.comparison = Comparison(operation)
            if case .value(let value) = operand { operandNumber = SurveyNativeComparison.number(value) } else { operandNumber = nil }
        }
    }

    /// A year given to the year picker: `"current_year"` or a year number as a string (§7).
    public enum YearSpec: Sendable, Hashable {
        case currentYear
        case year(Int)
    }

    public struct YearPicker: Sendable, Hashable {
        public let minYear: YearSpec?
        public let maxYear: YearSpec?
        public let numYears: Int?
        public let initialYear: String?
        public let descending: Bool
    }

    /// A date given to the date picker: `"current_date"` or `yyyy-MM-dd`.
    public enum DateSpec: Sendable, Hashable {
        case currentDate
        case date(CalendarDate)
    }

    public struct DatePicker: Sendable, Hashable {
        public let minDate: DateSpec?
        public let maxDate: DateSpec?
        /// `date_diff` components as `(year, month, day)`.
        public let diff: (years: Int, months: Int, days: Int)?

        public static func == (lhs: DatePicker, rhs: DatePicker) -> Bool {
            lhs.minDate == rhs.minDate && lhs.maxDate == rhs.maxDate
                && lhs.diff?.years == rhs.diff?.years && lhs.diff?.months == rhs.diff?.months
                && lhs.diff?.days == rhs.diff?.days
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(minDate)
            hasher.combine(maxDate)
            hasher.combine(diff?.years)
            hasher.combine(diff?.months)
            hasher.combine(diff?.days)
        }
    }

    public struct Submit: Sendable {
        public let buttonTitle: String?
        public let url: String?
    }
}
