import SurveyCore

/// Runs the same walks against two versions of a survey (or one survey under two profiles) and reports the
/// shortest paths after which a respondent sees or submits something different, grouped by the question
/// where the difference shows.
///
/// Two versions under one engine replay each walk's actions on both (`.actions`). Two engines (profiles)
/// may navigate differently (a scrolling form against one step at a time), so their taps do not carry over:
/// there each walk's submitted answers are given to the other side as `import` gives a payload, and what the
/// respondent is shown and what is submitted are compared (`.answers`, in Comparer+Answers.swift).
public struct Comparer {
    public let old: any Survey
    public let new: any Survey
    public let oldSettings: SessionSettings
    public let newSettings: SessionSettings
    /// How messages name the two sides: "the old version" and "the new version", or the profiles.
    public let names: (old: String, new: String)
    public let replay: Replay
    public let maxSteps: Int

    public enum Replay: Sendable {
        /// The walk's actions, on both sides.
        case actions
        /// The walk's submitted answers, on the other side.
        case answers
    }

    public init(old: any Survey, new: any Survey, settings: SessionSettings, maxSteps: Int) {
        self.init(old: old, new: new, oldSettings: settings, newSettings: settings, names: ("the old version", "the new version"), replay: .actions, maxSteps: maxSteps)
    }

    public init(
        old: any Survey, new: any Survey, oldSettings: SessionSettings, newSettings: SessionSettings, names: (old: String, new: String), replay: Replay,
        maxSteps: Int
    ) {
        self.old = old
        self.new = new
        self.oldSettings = oldSettings
        self.newSettings = newSettings
        self.names = names
        self.replay = replay
        self.maxSteps = maxSteps
    }

    /// One way the versions differ: the question where it shows, what differs, and the shortest path found.
    public struct Difference: Sendable {
        public var question: String
        public var detail: String
        public var actions: [Action]
        /// How many walks ran into it.
        public var walks: Int
        /// The side whose walk the path is (replayed by answers), or nil when it is replayed on both.
        public var walkedOnOld: Bool? = nil
    }

    public func run(walks: Int, seed: UInt64) -> [Difference] {
        var found: [String: Difference] = [:]
        var order: [String] = []
        // Walks chosen on each version (or profile), replayed on both: paths that exist only in the new one count too.
        for (index, survey) in [old, new].enumerated() {
            var walker = Walker(survey: survey, settings: index == 0 ? oldSettings : newSettings, maxSteps: maxSteps, builtInProperties: false, properties: nil)
            for walk in 0..<walks {
                var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(seed &+ UInt64(index), walk: walk)))
                let actions = walker.walk(&stream).actions
                let differences = replay == .actions ? [firstDifference(actions)].compactMap { $0 } : answerDifferences(actions, onOld: index == 0)
                for difference in differences {
                    let key = difference.question
                    if var known = found[key] {
                        known.walks += 1
                        if difference.actions.count < known.actions.count {
                            known.actions = difference.actions
                            known.detail = difference.detail
                            known.walkedOnOld = difference.walkedOnOld
                        }
                        found[key] = known
                    } else {
                        found[key] = difference
                        order.append(key)
                    }
                }
            }
        }
        return order.map { key in
            var difference = found[key]!
            if let onOld = difference.walkedOnOld {
                difference.actions = shrinkAnswers(difference.actions, question: key, onOld: onOld)
                difference.detail = answerDifferences(difference.actions, onOld: onOld).first { $0.question == key }?.detail ?? difference.detail
            } else {
                difference.actions = shrink(difference.actions, question: key)
                difference.detail = firstDifference(difference.actions)?.detail ?? difference.detail
            }
            return difference
        }.sorted { ($0.actions.count, $0.question) < ($1.actions.count, $1.question) }
    }

    /// Whether every action of a path fits one side's survey (none is a stale step there): a path saved as a
    /// scenario must replay on the version it names.
    public func fits(_ actions: [Action], onOld: Bool) -> Bool {
        let session = onOld ? old.makeSession(oldSettings) : new.makeSession(newSettings)
        return actions.allSatisfy { action in
            if case .doesNotFit = session.perform(action).outcome { false } else { true }
        }
    }

    /// The first step after which the two versions differ, as a difference whose path ends there.
    public func firstDifference(_ actions: [Action]) -> Difference? {
        let left = old.makeSession(oldSettings)
        let right = new.makeSession(newSettings)
        if let difference = compare(left, right, after: nil, path: []) { return difference }
        for (index, action) in actions.enumerated() {
            let a = left.perform(action)
            let b = right.perform(action)
            let path = Array(actions[...index])
            if outcomeKind(a.outcome) != outcomeKind(b.outcome) {
                let question = action.question ?? "(\(ScenarioSyntax.text(of: action)))"
                return Difference(
                    question: question,
                    detail: "'\(ScenarioSyntax.text(of: action))' is \(describe(a.outcome)) in \(names.old) and \(describe(b.outcome)) in \(names.new)",
                    actions: path, walks: 1)
            }
            if let difference = compare(left, right, after: action, path: path) { return difference }
        }
        if let payloadDifference = comparePayloads(left.payload, right.payload, path: actions) { return payloadDifference }
        return nil
    }

    private func compare(_ left: any SurveySession, _ right: any SurveySession, after action: Action?, path: [Action]) -> Difference? {
        let a = Trace.View(of: left)
        let b = Trace.View(of: right)
        guard a != b else { return nil }
        let onlyOld = a.visible.filter { !b.visible.contains($0) }
        let onlyNew = b.visible.filter { !a.visible.contains($0) }
        let place = action.map { "after '\(ScenarioSyntax.text(of: $0))'" } ?? "before the first action"
        // The difference is about the earliest question, in document order, that one version shows and the
        // other does not; what follows it is a consequence.
        let order = Dictionary(new.questionIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let fallback = Dictionary(old.questionIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        if let question = (onlyOld + onlyNew).min(by: { (order[$0] ?? fallback[$0] ?? .max) < (order[$1] ?? fallback[$1] ?? .max) }) {
            var parts: [String] = []
            if !onlyOld.isEmpty { parts.append("only \(names.old) shows \(onlyOld.joined(separator: ", "))") }
            if !onlyNew.isEmpty { parts.append("only \(names.new) shows \(onlyNew.joined(separator: ", "))") }
            return Difference(question: question, detail: "\(place), " + parts.joined(separator: "; "), actions: path, walks: 1)
        }
        if a.current != b.current {
            return Difference(
                question: a.current ?? b.current ?? "(current)",
                detail: "\(place), the current question is \(a.current ?? "none") in \(names.old) and \(b.current ?? "none") in \(names.new)",
                actions: path, walks: 1)
        }
        if a.visible != b.visible {
            return Difference(question: a.visible.first ?? "(order)", detail: "\(place), the visible questions are in another order", actions: path, walks: 1)
        }
        return Difference(
            question: "(submit)", detail: "\(place), Submit is \(a.submittable ? "shown" : "not shown") in \(names.old) and \(b.submittable ? "shown" : "not shown") in \(names.new)",
            actions: path, walks: 1)
    }

    private func comparePayloads(_ a: JSONValue?, _ b: JSONValue?, path: [Action]) -> Difference? {
        guard a != b else { return nil }
        return Difference(
            question: "(payload)",
            detail: "the submitted payloads differ: \(names.old) \(a.map(CanonicalJSON.compact) ?? "none"), \(names.new) \(b.map(CanonicalJSON.compact) ?? "none")",
            actions: path, walks: 1)
    }

    /// Removes actions one at a time while the first difference stays at the same question.
    private func shrink(_ actions: [Action], question: String) -> [Action] {
        Self.removingActions(actions) { candidate in
            firstDifference(candidate).flatMap { $0.question == question ? $0.actions : nil }
        }
    }

    /// Removes actions one at a time, latest first, while `stillDiffers` returns the path that still shows
    /// the difference (which may be shorter than the candidate); stops when no single removal keeps it.
    static func removingActions(_ actions: [Action], stillDiffers: ([Action]) -> [Action]?) -> [Action] {
        var best = actions
        var removed = true
        while removed {
            removed = false
            for index in best.indices.reversed() {
                var candidate = best
                candidate.remove(at: index)
                if let shorter = stillDiffers(candidate) {
                    best = shorter
                    removed = true
                    break
                }
            }
        }
        return best
    }

    private func outcomeKind(_ outcome: Outcome) -> String {
        switch outcome {
        case .ok: "ok"
        case .rejected: "rejected"
        case .validationFailed: "validation failed"
        case .doesNotFit: "impossible"
        }
    }

    private func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .ok: "accepted"
        case .rejected(let reason): "refused (\(reason))"
        case .validationFailed(let message): "refused by a validation (\(message))"
        case .doesNotFit(let reason): "impossible (\(reason))"
        }
    }
}
