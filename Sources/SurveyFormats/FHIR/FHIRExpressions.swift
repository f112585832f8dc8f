import FHIRPath
import SurveyCore

/// What SDC expression evaluation remembers between changes. It lives in the session's state, so an action
/// the engine fails on undoes it with the rest.
struct FHIRExpressionMemory: Sendable {
    /// Each instance's enableWhenExpression outcome, by instance id (absent: not evaluated yet).
    var enabled: [String: Bool] = [:]
    /// The values each calculated instance was last given, by instance id.
    var calculated: [String: [FHIR.Value]] = [:]
    /// Calculated instances the respondent changed: no longer calculated.
    var overridden: Set<String> = []
    /// The answer options an answerExpression (or android-fhir's answerOptionsToggleExpression) offers now,
    /// by instance id.
    var options: [String: [FHIR.Value]] = [:]
    /// The answers as the last pass read them in the response: what changed since is what a pass
    /// re-evaluates.
    var seen = FHIRSeenAnswers()
    /// Whether a pass has run (the first evaluates everything).
    var started = false
    /// The instances whose answers expressions changed since the session last reported them, in order.
    var computed: [String] = []
    /// How many expressions were evaluated (an instance's, or a variable's), for tests that count work.
    var evaluations = 0
    /// How many times the response was built for expressions to read, for tests that count work.
    var responsesBuilt = 0
    /// How many instances' answers passes compared with those the pass before saw, for tests that count work.
    var instancesCompared = 0
    /// How many of the evaluations worked their result out rather than finding it kept with the response
    /// (`FHIRExpressionResults`), for tests that count work.
    var resultsComputed = 0
    /// LHC-Forms: each variable's value by the id of the instance defining it ("" on the Questionnaire), kept
    /// until something it reads changes.
    var variables = FHIRVariableValues()
    /// Whether the form is still opening: LHC-Forms runs initialExpressions in every round of its first run.
    var opening = true
    /// The instances the last pass read (`FHIRInstances.listing`, the same object while they stay the same).
    var seenInstances: FHIRInstances.Listing?
    /// The instances whose answers or enablement changed since the last pass that ran, by slot (what the
    /// response holds of them may differ from what that pass saw); emptied by a pass left out as idle too.
    var changedSince: [Int32] = []

    /// Notes that a pass read these instances: the changes since are none so far.
    mutating func saw(_ instances: FHIRInstances) {
        seenInstances = instances.listing
        changedSince = []
    }

    /// Notes that a pass was left out as idle: what changed since is read by nothing (and nothing reads every
    /// answer, or nothing changed), so no later pass selects by it, and the list starts again rather than
    /// growing over a run of idle passes.
    mutating func leftOutIdlePass() {
        changedSince.removeAll(keepingCapacity: true)
    }

    /// Records an instance's enableWhenExpression outcome; whether it differs from the last one.
    mutating func setEnabled(_ value: Bool, for id: String) -> Bool {
        guard enabled[id] != value else { return false }
        enabled[id] = value
        return true
    }

    /// Renames instance ids (a repeating group's instances renumbered), dropping those `rename` drops. What
    /// the last pass saw keeps its ids: against it, the renumbered instances are changes a pass must see.
    mutating func rename(_ rename: (String) -> String?) {
        func moved<Value>(_ map: [String: Value]) -> [String: Value] {
            var result: [String: Value] = [:]
            for (id, value) in map { if let new = rename(id) { result[new] = value } }
            return result
        }
        enabled = moved(enabled)
        calculated = moved(calculated)
        options = moved(options)
        overridden = Set(overridden.compactMap(rename))
    }
}

/// The answers the response held at a pass: each instance's by its position, with the instances' ids then
/// (against another list of instances, they are matched by id).
struct FHIRSeenAnswers: Sendable {
    var ids: [String] = []
    var answers: [[FHIR.Value]] = []
}

/// What one pass of the expressions changed, or what the engine threw.
struct FHIRExpressionPass {
    /// The instances whose answers the pass changed, by position in the tree (each once, in the order
    /// first changed).
    var written: [Int] = []
    var answersChanged = false
    var enablementChanged = false
    var failure: String?
}

/// The SDC expressions of a session: the environment every evaluation starts from (`%questionnaire`, the
/// launch contexts the form declares and the host gave, the clock) and the passes that evaluate them, each as
/// the session's engine does (docs/fhir.md, "SDC expressions"). A pass re-evaluates only the expressions
/// that read an answer that changed since the last one (and what reads their variables or values), in the
/// program's order, so what an expression reads is computed before it.
///
/// The session's interface: `run` (answers in, computed answers and enablement out), `enables` (the
/// enablement of an item with an enableWhenExpression), `options` (computed answer options).
final class FHIRExpressions: Sendable {
    let survey: FHIRSurvey
    let engine: FHIREngine
    private var program: FHIRExpressionProgram { survey.expressionProgram }
    /// `%questionnaire` and the launch contexts bound, the Questionnaire's items, what the engine throws on as
    /// the form opens: shared by the survey's sessions under the same settings.
    private let shared: FHIRExpressionConstants
    private var constants: [(name: String, value: FHIRPathCollection)] { shared.list }
    private var boundConstants: FHIRPathEnvironment { shared.bound }
    private var populationConstants: FHIRPathEnvironment { shared.population }
    private var questionnaireItems: [FHIRNode] { shared.questionnaireItems }
    private var openingProblem: String? { shared.openingProblem }
    /// Where the `iif` branches evaluations take are reported, when the session records coverage.
    private let iifCoverage: FHIRIIFCoverage?
    /// The session's settings: the clock's date, and part of the key the responses read are kept by.
    private let settings: SessionSettings

    /// Nil for a Questionnaire without expressions to evaluate. With a recorder, the `iif` branches taken are
    /// reported to it.
    init?(survey: FHIRSurvey, settings: SessionSettings, coverage: CoverageRecorder? = nil) {
        guard !survey.expressionProgram.isEmpty, let questionnaire = survey.questionnaireTree else { return nil }
        self.survey = survey
        engine = survey.engine
        self.settings = settings
        iifCoverage = coverage.map { FHIRIIFCoverage(recorder: $0, layout: survey.layout()) }
        shared = survey.expressionConstants.get(settings) { FHIRExpressionConstants(survey: survey, questionnaire: questionnaire, settings: settings) }
    }

    /// The enablement an item's enableWhenExpression gives an instance, as the engine combines it with its
    /// enableWhen: nil to read the enableWhen alone. LHC-Forms enables an item while the expression is not
    /// false and its enableWhen holds (`targetEnabled`, LHNCBC/lforms@24c71875 src/lib/lforms/internal-utils.js:479-482),
    /// so an expression not yet evaluated enables; android-fhir reads the expression and ignores enableWhen
    /// (google/android-fhir@28a50345 …/enablement/EnablementEvaluator.kt:142-151).
    func enables(_ id: String, of item: FHIR.Item, _ memory: FHIRExpressionMemory) -> Bool? {
        guard item.enablementIsExpression else { return nil }
        let value = memory.enabled[id] ?? true
        if engine == .lhcForms, value, !item.enableWhen.isEmpty { return nil }
        return value
    }

    // MARK: passes

    /// Whether a pass now would evaluate nothing and write nothing, so that the session can leave it out
    /// (LHC-Forms; an android-fhir pass evaluates its enableWhenExpressions and options every time): the form
    /// has opened, the instances are those the last pass read, and none whose answers or enablement changed
    /// since is of an item an expression reads (nor, when any changed, does an expression read every answer).
    /// Such a pass selects nothing (`selection`); all it does is note the answers it saw (`changedItems`), and
    /// leaving that out only leaves older answers noted for items nothing reads, which no later pass selects by.
    func passIsIdle(_ memory: FHIRExpressionMemory, instances: FHIRInstances) -> Bool {
        guard engine == .lhcForms, memory.started, let seen = memory.seenInstances, seen === instances.listing else { return false }
        guard !memory.changedSince.isEmpty else { return true }
        guard program.readersOfAnyAnswer.isEmpty else { return false }
        return memory.changedSince.allSatisfy { program.readersOfItem[instances.item($0)].isEmpty }
    }

    /// Leaves the pass out when it is idle (`passIsIdle`), noting so in the memory; whether it did. The memory
    /// is the session's own, changed in place: passed by value, the session's stored memory would be copied
    /// whole (a dozen tables retained and released) at every change.
    func leavesOutIdlePass(_ memory: inout FHIRExpressionMemory, instances: FHIRInstances) -> Bool {
        guard passIsIdle(memory, instances: instances) else { return false }
        memory.leftOutIdlePass()
        return true
    }

    /// Evaluates what changed since the last pass. `answers` are the session's, by position in the tree
    /// (computed values are written into them); `withheld`, by position, those android-fhir cleared.
    /// `sameInstances`: whether the instances are those the last pass read (`FHIRExpressionMemory.seenInstances`),
    /// so that what changed since is among `changedSince`.
    func run(
        _ memory: inout FHIRExpressionMemory, tree: FHIRInstanceTree, enablement: [Bool], answers: inout [[FHIR.Value]], withheld: [Bool],
        sameInstances: Bool
    ) -> FHIRExpressionPass {
        // The answers are moved into the evaluation and back: shared, the pass's first write would copy them all.
        var evaluation = Evaluation(tree: tree, enablement: enablement, withheld: withheld, sameInstances: sameInstances)
        swap(&evaluation.answers, &answers)
        defer { swap(&evaluation.answers, &answers) }
        var pass = FHIRExpressionPass()
        if !memory.started, let openingProblem {
            pass.failure = openingProblem
            return pass
        }
        switch engine {
        case .lhcForms: runLHCForms(&memory, &evaluation, &pass)
        case .androidFHIR: runAndroid(&memory, &evaluation, &pass)
        }
        memory.started = true
        memory.evaluations += evaluation.evaluations
        memory.responsesBuilt += evaluation.responsesBuilt
        memory.resultsComputed += evaluation.resultsComputed
        for position in evaluation.written where !pass.written.contains(position) { pass.written.append(position) }
        for position in pass.written where !memory.computed.contains(tree.instances[position].id) { memory.computed.append(tree.instances[position].id) }
        return pass
    }

    /// The items whose answers, as the response shows them, changed since the last pass (all on the first).
    /// When the instances are those the last pass read, only those whose answers or enablement changed since
    /// (`FHIRExpressionMemory.changedSince`) are compared; otherwise every instance, matched by id.
    private func changedItems(_ memory: inout FHIRExpressionMemory, _ evaluation: inout Evaluation) -> Set<Int>? {
        guard memory.started, evaluation.sameInstances, memory.seen.answers.count == evaluation.tree.instances.count else {
            return changedItemsComparingAll(&memory, &evaluation)
        }
        #if DEBUG
        var whole = memory
        let everyChange = changedItemsComparingAll(&whole, &evaluation)
        #endif
        var changed: Set<Int> = []
        memory.instancesCompared += memory.changedSince.count
        for slot in memory.changedSince {
            let position = evaluation.tree.positionOfSlot[Int(slot)]
            let now = evaluation.held(position, engine)
            guard now != memory.seen.answers[position] else { continue }
            memory.seen.answers[position] = now
            changed.insert(evaluation.tree.instances[position].item)
        }
        #if DEBUG
        // Under LHC-Forms what changed in passes left out as idle is of items nothing reads: the two may differ
        // only in those (`passIsIdle`), which select nothing. android-fhir leaves no pass out.
        assert(
            engine == .androidFHIR ? everyChange == changed : everyChange.map(selection) == selection(changed),
            "the changes since the last pass are not all among changedSince")
        #endif
        return changed
    }

    /// `changedItems` by comparing every instance's answers with those the last pass saw.
    private func changedItemsComparingAll(_ memory: inout FHIRExpressionMemory, _ evaluation: inout Evaluation) -> Set<Int>? {
        let instances = evaluation.tree.instances
        memory.instancesCompared += instances.count
        let now = instances.indices.map { evaluation.held($0, engine) }
        let seen = memory.seen
        memory.seen.answers = now
        // Ids compared by position: an instance is read in place, not copied whole with its other strings.
        let sameInstances = seen.ids.count == instances.count && instances.indices.allSatisfy { seen.ids[$0] == instances[$0].id }
        if !sameInstances {
            memory.seen.ids = instances.map(\.id)
            memory.variables.startPass()
        }
        guard memory.started else { return nil }
        var changed: Set<Int> = []
        if sameInstances {
            for position in now.indices where now[position] != seen.answers[position] { changed.insert(instances[position].item) }
            return changed
        }
        // Other instances: matched by id; one that went or came changed if it had answers.
        var before: [String: [FHIR.Value]] = [:]
        for (id, values) in zip(seen.ids, seen.answers) where !values.isEmpty { before[id] = values }
        for (position, instance) in instances.enumerated() where (before.removeValue(forKey: instance.id) ?? []) != now[position] {
            changed.insert(instance.item)
        }
        return changed
    }

    /// The nodes to evaluate: those reading a changed item, and what uses their values.
    private func selection(_ changed: Set<Int>?) -> [Bool] {
        guard let changed else { return Array(repeating: true, count: program.nodes.count) }
        var selected = Array(repeating: false, count: program.nodes.count)
        if !changed.isEmpty { for node in program.readersOfAnyAnswer { select(node, &selected) } }
        for item in changed { for node in program.readersOfItem[item] { select(node, &selected) } }
        return selected
    }

    private func select(_ node: Int, _ selected: inout [Bool]) {
        guard !selected[node] else { return }
        selected[node] = true
        for user in program.usersOfVariable[node] { select(user, &selected) }
    }

    /// LHC-Forms: after every change its expression run evaluates the form's expressions over a
    /// QuestionnaireResponse of the enabled items, again until nothing changes (`_asyncRunCalculations`,
    /// LHNCBC/lforms@24c71875 src/fhir/expression-processor.js:159-177), then its skip logic
    /// (lhc-form-data.ts:613-621); initialExpressions only in that first run (:81-93, 289-291). Here: the
    /// expressions reading what changed, in dependency order; the session repeats enablement and passes
    /// until neither changes anything.
    private func runLHCForms(_ memory: inout FHIRExpressionMemory, _ evaluation: inout Evaluation, _ pass: inout FHIRExpressionPass) {
        var selected = selection(changedItems(&memory, &evaluation))
        // Moved into the pass and back, so that the pass changes them in place.
        swap(&evaluation.variables, &memory.variables)
        evaluation.cachesVariables = true
        forget(selected, &evaluation)
        defer { memory.variables = evaluation.variables }
        for index in program.order where selected[index] {
            let node = program.nodes[index]
            guard let item = node.item else { continue }
            let definition = survey.items[item]
            for position in evaluation.tree.instancesOfItem[item] {
                let id = evaluation.tree.instances[position].id
                switch node.expression.kind {
                case .variable, .notEvaluated, .answerOptionsToggle:
                    continue
                case .enableWhen:
                    switch evaluate(index, at: position, &evaluation) {
                    case .success(let result):
                        if memory.setEnabled(FHIRExpressionValues.enables(result, engine: engine), for: id) { pass.enablementChanged = true }
                    case .failure(let error):
                        // The undefined result is indexed (`newVal[0]`): a TypeError ends the expression run.
                        pass.failure = "TypeError: Cannot read properties of undefined (reading '0'): the enableWhenExpression of '\(id)' fails (\(describe(error, index))) and LHC-Forms reads its first item (LHNCBC/lforms@24c71875 src/fhir/expression-processor.js:538-541)"
                        return
                    }
                case .calculated:
                    if memory.overridden.contains(id) { continue }
                    // A value other than the one last calculated is the respondent's: calculation stops
                    // (`_userModifiedCalculatedValue`, expression-processor.js:300-316).
                    if let last = memory.calculated[id], evaluation.answers[position] != last {
                        memory.overridden.insert(id)
                        continue
                    }
                    // A failing expression leaves the value as it is (`_setItemValueFromFHIRPath`, :868-875).
                    guard case .success(let result) = evaluate(index, at: position, &evaluation) else { continue }
                    let values = FHIRExpressionValues.answers(result, for: definition)
                    memory.calculated[id] = values
                    if store(values, position, &evaluation) { changed(item, &pass, &selected, &evaluation) }
                case .initial:
                    guard memory.opening, case .success(let result) = evaluate(index, at: position, &evaluation) else { continue }
                    if store(FHIRExpressionValues.answers(result, for: definition), position, &evaluation) { changed(item, &pass, &selected, &evaluation) }
                case .answer:
                    // A failure gives no list (`_setItemListFromFHIRPath` with undefined, :764-855).
                    let options = (try? evaluate(index, at: position, &evaluation).get()).map(FHIRExpressionValues.options) ?? []
                    if setOptions(options, position, &memory, &evaluation, keepAnswers: false) { changed(item, &pass, &selected, &evaluation) }
                }
            }
        }
    }

    /// android-fhir: a form's calculated values are worked out once as it opens, item by item in document
    /// order (`initializeCalculatedExpressions`, google/android-fhir@28a50345
    /// datacapture/src/main/java/com/google/android/fhir/datacapture/QuestionnaireViewModel.kt:611-621, after
    /// its two-item cycle check, ExpressionEvaluator.kt:127-142); after each change, every calculated item
    /// whose expression names the changed item (`linkId='…'`) or any `%name` is evaluated against the
    /// response as it is, all before any is written (`evaluateAllAffectedCalculatedExpressions`,
    /// ExpressionEvaluator.kt:191-216; QuestionnaireViewModel.kt:635-662), so a value computed from another
    /// calculated value lags one change behind. initialExpressions are population (ResourceMapper.kt:254-330):
    /// once, from the launch contexts only. enableWhenExpressions and answer options are evaluated in every
    /// pass over the items.
    private func runAndroid(_ memory: inout FHIRExpressionMemory, _ evaluation: inout Evaluation, _ pass: inout FHIRExpressionPass) {
        let changed = changedItems(&memory, &evaluation)
        if changed == nil {
            if let failure = androidCycle() ?? populate(&evaluation) {
                pass.failure = failure
                return
            }
            for (item, index) in program.calculatedOfItem.sorted(by: { $0.key < $1.key }) {
                for position in evaluation.tree.instancesOfItem[item] {
                    let id = evaluation.tree.instances[position].id
                    switch evaluate(index, at: position, &evaluation) {
                    case .success(let result):
                        let values = FHIRExpressionValues.answers(result, for: survey.items[item], matchOptions: false)
                        guard !values.isEmpty else { continue }
                        memory.calculated[id] = values
                        if store(values, position, &evaluation) { pass.answersChanged = true }
                    case .failure(let error):
                        pass.failure = androidFailure(error, index, id)
                        return
                    }
                }
            }
        } else if let changed, !changed.isEmpty {
            let linkIds = changed.map { survey.items[$0].linkId }
            var updates: [(position: Int, values: [FHIR.Value])] = []
            for (item, index) in program.calculatedOfItem.sorted(by: { $0.key < $1.key }) where Self.androidAffected(program.nodes[index].expression.text ?? "", by: linkIds) {
                for position in evaluation.tree.instancesOfItem[item] {
                    let id = evaluation.tree.instances[position].id
                    if memory.overridden.contains(id) { continue }
                    if let last = memory.calculated[id], evaluation.answers[position] != last {
                        memory.overridden.insert(id)
                        continue
                    }
                    switch evaluate(index, at: nil, &evaluation) {
                    case .success(let result): updates.append((position, FHIRExpressionValues.answers(result, for: survey.items[item], matchOptions: false)))
                    case .failure(let error):
                        pass.failure = androidFailure(error, index, id)
                        return
                    }
                }
            }
            for (position, values) in updates {
                memory.calculated[evaluation.tree.instances[position].id] = values
                if store(values, position, &evaluation) { pass.answersChanged = true }
            }
        }
        for (item, index) in program.enableWhenOfItem.sorted(by: { $0.key < $1.key }) {
            for position in evaluation.tree.instancesOfItem[item] {
                let id = evaluation.tree.instances[position].id
                switch evaluate(index, at: position, &evaluation) {
                case .success(let result):
                    if memory.setEnabled(FHIRExpressionValues.enables(result, engine: engine), for: id) { pass.enablementChanged = true }
                case .failure(let error):
                    pass.failure = androidFailure(error, index, id)
                    return
                }
            }
        }
        if let failure = androidOptions(&memory, &evaluation, &pass) { pass.failure = failure }
        // What the pass saw is the response after it: `changedItems` noted the instances as they were when it
        // began, and only those it wrote have changed since.
        for position in evaluation.written { memory.seen.answers[position] = evaluation.held(position, engine) }
    }

    /// android-fhir's answer options: an answerExpression's result when the item has no answerOption nor
    /// answerValueSet, narrowed by its answerOptionsToggleExpressions; answers no longer allowed by a toggle
    /// are removed (EnabledAnswerOptionsEvaluator.kt:93-124, 138-152, 231-270; QuestionnaireViewModel.kt:921-932).
    private func androidOptions(_ memory: inout FHIRExpressionMemory, _ evaluation: inout Evaluation, _ pass: inout FHIRExpressionPass) -> String? {
        for (item, definition) in survey.items.enumerated() {
            let answerNode = definition.options.isEmpty && definition.externalValueSet == nil ? program.nodes.firstIndex { $0.item == item && $0.expression.kind == .answer } : nil
            let toggles = definition.expressions.filter { $0.kind == .answerOptionsToggle }
            guard answerNode != nil || !toggles.isEmpty else { continue }
            for position in evaluation.tree.instancesOfItem[item] {
                let id = evaluation.tree.instances[position].id
                var options = definition.options.map(\.value)
                if let answerNode {
                    switch evaluate(answerNode, at: position, &evaluation) {
                    case .success(let result): options = FHIRExpressionValues.options(result)
                    case .failure(let error): return androidFailure(error, answerNode, id)
                    }
                }
                var allowed: [FHIR.Value] = []
                var disallowed: [FHIR.Value] = []
                for toggle in toggles {
                    guard let index = program.nodes.firstIndex(where: { $0.item == item && $0.expression.location == toggle.location }) else { continue }
                    switch evaluate(index, at: position, &evaluation) {
                    case .success(let result):
                        if FHIRExpressionValues.enables(result, engine: .androidFHIR) { allowed += toggle.toggledOptions } else { disallowed += toggle.toggledOptions }
                    case .failure(let error): return androidFailure(error, index, id)
                    }
                }
                let removed = disallowed.filter { value in !allowed.contains { FHIRValues.equal($0, value, engine: .androidFHIR) == true } }
                options.removeAll { option in removed.contains { FHIRValues.equal(option, $0, engine: .androidFHIR) == true } }
                if setOptions(options, position, &memory, &evaluation, keepAnswers: toggles.isEmpty) { pass.answersChanged = true }
            }
        }
        return nil
    }

    /// Whether android-fhir re-evaluates a calculatedExpression after a change of these items: its text, with
    /// spaces removed, has `linkId='…'` of one of them, or any `%name` (`isReferencedBy`,
    /// MoreQuestionnaireItemComponents.kt:735-744; `findDependentVariables`, ExpressionEvaluator.kt:104, 417-418).
    static func androidAffected(_ text: String, by linkIds: [String]) -> Bool {
        let compact = text.replacingOccurrences(of: " ", with: "")
        if linkIds.contains(where: { compact.contains("linkId='\($0)'") }) { return true }
        var previous: Character?
        for character in text {
            if previous == "%", character.isASCII, character.isLetter || character.isNumber || character == "-" { return true }
            previous = character
        }
        return false
    }

    /// android-fhir refuses two calculated items whose expressions name each other's linkId (an item naming
    /// its own counts: the check pairs every item with every item, itself included), as the form opens.
    private func androidCycle() -> String? {
        let calculated = survey.items.filter(\.valueIsCalculated)
        for current in calculated {
            for dependent in calculated where references(dependent, current) && references(current, dependent) {
                return "IllegalStateException: \"\(current.linkId) and \(dependent.linkId) have cyclic dependency in expression based extension\" (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/fhirpath/ExpressionEvaluator.kt:127-142)"
            }
        }
        return nil
    }

    /// Whether any expression of `item` names `target`'s linkId (`isReferencedBy`).
    private func references(_ item: FHIR.Item, _ target: FHIR.Item) -> Bool {
        item.expressions.contains { ($0.text ?? "").replacingOccurrences(of: " ", with: "").contains("linkId='\(target.linkId)'") }
    }

    /// android-fhir's population: each initialExpression evaluated against the launch contexts alone (no
    /// response, so `%resource` throws, no variables, no `%questionnaire`), the first value unless the item
    /// repeats, options by system and code; an item with both initial and initialExpression, or a group or
    /// display item with either, makes it throw (ResourceMapper.kt:254-330).
    private func populate(_ evaluation: inout Evaluation) -> String? {
        for (item, definition) in survey.items.enumerated() {
            guard let index = program.nodes.firstIndex(where: { $0.item == item && $0.expression.kind == .initial }) else { continue }
            if !definition.initial.isEmpty || !definition.type.takesAnswers {
                return "IllegalStateException: '\(definition.linkId)' has \(definition.type.takesAnswers ? "both initial.value and initialExpression" : "an initialExpression on a \(definition.type.rawValue) item"), which population refuses (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/mapping/ResourceMapper.kt:259-270)"
            }
            switch evaluate(index, at: nil, &evaluation, population: true) {
            case .success(let result):
                let values = FHIRExpressionValues.answers(result, for: definition)
                guard !values.isEmpty else { continue }
                for position in evaluation.tree.instancesOfItem[item] { _ = store(values, position, &evaluation) }
            case .failure(let error):
                return "\(describe(error, index)): population throws (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/mapping/ResourceMapper.kt:272-280)"
            }
        }
        return nil
    }

    private func androidFailure(_ error: FHIRPathError, _ index: Int, _ id: String) -> String {
        "FHIRException: \(describe(error, index)) for '\(id)'; the view model does not catch it (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/fhirpath/ExpressionEvaluator.kt:152-164)"
    }

    private func describe(_ error: FHIRPathError, _ index: Int) -> String {
        let expression = program.nodes[index].expression
        let place = expression.source.map { "\(survey.file):\($0.position(ofExpressionOffset: error.range?.lowerBound ?? 0))" } ?? survey.file
        return "FHIRPath \(error.kind.rawValue) error at \(place): \(error.message)"
    }

    // MARK: writing

    /// Stores an instance's computed answers; whether they differ from the stored ones.
    private func store(_ values: [FHIR.Value], _ position: Int, _ evaluation: inout Evaluation) -> Bool {
        guard evaluation.answers[position] != values else { return false }
        evaluation.answers[position] = values
        evaluation.response = nil
        evaluation.written.append(position)
        return true
    }

    /// Sets an instance's computed options; LHC-Forms (and a toggle under android-fhir) drops the answers no
    /// longer among them. Whether the answers changed.
    private func setOptions(_ options: [FHIR.Value], _ position: Int, _ memory: inout FHIRExpressionMemory, _ evaluation: inout Evaluation, keepAnswers: Bool) -> Bool {
        let id = evaluation.tree.instances[position].id
        guard memory.options[id] != options else { return false }
        memory.options[id] = options
        guard !keepAnswers else { return false }
        let kept = evaluation.answers[position].filter { answer in options.contains { FHIRValues.equal($0, answer, engine: engine) == true } }
        return store(kept, position, &evaluation)
    }

    /// An instance of `item` was given new answers in the pass: what reads it (or reads any answer), and
    /// what uses those variables, is evaluated again, variables forgotten; variables reading neither keep
    /// their values.
    private func changed(_ item: Int, _ pass: inout FHIRExpressionPass, _ selected: inout [Bool], _ evaluation: inout Evaluation) {
        pass.answersChanged = true
        var affected = Array(repeating: false, count: program.nodes.count)
        for node in program.readersOfItem[item] + program.readersOfAnyAnswer { select(node, &affected) }
        for node in affected.indices where affected[node] { selected[node] = true }
        forget(affected, &evaluation)
    }

    /// Drops the kept values of the variables to be evaluated again.
    private func forget(_ selected: [Bool], _ evaluation: inout Evaluation) {
        for variable in selected.indices where selected[variable] { evaluation.variables.forget(variable) }
    }

    // MARK: evaluating

    /// One expression for one instance (nil: on the Questionnaire, or without a context): `%resource` the
    /// response as the engine builds it now, `%context` the instance's item in it, `%qitem` its
    /// Questionnaire item, its variables by SDC's scoping. An unresolved `%name` throws in LHC-Forms'
    /// fhirpath.js and is empty in android-fhir (FHIRPathEngineHostServices.kt:28-33). A `population`
    /// evaluation (android-fhir's initialExpression) sees only the launch contexts. The response is built
    /// only for an expression that reads it (`FHIRExpressionProgram.Node.readsResponse`): one that reads
    /// only variables and constants gives the same value without it. One that reads top-level items by
    /// linkId only reads the response cut to them (`FHIRResponseSlice`), and finds its result kept with it
    /// when its variables are identical (`FHIRExpressionResults`; not while an observer counts `iif` branches).
    private func evaluate(_ index: Int, at position: Int?, _ evaluation: inout Evaluation, population: Bool = false) -> Result<FHIRPathCollection, FHIRPathError> {
        let node = program.nodes[index]
        guard let expression = node.fhirPath else { return node.compileError.map { .failure($0) } ?? .success([]) }
        evaluation.evaluations += 1
        let observer = iifCoverage?.observer(forNode: index)
        func run(_ variables: [FHIRPathBinding], over base: FHIRPathEnvironment, on context: FHIRPathCollection)
            -> Result<FHIRPathCollection, FHIRPathError>
        {
            evaluation.resultsComputed += 1
            var environment = FHIRPathEnvironment(variables: variables, over: base)
            if let observer { environment.iifObserver = observer }
            do throws(FHIRPathError) {
                return .success(try expression.evaluate(on: context, environment))
            } catch {
                return .failure(error)
            }
        }
        if population {
            var variables: [FHIRPathBinding] = []
            // Every other name it reads is empty (`%questionnaire` too: population has no Questionnaire).
            for name in node.dependencies?.variables ?? [] where name == "questionnaire" || !constants.contains(where: { $0.name == name }) && !["resource", "rootResource", "context"].contains(name) {
                variables.append(FHIRPathBinding(FHIRPathVariableName(name), []))
            }
            return run(variables, over: populationConstants, on: [])
        }
        // Listed with the node's variables first, then what is bound for this evaluation, over the constants:
        // the first of a name is its value.
        var variables: [FHIRPathBinding] = []
        variables.reserveCapacity(node.variableList.count + 4)
        for (name, variable) in node.variableList { variables.append(FHIRPathBinding(name, value(of: variable, for: position, &evaluation))) }
        let ownVariables = variables.count
        // The response is built only for an expression that reads it; one cut to the items it reads may
        // hold its result.
        var context: FHIRPathCollection = []
        var slice: FHIRExpressionResponse?
        if let linkIds = node.responseSlice {
            let response = evaluation.view(survey, engine: engine, settings: settings, keeping: linkIds)
            let root: FHIRPathCollection = [.node(response.tree.root)]
            variables.append(FHIRPathBinding(.resource, root))
            variables.append(FHIRPathBinding(.rootResource, root))
            slice = response
        } else if node.readsResponse {
            let response = evaluation.view(survey, engine: engine, settings: settings)
            let root: FHIRPathCollection = [.node(response.tree.root)]
            context = position.map { response.item(at: $0, in: evaluation.tree).map { [.node($0)] } ?? [] } ?? (node.item == nil ? root : [])
            variables.append(FHIRPathBinding(.resource, root))
            variables.append(FHIRPathBinding(.rootResource, root))
            variables.append(FHIRPathBinding(.context, context))
        }
        if let item = node.item, item < questionnaireItems.count { variables.append(FHIRPathBinding(engine == .lhcForms ? Self.qitem : Self.qItem, [.node(questionnaireItems[item])])) }
        if engine == .androidFHIR { for name in node.unresolved { variables.append(FHIRPathBinding(FHIRPathVariableName(name), [])) } }
        // A result kept with the cut response is what evaluating again gives, except for the branches an
        // observer must be told of.
        guard let slice, observer == nil else { return run(variables, over: boundConstants, on: context) }
        return slice.results.result(of: index, variables: variables[..<ownVariables]) { run(variables, over: boundConstants, on: context) }
    }

    /// `%qitem`, as LHC-Forms names an expression's Questionnaire item, and `%qItem`, as android-fhir does.
    private static let qitem = FHIRPathVariableName("qitem")
    private static let qItem = FHIRPathVariableName("qItem")

    /// A variable's value where an expression at `position` reads it: evaluated once per pass for the
    /// instance of the item defining it (LHC-Forms in that item's context; android-fhir without one, and
    /// keeping the first item only, ExpressionEvaluator.kt:515-522). A failing variable is empty in both.
    private func value(of variable: Int, for position: Int?, _ evaluation: inout Evaluation) -> FHIRPathCollection {
        let definer = program.nodes[variable].item
        var scope = position
        while let current = scope, evaluation.tree.instances[current].item != definer { scope = evaluation.tree.instances[current].parent }
        if definer == nil { scope = nil }
        if let known = evaluation.variables.recentValue(of: variable, scope: scope ?? -1) { return known }
        let key = scope.map { evaluation.tree.instances[$0].id } ?? ""
        if let known = evaluation.variables.lookUp(variable, id: key, scope: scope ?? -1) { return known }
        var result = (try? evaluate(variable, at: engine == .lhcForms ? scope : nil, &evaluation).get()) ?? []
        if engine == .androidFHIR { result = Array(result.prefix(1)) }
        evaluation.variables.set(result, of: variable, id: key, scope: scope ?? -1)
        return result
    }
}

/// The working state of one pass: the session's instances, enablement and answers (computed ones written
/// into them), the response built from them while they stay the same, and the variables worked out.
private struct Evaluation {
    let tree: FHIRInstanceTree
    let enablement: [Bool]
    /// Each instance's answers, by position in the tree (moved in by `FHIRExpressions.run`).
    var answers: [[FHIR.Value]] = []
    /// By position: whether android-fhir cleared the instance's answers from its response.
    let withheld: [Bool]
    var response: FHIRExpressionResponse? {
        // Variables read the response: without a record of what they read, a new response forgets them.
        didSet { if response == nil, !cachesVariables { variables.forgetAll() } }
    }
    /// Variable values by node and the id of the instance defining it ("" on the Questionnaire).
    var variables = FHIRVariableValues()
    /// Whether variables are kept across changes, forgotten only when what they read changes (LHC-Forms' passes).
    var cachesVariables = false
    /// The instances whose answers the pass changed, by position, in order.
    var written: [Int] = []
    /// Whether the instances are those the last pass read.
    let sameInstances: Bool
    var evaluations = 0
    var responsesBuilt = 0
    var resultsComputed = 0

    init(tree: FHIRInstanceTree, enablement: [Bool], withheld: [Bool], sameInstances: Bool) {
        self.tree = tree
        self.enablement = enablement
        self.withheld = withheld
        self.sameInstances = sameInstances
    }

    /// Whether the response writes an instance (its answers, if it has any): LHC-Forms' leaves disabled items
    /// out (`getFormData` with noDisabledItem, LHNCBC/lforms@24c71875 src/fhir/common/sdc-export-common.js:26);
    /// android-fhir's holds every item, with the answers of those its passes disabled cleared.
    private func shows(_ position: Int, _ engine: FHIREngine) -> Bool {
        engine == .androidFHIR || enablement[position]
    }

    /// The answers the response holds now for the instance at `position`.
    func held(_ position: Int, _ engine: FHIREngine) -> [FHIR.Value] {
        shows(position, engine) && !withheld[position] ? answers[position] : []
    }

    /// The response, when first needed after a change: built, or found among those built for the same
    /// instances, enablement, answers and settings (`FHIRSurvey.expressionResponses`).
    mutating func view(_ survey: FHIRSurvey, engine: FHIREngine, settings: SessionSettings) -> FHIRExpressionResponse {
        if let response { return response }
        let view = kept(survey, engine: engine, settings: settings, positions: Array(tree.instances.indices), isCut: false)
        response = view
        return view
    }

    /// The response cut to the top-level items of these linkIds with all they hold (`FHIRResponseSlice`):
    /// found by those instances alone, so a change of another item's answers finds it again.
    mutating func view(_ survey: FHIRSurvey, engine: FHIREngine, settings: SessionSettings, keeping linkIds: Set<String>) -> FHIRExpressionResponse {
        var positions: [Int] = []
        for linkId in linkIds {
            for item in survey.itemsByLinkId[linkId] ?? [] where survey.items[item].parent == nil {
                for position in tree.instancesOfItem[item] { positions += position..<tree.instances[position].end }
            }
        }
        positions.sort()
        return kept(survey, engine: engine, settings: settings, positions: positions, isCut: true)
    }

    /// The response of the instances at `positions` (all, or a cut's: the others left out as the writer
    /// leaves out disabled ones), found by its key or built.
    private mutating func kept(_ survey: FHIRSurvey, engine: FHIREngine, settings: SessionSettings, positions: [Int], isCut: Bool) -> FHIRExpressionResponse {
        var key = FHIRResponseKey(settings: settings, instances: positions.count, isCut: isCut)
        for position in positions {
            let instance = tree.instances[position]
            key.append(
                item: instance.item, parent: instance.parent ?? -1, answerIndex: instance.answerIndex, answers: held(position, engine),
                enabled: shows(position, engine), withheld: false)
        }
        return survey.expressionResponses.value(for: key) {
            var shown = [Bool](repeating: false, count: tree.instances.count)
            var written = [[FHIR.Value]](repeating: [], count: tree.instances.count)
            for position in positions {
                shown[position] = shows(position, engine)
                written[position] = held(position, engine)
                if engine == .lhcForms, written[position].contains(where: { $0.type == .coding }) {
                    let item = survey.items[tree.instances[position].item]
                    written[position] = written[position].map { FHIRExpressionValues.lhcCoding($0, of: item) }
                }
            }
            responsesBuilt += 1
            return FHIRExpressionResponse(
                FHIRResponseInput(survey: survey, tree: tree, enablement: shown, answersByPosition: written, today: settings.today))
        }
    }
}
