import SurveyCore

/// The skip logic of one survey as a picture's model, shared by the report's SVG and the DOT export:
/// questions in survey order, each decision about a question kept as its tree of `and`/`or` nodes, and one
/// edge per leaf condition from the question it reads; everything coloured by coverage.
public struct SkipLogicGraph: Sendable {
    /// How far a question got.
    public enum Reach: String, Sendable, CaseIterable {
        case answered
        case shown
        case neverShown = "never-shown"
        case cannotShow = "cannot-show"

        public var label: String {
            switch self {
            case .answered: "shown and answered"
            case .shown: "shown, never answered"
            case .neverShown: "never shown"
            case .cannotShow: "can never be shown"
            }
        }
    }

    /// How the two outcomes (true and false) of a leaf or a decision were covered.
    public enum Outcomes: String, Sendable, CaseIterable {
        /// Both taken, or one taken and the other impossible.
        case both
        /// One taken; the other can happen but never did.
        case oneWay = "one-way"
        /// Neither taken.
        case never
        /// Neither can happen.
        case impossible

        public var label: String {
            switch self {
            case .both: "true and false both taken"
            case .oneWay: "only one outcome taken"
            case .never: "never taken"
            case .impossible: "impossible"
            }
        }
    }

    public struct Question: Sendable {
        public let id: String
        public let text: String?
        public let reach: Reach
        /// Why it can never show, when it cannot.
        public let reason: String?
        /// False for a node that stands for something decided outside the questions (a trigger).
        public let isQuestion: Bool
    }

    public indirect enum Node: Sendable {
        case leaf(Leaf)
        case all([Node])
        case any([Node])
        case constant(Bool)
    }

    public struct Leaf: Sendable {
        public let index: Int
        public let description: String
        /// The question it reads.
        public let source: String
        public let outcomes: Outcomes
        /// The status of each outcome in words (`true: taken 3 times`, `false: impossible: …`).
        public let detail: String
    }

    public struct Decision: Sendable {
        public let index: Int
        /// The question it decides.
        public let question: String
        public let kind: String
        public let root: Node
        public let outcomes: Outcomes
        public let detail: String
    }

    public let questions: [Question]
    public let decisions: [Decision]

    public init(report: CoverageReport, text: (String) -> String? = { _ in nil }) {
        let plan = report.plan
        let status = Dictionary(report.branches.map { ($0.id, $0.status) }, uniquingKeysWith: { first, _ in first })
        func outcomes(_ prefix: String) -> (Outcomes, String) {
            let pair = [true, false].map { status["\(prefix):\($0)"] ?? .notReached }
            let taken = pair.filter(\.isTaken).count
            let impossible = pair.filter(\.isImpossible).count
            let summary: Outcomes =
                taken == 2 || (taken == 1 && impossible == 1) ? .both : taken == 1 ? .oneWay : impossible == 2 ? .impossible : .never
            let detail = zip(["true", "false"], pair).map { "\($0): \(Self.describe($1))" }.joined(separator: "; ")
            return (summary, detail)
        }
        func node(_ tree: CoveragePlan.Node) -> Node {
            switch tree {
            case .leaf(let index):
                let (summary, detail) = outcomes("leaf:\(index)")
                let leaf = plan.leaves[index]
                return .leaf(Leaf(index: index, description: leaf.description, source: leaf.question, outcomes: summary, detail: detail))
            case .all(let children): return .all(children.map(node))
            case .any(let children): return .any(children.map(node))
            case .constant(let value): return .constant(value)
            }
        }
        var questions: [Question] = []
        let known = Set(plan.questions.map(\.id))
        // Decisions about something that is not a question (a trigger, a consent sheet) get a node first.
        for decision in plan.decisions where !known.contains(decision.question) && !questions.contains(where: { $0.id == decision.question }) {
            questions.append(Question(id: decision.question, text: nil, reach: .shown, reason: nil, isQuestion: false))
        }
        for (index, question) in plan.questions.enumerated() {
            let counts = report.branches.filter { $0.id == "question:\(index):shown" || $0.id == "question:\(index):answered" }.map(\.status)
            let reach: Reach =
                question.neverShown != nil ? .cannotShow : counts.count > 1 && counts[1].isTaken ? .answered : counts.first?.isTaken == true ? .shown : .neverShown
            questions.append(Question(id: question.id, text: text(question.id), reach: reach, reason: question.neverShown, isQuestion: true))
        }
        self.questions = questions
        self.decisions = plan.decisions.enumerated().map { index, decision in
            let (summary, detail) = outcomes("decision:\(index)")
            return Decision(index: index, question: decision.question, kind: decision.kind, root: node(decision.tree), outcomes: summary, detail: detail)
        }
    }

    static func describe(_ status: CoverageReport.Status) -> String {
        switch status {
        case .taken(let count): "taken \(count) time\(count == 1 ? "" : "s")"
        case .notTaken: "reached, not taken"
        case .notReached: "never reached"
        case .impossible(let reason): "impossible: \(reason)"
        }
    }

    /// Colours shared by the SVG and DOT pictures.
    public static func color(_ reach: Reach) -> (fill: String, stroke: String) {
        switch reach {
        case .answered: ("#d9f2df", "#1b6e35")
        case .shown: ("#fff0cc", "#7a4f00")
        case .neverShown: ("#fde4e2", "#a8201a")
        case .cannotShow: ("#ececec", "#777777")
        }
    }

    public static func color(_ outcomes: Outcomes) -> String {
        switch outcomes {
        case .both: "#1b6e35"
        case .oneWay: "#c77700"
        case .never: "#a8201a"
        case .impossible: "#9e9e9e"
        }
    }
}
