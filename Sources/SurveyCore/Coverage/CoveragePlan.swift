/// The branches of a survey's logic, as a format lays them out: decisions (a `show_if`, an `enableWhen`,
/// a rule) with their leaf conditions, validations, choices, questions and end states. Each knows where it
/// is in the file, so reports can point into it (LCOV lines, JSON pointers, the DOT picture).
public struct CoveragePlan: Sendable {
    public var file: String
    public var decisions: [Decision]
    public var leaves: [Point]
    public var validations: [Point]
    public var choices: [Point]
    public var questions: [QuestionPoint]
    /// End states a session can reach (Submit shown, submitted).
    public var terminals: [Point]

    public init(
        file: String, decisions: [Decision] = [], leaves: [Point] = [], validations: [Point] = [], choices: [Point] = [],
        questions: [QuestionPoint] = [], terminals: [Point] = []
    ) {
        self.file = file
        self.decisions = decisions
        self.leaves = leaves
        self.validations = validations
        self.choices = choices
        self.questions = questions
        self.terminals = terminals
    }

    /// A decision point: true or false as a whole, made of leaves joined by `all`/`any`.
    public struct Decision: Sendable {
        /// The question whose visibility (or step) it decides, or whose expression it is in (FHIR's `iif`).
        public var question: String
        /// What kind of decision it is (`show_if`, `iif`).
        public var kind: String
        public var location: SourceLocation
        public var tree: Node
        /// Why an outcome can never happen, when the format can tell without running (a constant
        /// condition, a literal no answer can equal): outcome `true` or `false` to the reason.
        public var impossible: [Bool: String]

        public init(question: String, kind: String, location: SourceLocation, tree: Node, impossible: [Bool: String] = [:]) {
            self.question = question
            self.kind = kind
            self.location = location
            self.tree = tree
            self.impossible = impossible
        }

        /// The indices (in the plan's `leaves`) of the decision's leaves, in evaluation order.
        public var leafIndices: [Int] { tree.leafIndices }
    }

    public indirect enum Node: Sendable {
        case leaf(Int)
        case all([Node])
        case any([Node])
        case constant(Bool)

        public var leafIndices: [Int] {
            switch self {
            case .leaf(let index): [index]
            case .all(let children), .any(let children): children.flatMap(\.leafIndices)
            case .constant: []
            }
        }
    }

    /// A leaf condition (one comparison, or a host's answer: outcomes `true` and `false`), a validation
    /// (`true` passed, `false` failed), a choice or an end state (outcome `true`).
    public struct Point: Sendable {
        public var question: String
        public var description: String
        public var location: SourceLocation
        /// Why an outcome can never happen, when the format can tell.
        public var impossible: [Bool: String]

        public init(question: String, description: String, location: SourceLocation, impossible: [Bool: String] = [:]) {
            self.question = question
            self.description = description
            self.location = location
            self.impossible = impossible
        }
    }

    public struct QuestionPoint: Sendable {
        public var id: String
        public var location: SourceLocation
        /// Indices in `decisions` of the decisions about this question.
        public var decisions: [Int]
        /// Why the question can never be shown (and so never answered), when the format can tell.
        public var neverShown: String?

        public init(id: String, location: SourceLocation, decisions: [Int], neverShown: String? = nil) {
            self.id = id
            self.location = location
            self.decisions = decisions
            self.neverShown = neverShown
        }
    }
}
