import SurveyCore

/// One pass over every `show_if` of a survey: compiles each condition to answer slots and collects what
/// sessions, walks and checks need from them (dependencies, literals, host keys, what can crash), and
/// every id no question has.
struct SurveyNativeConditionIndex {
    let file: String
    let slotByID: IDIndex
    let questionIDs: () -> [String]
    private(set) var compiled: [CompiledCondition?] = []
    /// For each slot, the slots its `show_if` names, in first-use order.
    private(set) var dependencySlots: [[Int]] = []
    /// For each slot, the condition leaves that compare its answer.
    private(set) var leavesAbout: [[ConditionLeaf]]
    private(set) var hostKeys: [String] = []
    private(set) var hostDependents: [String: [Int]] = [:]
    /// The evaluated leaves that lack their `value`: evaluating one crashes the engine.
    private(set) var valuelessLeaves: [Condition] = []
    /// The conditions without an `operation` string, by where they are: evaluating one crashes the engine.
    let crashes: [SourcePosition: String]
    private(set) var problems: [Diagnostic] = []

    init(file: String, questions: [SurveyNative.Question], slotByID: IDIndex, crashes: [SourcePosition: String] = [:]) {
        self.file = file
        self.crashes = crashes
        self.slotByID = slotByID
        self.questionIDs = { questions.map(\.id) }
        self.leavesAbout = Array(repeating: [], count: questions.count)
        compiled.reserveCapacity(questions.count)
        dependencySlots.reserveCapacity(questions.count)
        for slot in questions.indices {
            var dependencies: [Int] = []
            compiled.append(questions[slot].showIf.map { compile($0, of: slot, subject: questions[slot].id, evaluated: true, into: &dependencies) })
            dependencySlots.append(dependencies)
        }
    }

    /// Compiles one condition that is not part of the survey (from a properties file).
    static func compile(
        _ condition: Condition, file: String, slotByID: IDIndex, crashes: [SourcePosition: String] = [:], questionIDs: @escaping () -> [String]
    ) -> (condition: CompiledCondition, problems: [Diagnostic], lacksValue: Bool) {
        var index = SurveyNativeConditionIndex(file: file, questions: [], slotByID: slotByID, crashes: crashes)
        var dependencies: [Int] = []
        let compiled = index.compile(condition, of: -1, subject: nil, evaluated: true, into: &dependencies)
        return (compiled, index.problems, index.hasCrashingConditions)
    }

    /// Whether evaluating some condition crashes the engine (a leaf without `value`, a condition without
    /// `operation`).
    var hasCrashingConditions: Bool { !valuelessLeaves.isEmpty || !crashes.isEmpty }

    static let danglingHint = "use the id of a question in this file (ids are case-sensitive)"

    /// `subject` is the id of the question whose condition this is, for messages; nil for a condition of its own.
    private mutating func compile(
        _ condition: Condition, of slot: Int, subject: String?, evaluated: Bool, into dependencies: inout [Int]
    ) -> CompiledCondition {
        if let reason = crashes[condition.location.position] {
            // Still read for its ids (the dependency map collects them), but evaluating it crashes.
            switch condition.kind {
            case .leaf(let leaf): _ = resolve(leaf.question, subject.map { "show_if of '\($0)'" } ?? "the condition", condition.location, into: &dependencies)
            case .all(let children): for child in children { _ = compile(child, of: slot, subject: subject, evaluated: false, into: &dependencies) }
            default: break
            }
            return .crash(reason)
        }
        switch condition.kind {
        case .leaf(let leaf):
            guard let target = resolve(leaf.question, subject.map { "show_if of '\($0)'" } ?? "the condition", condition.location, into: &dependencies) else {
                return .constant(false)
            }
            if leaf.operand != nil {
                if target < leavesAbout.count { leavesAbout[target].append(leaf) }
            } else if evaluated {
                valuelessLeaves.append(condition)
            }
            return CompiledCondition(leaf: leaf, slot: target)
        case .all(let children):
            return .all(children.map { compile($0, of: slot, subject: subject, evaluated: evaluated, into: &dependencies) })
        case .any(let children):
            return .any(children.map { compile($0, of: slot, subject: subject, evaluated: evaluated, into: &dependencies) })
        case .host(let host):
            for input in host.inputs {
                _ = resolve(input, subject.map { "the custom condition of '\($0)'" } ?? "the custom condition", condition.location, into: &dependencies)
            }
            if let key = host.key {
                if !hostKeys.contains(key) { hostKeys.append(key) }
                if hostDependents[key]?.last != slot { hostDependents[key, default: []].append(slot) }
            }
            return .host(key: host.key)
        case .constant(let value, _, let ignored):
            // Never evaluated, but the engine still collects the ids inside into its dependency map.
            for child in ignored { _ = compile(child, of: slot, subject: subject, evaluated: false, into: &dependencies) }
            return .constant(value)
        }
    }

    /// The slot of an id a condition names, added to the dependencies; nil (and a problem) when no question has it.
    private mutating func resolve(_ id: String, _ what: @autoclosure () -> String, _ location: SourceLocation, into dependencies: inout [Int]) -> Int? {
        guard let slot = slotByID[id] else {
            problems.append(
                Diagnostic(
                    file: file, location: location,
                    message: "\(what()) refers to '\(id)', which no question has\(Spelling.suggestion(for: id, in: questionIDs()))",
                    hint: SurveyNativeConditionIndex.danglingHint, rule: "sn-dangling-id"))
            return nil
        }
        if !dependencies.contains(slot) { dependencies.append(slot) }
        return slot
    }
}
