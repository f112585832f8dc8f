import SurveyCore

/// The model of a SageResearch / AssessmentModel task file (reference §1), the same for the three
/// generations; what differs between them is recorded in `Generation` and read by the navigator.
public enum Sage {
    /// The three generations of the format (reference §1.0). A file says which it is by its shape: legacy
    /// `form` steps with `inputFields`; v3 question steps (`simpleQuestion`, `choiceQuestion` with
    /// `inputItem`); the AssessmentModel successor (its `$schema`, `versionString`, `selectorType` choices,
    /// `other`…).
    public enum Generation: String, Sendable, CaseIterable {
        case legacy, v3, assessment

        /// How traces name it.
        public var formatName: String { "sage-\(rawValue)" }

        /// What the generation is, for load notes and docs.
        public var summary: String {
            switch self {
            case .legacy: "SageResearch v2 form steps with inputFields and per-field surveyRules"
            case .v3: "SageResearch v3 question steps with step-level surveyRules"
            case .assessment: "AssessmentModel (successor) question steps, first matching rule wins"
            }
        }

        /// The targets a rule may name besides step ids (reference §1.2, the navigator and the successor).
        public var reservedTargets: [String] {
            switch self {
            case .legacy, .v3: ["exit", "nextSection", "nextStep"]
            case .assessment: ["exit", "nextSection", "beginning"]
            }
        }

        /// The operators the generation decodes (`RSDSurveyRuleOperator`; the successor has six).
        public var operators: [RuleOperator] {
            switch self {
            case .legacy, .v3: RuleOperator.allCases
            case .assessment: [.equal, .notEqual, .lessThan, .greaterThan, .lessThanOrEqual, .greaterThanOrEqual]
            }
        }
    }

    /// `RSDSurveyRuleOperator`, with its exact raw values (reference §1.2 table).
    public enum RuleOperator: String, Sendable, CaseIterable {
        case skip = "de"
        case equal = "eq"
        case notEqual = "ne"
        case lessThan = "lt"
        case greaterThan = "gt"
        case lessThanOrEqual = "le"
        case greaterThanOrEqual = "ge"
        case otherThan = "ot"
        case always
    }

    /// What kind of value an answer holds, and how the result's `answerType` names it.
    public enum BaseType: String, Sendable {
        case boolean, integer, decimal, string, date, codable
    }

    /// The shape of an answer: a base type, or an array of it (multiple choice, multiple component).
    public struct ValueShape: Sendable, Hashable {
        public var base: BaseType
        public var isArray: Bool
    }

    /// One value a choice field offers (a bare JSON value, or an object with `value`, `text`,
    /// `isExclusive`; the successor's `selectorType` `exclusive` and `all`).
    public struct Choice: Sendable {
        /// nil for a choice without a value (the successor's "All of the above").
        public var value: JSONValue?
        public var text: String?
        public var isExclusive: Bool
        /// The successor's `selectorType: "all"`: picks every other non-exclusive choice.
        public var selectsAll: Bool
        public var location: SourceLocation
    }

    /// Bounds from `range` (legacy) or `formatOptions` (v3, successor).
    public struct Bounds: Sendable {
        public var minimum: Double?
        public var maximum: Double?
        public var minimumDate: CalendarDate?
        public var maximumDate: CalendarDate?
        public var allowFuture: Bool?
        public var allowPast: Bool?
        public var location: SourceLocation?

        public static let none = Bounds()

        public var isEmpty: Bool {
            minimum == nil && maximum == nil && minimumDate == nil && maximumDate == nil && allowFuture == nil && allowPast == nil
        }
    }

    /// `textFieldOptions` the engine checks an entered text against (`RSDInputFieldError` −3, −4).
    public struct TextOptions: Sendable {
        public var maximumLength: Int?
        public var validator: String?
        public var invalidMessage: String?
    }

    /// One input of a step: a legacy input field, a v3 `inputItem`, or the successor's choice question.
    public struct Field: Sendable {
        public var id: String
        /// The `type` as written (`singleChoice.integer`, `year`, `string`), for the result's `formDataType`.
        public var typeName: String
        public var shape: ValueShape
        public var isOptional: Bool
        public var choices: [Choice]?
        /// The components of a `multipleComponent` field, each a list of values.
        public var components: [[JSONValue]]?
        /// The successor's `other`: a choice question also takes a value of this type typed by the person.
        public var other: BaseType?
        public var bounds: Bounds
        public var text: TextOptions
        public var location: SourceLocation
    }

    /// A `surveyRules` entry (`RSDComparableSurveyRuleObject`, the successor's `SurveyRule`).
    public struct Rule: Sendable {
        /// The step it belongs to (its index in the task's steps) and the field whose answer it tests.
        public var step: Int
        public var field: Int
        /// nil for a cohort-only rule, which never navigates (reference §1.2 defaults).
        public var target: String?
        /// Whether `skipToIdentifier` was written (the default `exit` otherwise).
        public var targetWritten: Bool
        public var ruleOperator: RuleOperator
        /// nil when `matchingAnswer` is absent (the successor then compares with JSON null).
        public var matchingAnswer: JSONValue?
        public var cohort: String?
        public var location: SourceLocation
        /// Where the target is written (or the rule, for the default `exit`).
        public var targetLocation: SourceLocation
    }

    public enum StepKind: Sendable {
        /// A step that shows something and takes no answer (instruction, overview, completion, active…).
        case display
        /// A step with inputs: a legacy form, a v3 or successor question.
        case question
    }

    /// A step the respondent sees. Steps inside sections are flattened in document order; their id is the
    /// path of section identifiers and their own (`colors/choice1`), so that ids stay unique.
    public struct Step: Sendable {
        public var id: String
        /// The identifier as written, what results and rules use.
        public var name: String
        public var type: String
        public var title: String?
        public var kind: StepKind
        public var fields: [Field]
        /// The successor's `multipleInputQuestion`: one answer, an object keyed by item.
        public var answerIsObject: Bool
        public var rules: [Rule]
        public var nextStepIdentifier: String?
        public var nextStepLocation: SourceLocation?
        /// The skip action's `skipToIdentifier` (`skipToIfNil`).
        public var skipTarget: String?
        public var skipTargetLocation: SourceLocation?
        /// Whether the step offers a skip (an optional step, a skip action, a `skipCheckbox`).
        public var canSkip: Bool
        /// The index (in `sections`) of the innermost section holding the step, nil at the top level.
        public var section: Int?
        public var location: SourceLocation

        public var isOptional: Bool { fields.allSatisfy(\.isOptional) }
    }

    /// A `section` step: a scope for identifiers and for `nextSection` and `beginning`.
    public struct Section: Sendable {
        public var id: String
        public var name: String
        public var parent: Int?
        /// The range of step indices it holds (possibly empty).
        public var steps: Range<Int>
        public var location: SourceLocation
    }
}
