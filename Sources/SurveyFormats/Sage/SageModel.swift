import SurveyCore

/// The model of a SageResearch / AssessmentModel task file, the same for the three generations; what differs
/// between them is recorded in `Generation`, and what differs between the releases that run a file is the
/// engine (`SageEngine`, chosen by the scenario's profile).
public enum Sage {
    /// The three generations of the file format. A file says which it is by its shape: legacy `form` steps
    /// with `inputFields`; SageResearch question steps (`simpleQuestion`, `choiceQuestion` with `inputItem`);
    /// the AssessmentModel successor (its `$schema`, `versionString`, `selectorType` choices, `other`…).
    public enum Generation: String, Sendable, CaseIterable {
        case legacy, v3, assessment

        /// How traces name it.
        public var formatName: String { "sage-\(rawValue)" }

        /// What the generation is, for messages and docs.
        public var summary: String {
            switch self {
            case .legacy: "SageResearch form steps with inputFields and per-field surveyRules"
            case .v3: "SageResearch question steps with step-level surveyRules"
            case .assessment: "AssessmentModel question steps, first matching rule wins"
            }
        }

        /// The operators the generation decodes (`RSDSurveyRuleOperator`; AssessmentModel's
        /// `SurveyRuleOperator` has six).
        public var operators: [RuleOperator] {
            switch self {
            case .legacy, .v3: RuleOperator.allCases
            case .assessment: [.equal, .notEqual, .lessThan, .greaterThan, .lessThanOrEqual, .greaterThanOrEqual]
            }
        }
    }

    /// `RSDSurveyRuleOperator`, with its exact raw values.
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
        /// Legacy: the `RSDFormDataType.BaseType` the factory decodes a rule's `matchingAnswer` as
        /// (`boolean`, `string`, `date`, `decimal`, `duration`, `fraction`, `integer`, `year`, `codable`).
        public var ruleBase: String
        /// v3 and successor: the JsonModel answer type of the result (`integer`, `number`, `date-time`…).
        public var resultType: String
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

    /// A `surveyRules` entry (`RSDComparableSurveyRuleObject`, `JsonSurveyRuleObject`, the successor's
    /// `SurveyRule`), as written: the defaults are applied where the engine applies them, at evaluation.
    public struct Rule: Sendable {
        /// The step it belongs to (its index in the task's steps) and the field whose answer it tests.
        public var step: Int
        public var field: Int
        /// `skipToIdentifier` as written.
        public var skipTo: String?
        /// `ruleOperator` as written.
        public var written: RuleOperator?
        /// `matchingAnswer`; nil when absent or JSON null (`matchingAnswer` is nil either way).
        public var matchingAnswer: JSONValue?
        public var cohort: String?
        public var location: SourceLocation
        /// Where the target is written (or the rule, for the default `exit`).
        public var targetLocation: SourceLocation

        /// The operator evaluation uses: `RSDComparableSurveyRule._ruleOperator` (`eq` with a matching
        /// answer, `de` without); the successor's `ruleOperator ?? .equal`.
        public func effectiveOperator(assessment: Bool) -> RuleOperator {
            written ?? (assessment || matchingAnswer != nil ? .equal : .skip)
        }

        /// The target a match navigates to: `skipToIdentifier ?? "exit"`, except that a SageResearch rule
        /// with a cohort and no target never navigates (`evaluateRule(with:)`).
        public func target(assessment: Bool) -> String? {
            if !assessment, cohort != nil, skipTo == nil { return nil }
            return skipTo ?? "exit"
        }
    }

    public enum StepKind: Sendable {
        /// A step that shows something and takes no answer (instruction, overview, completion, active…).
        case display
        /// A step with inputs: a legacy form, a v3 or successor question.
        case question
    }

    /// A navigation button a step, section or task file mentions: `actions.skip` (its
    /// `skipToIdentifier` when it is a `navigation` action) and `shouldHideActions`.
    public struct Buttons: Sendable {
        /// `actions.skip`: nil when absent; `target` is set for a navigation action.
        public var skip: SkipAction?
        public var hidesSkip = false
        public var hidesBack = false
        /// `actions.goBackward` is defined (then a task-level `shouldHideActions` does not hide Back).
        public var definesBack = false

        public static let none = Buttons()

        /// Whether `shouldHideActions` names the button.
        public func hides(_ button: Button) -> Bool {
            switch button {
            case .skip: hidesSkip
            case .back: hidesBack
            }
        }
    }

    /// The buttons `shouldHideActions` can hide that the simulation reads.
    public enum Button: Sendable {
        case skip, back
    }

    public struct SkipAction: Sendable {
        /// Whether it is an `RSDNavigationUIAction` (`"type": "navigation"` with a `skipToIdentifier`).
        public var isNavigation: Bool
        public var target: String?
        public var location: SourceLocation
    }

    /// `RSDCohortNavigationRuleObject` of `beforeCohortRules` / `afterCohortRules`.
    public struct CohortRule: Sendable {
        public var requiredCohorts: [String]
        /// `operator`: `all` (the default) or `any`.
        public var matchesAny: Bool
        public var skipTo: String?
    }

    /// A step the respondent sees. Steps inside sections are flattened in document order; their id is the
    /// path of section identifiers and their own (`colors/choice1`), so that ids stay unique.
    public struct Step: Sendable {
        public var id: String
        /// The identifier as written, what results and rules use.
        public var name: String
        public var type: String
        public var title: String?
        /// What an answer result's `questionText` holds.
        public var questionText: String?
        public var kind: StepKind
        public var fields: [Field]
        /// The successor's `multipleInputQuestion`: one answer, an object keyed by item.
        public var answerIsObject: Bool
        public var rules: [Rule]
        public var nextStepIdentifier: String?
        public var nextStepLocation: SourceLocation?
        public var buttons: Buttons
        /// A v3 `skipCheckbox`: the value checking it stores (JSON null unless it has a `value`).
        public var skipCheckbox: JSONValue?
        /// An instruction with `fullInstructionsOnly`, left out when the app shows abbreviated instructions.
        public var fullInstructionsOnly: Bool
        public var beforeCohortRules: [CohortRule]
        public var afterCohortRules: [CohortRule]
        /// The index (in `sections`) of the innermost section holding the step, nil at the top level.
        public var section: Int?
        public var location: SourceLocation

        public var isCompletion: Bool { type == "completion" }
    }

    /// A `section` step: a scope for identifiers, a navigator of its own.
    public struct Section: Sendable {
        public var id: String
        public var name: String
        public var parent: Int?
        /// The range of step indices it holds (possibly empty).
        public var steps: Range<Int>
        public var buttons: Buttons
        /// AssessmentModel reads a section's `nextStepIdentifier` when the section ends.
        public var nextStepIdentifier: String?
        public var location: SourceLocation
    }
}
