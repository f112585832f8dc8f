import SurveyCore

/// The results a running task builds, as the engine holds them: each navigator (the task, each section) has
/// a branch result with its `stepHistory` and, from SageResearch 3.4.92, its path. Navigation reads these
/// (which answer a rule sees, whether a jump goes backward, where Back leads), so the session keeps them as
/// the engine does rather than a list of answers.
struct SageBranchResult: Sendable {
    var identifier: String
    /// The section the result belongs to (nil: the task).
    var section: Int?
    var stepHistory: [SageResultEntry] = []
    var path: [SagePathMarker] = []
    /// Scenario-clock seconds.
    var start: Int
    var end: Int?

    init(identifier: String, section: Int?, start: Int) {
        self.identifier = identifier
        self.section = section
        self.start = start
        // Room for a task's first steps at once, rather than a copy of the list at each doubling from one.
        stepHistory.reserveCapacity(8)
        path.reserveCapacity(8)
    }
}

/// The navigators' results at one moment: the open navigators (the task's first) and the latest state of each
/// section navigator's result, by instance.
struct SageNavigators: Sendable {
    var open: [SageNavigatorState]
    var branchStates: [Int: SageBranchResult]

    /// The latest state of a section entry's result: its own snapshot, or, where results are shared objects
    /// (SageResearch 4.4+, AssessmentModel), the state its navigator reached.
    func resolved(_ entry: SageResultEntry, engine: SageEngine) -> SageBranchResult? {
        guard case .branch(let snapshot, let instance) = entry.kind else { return nil }
        guard engine.sharesBranchResults else { return snapshot }
        if let live = open.first(where: { $0.instance == instance }) { return live.result }
        return branchStates[instance] ?? snapshot
    }
}

/// One entry of a `stepHistory`.
struct SageResultEntry: Sendable {
    enum Kind: Sendable {
        /// `RSDResultObject` / `ResultObject` of a step without answers.
        case base
        /// `AnswerResultObject` of a v3 or successor question.
        case answer
        /// `RSDCollectionResultObject` of a legacy form.
        case collection
        /// A section's branch result; `instance` tells apart the section navigators that wrote them.
        case branch(SageBranchResult, instance: Int)
    }

    /// How the skip button marked a JsonModel answer in SageResearch 4.x.
    enum Wrapping: Sendable {
        case none
        /// Replaced by a collection result holding the answer (4.0–4.4): rules still find the answer.
        case collection
        /// Wrapped in `RSDNavigationResultObject` (4.5+): serialised as the answer, found by no rule.
        case transient
    }

    var identifier: String
    /// The step it is the result of (nil for a section).
    var step: Int?
    var kind: Kind
    /// An answer's value (nil: none; `.null` for a skip checkbox without a value).
    var value: JSONValue?
    /// A form's input results, in the order they were last changed; a nil value is a cleared field.
    var inputs: [(field: String, value: JSONValue?)] = []
    var skipTo: String?
    var wrapping: Wrapping = .none
    /// When the skip button wrapped the answer (the wrapper's own dates).
    var wrappedAt: Int?
    var start: Int
    var end: Int?

    init(identifier: String, step: Int?, kind: Kind, start: Int) {
        self.identifier = identifier
        self.step = step
        self.kind = kind
        self.start = start
    }

    /// Whether the entry is a navigation result whose `skipToIdentifier` `RSDUIStepObject` reads: every
    /// SageResearch result except a JsonModel answer that no skip wrapped.
    func carriesSkipTarget(jsonModelAnswer: Bool) -> Bool {
        !(jsonModelAnswer && kind.isAnswer && wrapping == .none)
    }
}

extension SageResultEntry {
    /// The child of its navigator the entry is the result of: its step, or its section.
    var node: SageSurvey.Node {
        if let step { return .step(step) }
        guard case .branch(let result, _) = kind, let section = result.section else { preconditionFailure("a result entry of neither a step nor a section") }
        return .section(section)
    }
}

extension SageResultEntry.Kind {
    var isAnswer: Bool {
        if case .answer = self { return true }
        return false
    }
}

/// A path marker: `nodePath` holds only identifiers, JsonModel's `path` identifiers with a direction. It
/// keeps the node its identifier names in the navigator, so that walking the path looks nothing up.
struct SagePathMarker: Sendable, Equatable {
    var identifier: String
    var node: SageSurvey.Node
    var direction: String

    static func forward(_ entry: SageResultEntry) -> SagePathMarker {
        SagePathMarker(identifier: entry.identifier, node: entry.node, direction: "forward")
    }
}

/// What `findAnswer` / `findAnswerResult` found.
enum SageFoundAnswer: Equatable {
    case notFound
    /// An answer result, with its value (nil when it has none).
    case found(JSONValue?)

    var value: JSONValue? {
        if case .found(let value) = self { return value }
        return nil
    }
}

extension SageBranchResult {
    /// `appendStepHistory(with:)`. Up to 3.3.91 an earlier result of the step is removed wherever it is and
    /// the new one goes to the end; from 3.4.92 (and in JsonModel) only a last result of the same step is
    /// replaced, and the path gains the step unless it already ends with it.
    mutating func append(_ entry: SageResultEntry, engine: SageEngine, direction: String = "forward") {
        if engine.keepsHistory {
            // The last result's identifier read in place, not the result copied out.
            if let end = stepHistory.indices.last, stepHistory[end].identifier == entry.identifier { stepHistory.removeLast() }
        } else if let index = stepHistory.firstIndex(where: { $0.identifier == entry.identifier }) {
            stepHistory.remove(at: index)
        }
        stepHistory.append(entry)
        switch engine.pathRecord {
        case .none: break
        case .nodePath:
            if path.last?.identifier != entry.identifier { path.append(.forward(entry)) }
        case .markers: mark(entry.identifier, node: entry.node, direction: direction)
        }
    }

    /// Adds a `path` marker unless the path already ends with it.
    mutating func mark(_ identifier: String, node: SageSurvey.Node, direction: String) {
        let marker = SagePathMarker(identifier: identifier, node: node, direction: direction)
        if path.last != marker { path.append(marker) }
    }

    /// `removeStepHistory(from:)`: up to 3.3.91 the history is cut from the step's result; from 3.4.92 only
    /// the path is cut (from the step's last marker) and the history is left whole. Either way the results
    /// from the step's last one on are returned for the cache that pre-fills a revisit.
    mutating func removeHistory(from identifier: String, engine: SageEngine) -> [SageResultEntry] {
        if !engine.keepsHistory {
            guard let index = stepHistory.firstIndex(where: { $0.identifier == identifier }) else { return [] }
            let removed = Array(stepHistory[index...])
            stepHistory.removeSubrange(index...)
            return removed
        }
        if let index = path.lastIndex(where: { $0.identifier == identifier }) { path.removeSubrange(index...) }
        guard let index = stepHistory.lastIndex(where: { $0.identifier == identifier }) else { return [] }
        return Array(stepHistory[index...])
    }

    /// `findResult(for:)` of SageResearch: the first result of the step. Found by position, so that only the
    /// result found is copied, not each one passed over (asked whenever Done is worked out inside a section).
    func firstResult(_ identifier: String) -> SageResultEntry? {
        stepHistory.firstIndex { $0.identifier == identifier }.map { stepHistory[$0] }
    }

    /// The `skipToIdentifier` of the step's first result, read without copying the result.
    func firstSkipTarget(_ identifier: String) -> String? {
        guard let index = stepHistory.firstIndex(where: { $0.identifier == identifier }) else { return nil }
        return stepHistory[index].skipTo
    }

    func hasResult(_ identifier: String) -> Bool {
        stepHistory.firstIndex { $0.identifier == identifier } != nil
    }

    /// The identifiers of the path the engine walks back along: `nodePath` / `path` when it has any, else
    /// the step history (SageResearch's `_step(before:)`).
    var pathIdentifiers: [String] {
        path.isEmpty ? stepHistory.map(\.identifier) : path.map(\.identifier)
    }

    /// The node of each of `pathIdentifiers`, in order, without making the list.
    func forEachPathNode(_ body: (SageSurvey.Node) -> Void) {
        if path.isEmpty {
            for entry in stepHistory { body(entry.node) }
        } else {
            for marker in path { body(marker.node) }
        }
    }

    /// `findAnswerResult(with:)` / `findAnswer(with:)`: the first answer result with this identifier,
    /// searching the history from its start (SageResearch up to 4.3) or its end (JsonModel from 1.4.6:
    /// SageResearch 4.4+, AssessmentModel), inside form and section results too.
    func findAnswer(_ identifier: String, fromEnd: Bool) -> SageFoundAnswer {
        // By position, either way, rather than through a type-erased collection of copied entries.
        let count = stepHistory.count
        for offset in 0..<count {
            let entry = stepHistory[fromEnd ? count - 1 - offset : offset]
            switch entry.kind {
            case .base: continue
            case .answer:
                guard entry.identifier == identifier, entry.wrapping != .transient else { continue }
                return .found(entry.value)
            case .collection:
                if let input = entry.inputs.first(where: { $0.field == identifier }) { return .found(input.value) }
            case .branch(let branch, _):
                let found = branch.findAnswer(identifier, fromEnd: fromEnd)
                if found != .notFound { return found }
            }
        }
        return .notFound
    }
}
