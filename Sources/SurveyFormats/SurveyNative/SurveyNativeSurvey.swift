import SurveyCore

/// A loaded SurveyNative survey: its questions in slot order (each top-level question followed by its
/// sub-questions), the id index, compiled conditions and the dependency graph the engine re-evaluates.
public struct SurveyNativeSurvey: Survey {
    public let format = SurveyNativeFormat.name
    public let file: String
    /// Every question, top-level and sub, in document order; a question's index here is its slot.
    public let questions: [SurveyNative.Question]
    /// The slot of each top-level question.
    public let topLevel: [Int]
    /// For each slot, the index of the top-level question whose section shows it (itself when top-level).
    let owners: [Int]
    public let slotByID: IDIndex
    public let submit: SurveyNative.Submit
    /// Host-decided (custom) condition keys, in first-use order.
    public let hostConditionKeys: [String]
    /// Compiled `show_if` of each slot.
    let showIf: [CompiledCondition?]
    /// For each slot, the top-level questions whose `show_if` names it directly (the engine follows these
    /// edges transitively when that answer changes: `maybeSkippedQuestions`, SQ:95-141).
    let directDependents: [[Int]]
    /// For each slot, the sub-questions whose `show_if` names it (evaluated afresh when it changes).
    let subDependents: [[Int]]
    /// For each slot, the slots its own `show_if` names.
    let dependencySlots: [[Int]]
    /// For each top-level question, the smallest index among the questions that depend on it, directly or
    /// not (`Int.max` for none): a change can only matter on screen if that is not beyond the active one.
    let firstDownstream: [Int]
    /// For each host condition key, the slots whose `show_if` uses it.
    let hostDependents: [String: [Int]]
    /// The slot after the last sub-question of each top-level question.
    let sectionEnd: [Int]
    /// For each slot, the condition leaves that compare its answer (for values worth trying).
    let leavesAbout: [[ConditionLeaf]]
    /// Whether anything in the file can crash the real engine, so sessions must be able to undo a step.
    let mayCrash: Bool
    /// Whether a condition lacks its `value`, so evaluation itself can crash: sessions then evaluate every
    /// dependent when the engine does, to crash at the same step.
    let hasCrashingConditions: Bool
    /// The coverage layout, worked out once when first needed.
    let coverageLayout = Lazy<SurveyNativeCoverageLayout>()

    init(_ outline: SurveyNativeOutline) throws(InputError) {
        if let error = outline.loadError { throw error }
        let questions = outline.questions
        let topLevel = outline.topLevel
        let submit = outline.submit
        let index = outline.conditions
        self.file = outline.file
        self.questions = questions
        self.topLevel = topLevel
        let owners = questions.map(\.owner)
        self.owners = owners
        self.submit = submit
        self.slotByID = outline.slotByID

        // The loops over questions read one field at a time: copying a whole question retains all its parts.
        var mayCrash = index.hasCrashingConditions || questions.indices.contains { questions[$0].crash != nil }
            || submit.url.map(SurveyNativeSurvey.isValidURL) != true || submit.buttonTitle == nil
        for slot in questions.indices {
            let kind = questions[slot].kind
            for validation in kind.allValidations {
                if case .answer = validation.operand { mayCrash = true }
                if validation.failMessage == nil { mayCrash = true }
            }
            if case .dynamicLabelTextField(_, _, let validations) = kind, validations.contains(where: { $0.forLabel == nil }) {
                mayCrash = true
            }
        }
        self.hostConditionKeys = index.hostKeys
        self.hostDependents = index.hostDependents
        self.mayCrash = mayCrash
        self.hasCrashingConditions = index.hasCrashingConditions
        self.showIf = index.compiled
        let dependencySlots = index.dependencySlots
        self.dependencySlots = dependencySlots
        self.leavesAbout = index.leavesAbout
        var dependents = [[Int]](repeating: [], count: questions.count)
        var subDependents = [[Int]](repeating: [], count: questions.count)
        for slot in questions.indices {
            for dependency in dependencySlots[slot] {
                if questions[slot].isSubQuestion { subDependents[dependency].append(slot) } else { dependents[dependency].append(owners[slot]) }
            }
        }
        self.directDependents = dependents
        self.subDependents = subDependents
        self.sectionEnd = topLevel.indices.map { $0 + 1 < topLevel.count ? topLevel[$0 + 1] : questions.count }
        self.firstDownstream = SurveyNativeSurvey.firstDownstream(topLevel: topLevel, dependents: dependents)
    }

    /// The smallest index among each top-level question's dependents, direct or not; the dependents form
    /// no cycle (checked before), so a depth-first pass settles each question once.
    private static func firstDownstream(topLevel: [Int], dependents: [[Int]]) -> [Int] {
        var result = [Int](repeating: -1, count: topLevel.count)
        for start in topLevel.indices where result[start] < 0 {
            var stack: [(index: Int, next: Int)] = [(start, 0)]
            while let (index, next) = stack.last {
                let children = dependents[topLevel[index]]
                if next < children.count {
                    stack[stack.count - 1].next += 1
                    if result[children[next]] < 0 { stack.append((children[next], 0)) }
                } else {
                    result[index] = children.reduce(Int.max) { min($0, $1, result[$1]) }
                    stack.removeLast()
                }
            }
        }
        return result
    }

    public var questionIDs: [String] { questions.map(\.id) }

    public func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession {
        SurveyNativeSession(survey: self, settings: settings, coverage: coverage)
    }

    public func question(_ id: String) -> SurveyNative.Question? {
        slotByID[id].map { questions[$0] }
    }

    /// Whether `URL(string:)` would return a URL (it returns nil for an empty string or characters
    /// outside RFC 3986); the engine force-unwraps it on submit.
    static func isValidURL(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        return text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
            }
        }
    }
}

extension SurveyNative.Kind {
    var allValidations: [SurveyNative.Validation] {
        switch self {
        case .singleSelect(let options), .multiSelect(let options):
            options.flatMap { option -> [SurveyNative.Validation] in
                if case .other(_, let validations) = option { return validations }
                return []
            }
        case .singleTextField(_, let validations), .multiTextField(_, let validations), .dynamicLabelTextField(_, _, let validations):
            validations
        case .yearPicker, .datePicker, .singleTextArea, .addTextField, .segmentSelect, .tableSelect, .unknown:
            []
        }
    }
}

/// A survey file as read, with what is worked out from its questions before it can run: the id index, the
/// compiled conditions, and every problem that keeps it from loading (each repeated id, each id no question
/// has, each dependency cycle). A load makes a `SurveyNativeSurvey` of it when it has none; lint reports
/// them all.
struct SurveyNativeOutline {
    let file: String
    /// Every question, top-level and sub, in document order (slot order).
    let questions: [SurveyNative.Question]
    /// The slot of each top-level question.
    let topLevel: [Int]
    let submit: SurveyNative.Submit
    /// The slot of each id (of its first question when the id is repeated).
    let slotByID: IDIndex
    let conditions: SurveyNativeConditionIndex
    /// Each question whose id an earlier one has, located at the later one.
    let duplicateIDs: [Diagnostic]
    /// Each id that a show_if, a custom condition or an answer_to_question_id names and no question has, in
    /// file order.
    let danglingIDs: [Diagnostic]
    /// Each cycle of show_if dependencies among top-level questions, in the order a depth-first search
    /// closes them.
    let cycles: [Diagnostic]

    init(file: String, questions: [SurveyNative.Question], topLevel: [Int], submit: SurveyNative.Submit, conditionCrashes: [SourcePosition: String] = [:]) {
        self.file = file
        self.questions = questions
        self.topLevel = topLevel
        self.submit = submit

        let (slotByID, repeats) = IDIndex.build(questions.map(\.id))
        self.slotByID = slotByID
        self.duplicateIDs = repeats.map { slot, first in
            let question = questions[slot]
            return Diagnostic(
                file: file, location: question.location,
                message: "duplicate id '\(question.id)' (first at \(questions[first].location.position)); expected every question id once, since answers are keyed by id",
                hint: "rename one of them: the engine stores both answers under one key, the later overwriting the earlier",
                rule: "sn-duplicate-id")
        }

        let conditions = SurveyNativeConditionIndex(file: file, questions: questions, slotByID: slotByID, crashes: conditionCrashes)
        self.conditions = conditions
        var dangling = conditions.problems
        for slot in questions.indices {
            for validation in questions[slot].kind.allValidations {
                if case .answer(let other) = validation.operand, slotByID[other] == nil {
                    dangling.append(
                        Diagnostic(
                            file: file, location: validation.location,
                            message: "a validation of '\(questions[slot].id)' refers to '\(other)', which no question has\(Spelling.suggestion(for: other, in: questions.map(\.id)))",
                            hint: SurveyNativeConditionIndex.danglingHint, rule: "sn-dangling-id"))
                }
            }
        }
        self.danglingIDs = dangling.sorted {
            ($0.position ?? SourcePosition(line: 0, column: 0)) < ($1.position ?? SourcePosition(line: 0, column: 0))
        }
        self.cycles = SurveyNativeOutline.dependencyCycles(
            file: file, questions: questions, topLevel: topLevel, dependencySlots: conditions.dependencySlots)
    }

    /// What stops a load, as loading reports it: the first repeated id, else every id no question has, else
    /// the first cycle.
    var loadError: InputError? {
        if let duplicate = duplicateIDs.first { return InputError(duplicate) }
        if !danglingIDs.isEmpty { return InputError(danglingIDs) }
        return cycles.first.map { InputError($0) }
    }

    /// The real engine makes its dependency map transitive by a recursion without a visited set, so a
    /// cycle of `show_if` references among top-level questions never ends: it crashes loading the file
    /// (reference, addendum).
    private static func dependencyCycles(
        file: String, questions: [SurveyNative.Question], topLevel: [Int], dependencySlots: [[Int]]
    ) -> [Diagnostic] {
        enum Mark { case unvisited, inProgress, done }
        var marks = [Mark](repeating: .unvisited, count: topLevel.count)
        var path: [Int] = []
        var cycles: [Diagnostic] = []
        // Iterative depth-first search over "show_if of i names top-level question j, which has a show_if";
        // each edge back to a question in progress closes one cycle.
        func successors(_ index: Int) -> [Int] {
            dependencySlots[topLevel[index]].compactMap { slot in
                !questions[slot].isSubQuestion && questions[slot].showIf != nil ? questions[slot].owner : nil
            }
        }
        for start in topLevel.indices where marks[start] == .unvisited {
            var stack: [(index: Int, next: [Int])] = [(start, successors(start))]
            marks[start] = .inProgress
            path = [start]
            while !stack.isEmpty {
                if let successor = stack[stack.count - 1].next.popLast() {
                    switch marks[successor] {
                    case .inProgress:
                        let cycleStart = path.firstIndex(of: successor)!
                        let names = (path[cycleStart...] + [successor]).map { questions[topLevel[$0]].id }
                        let question = questions[topLevel[successor]]
                        cycles.append(
                            Diagnostic(
                                file: file, location: question.showIf!.location,
                                message: "show_if dependencies form a cycle (\(names.joined(separator: " → "))); the real engine's dependency recursion never ends and it crashes loading the file",
                                hint: "make each show_if depend only on questions whose own show_if does not lead back here",
                                rule: "sn-dependency-cycle"))
                    case .unvisited:
                        marks[successor] = .inProgress
                        path.append(successor)
                        stack.append((successor, successors(successor)))
                    case .done: break
                    }
                } else {
                    marks[stack.removeLast().index] = .done
                    path.removeLast()
                }
            }
        }
        return cycles
    }
}
