import SurveyCore

/// AssessmentModel's navigation: the Swift `AssessmentViewModel` with `NodeNavigator` that iOS ships, and
/// where the Kotlin `BranchNodeStateImpl` differs (`option implementation kotlin`). Results are never
/// removed; every visit appends. Sources in docs/sage.md, "AssessmentModel navigation".
extension SageSession {
    /// Where `nodeAfter` leads.
    struct AssessmentPoint {
        var node: SageSurvey.Node?
        var direction = "forward"
        /// The identifier a rule or `nextStepIdentifier` chose, when one did.
        var target: String?
    }

    // MARK: forward

    /// `goForward()`: the step's result gets its end date and replaces the last entry, then `nodeAfter`.
    func assessmentGoForward() {
        guard let current else { return }
        updateLiveEntry(of: current) { $0.end = now }
        assessmentForward(from: .step(current))
    }

    /// The Skip button. Swift (`StepHeaderView`): `willSkip()` clears the answer, then the task goes forward.
    /// Android (`AssessmentViewModel.skip()`): clears the answer of the root's current child, which inside a
    /// section is the section's state, not an answer: there the answer stays and the rules read it.
    func assessmentSkip(from index: Int) {
        if !engine.isKotlin || level == 0 { updateLiveEntry(of: index) { $0.value = nil } }
        assessmentGoForward()
    }

    /// `goForward(from:)` in the lowest open navigator.
    func assessmentForward(from previous: SageSurvey.Node?) {
        let point = assessmentNodeAfter(previous)
        guard let node = point.node else {
            if let target = point.target, reserved(target) == nil {
                events.append(TraceEvent("target_not_found", detail: .object(["target": .string(target), "in": .string(navigatorName)])))
            }
            if engine.isKotlin, point.direction == "exit" {
                // Kotlin: `finish` with an exit direction calls `exitEarly(… SaveResults.Never …)` for the run.
                if level > 0 { events.append(TraceEvent("run_exited_from_section", detail: .string(navigatorName))) }
                finish(.exit, saving: false)
                return
            }
            assessmentEndNavigator(reason: point.target)
            return
        }
        switch node {
        case .step(let index):
            // `isCompleted` reads the path before the step joins it; the app sees `readyToSave` once the
            // view updates, with the step's result in the history.
            let ready = level == 0 && assessmentIsCompleted(index)
            assessmentMove(to: index, direction: point.direction)
            if ready { handOver() }
        case .section(let section):
            assessmentEnter(section, direction: "forward", from: previous)
        }
    }

    private var navigatorName: String { open[level].section.map { survey.sections[$0].id } ?? "task" }

    /// The reserved identifier (`exit`, `nextSection`, `beginning`) a target names: the Swift implementation
    /// compares exactly (`NavigationIdentifier.ReservedKey(rawValue:)`, AssessmentModelKMM@08288272
    /// `SwiftPackage/Sources/AssessmentModel/Navigation/NavigationIdentifier.swift:27-33`), Kotlin ignoring
    /// case (`ReservedNavigationIdentifier.matching`, `assessmentmodel/src/commonMain/kotlin/survey/SurveyRule.kt:40`).
    func reserved(_ target: String) -> String? {
        let keys = ["exit", "nextSection", "beginning"]
        guard engine.isKotlin else { return keys.contains(target) ? target : nil }
        return keys.first { $0.lowercased() == target.lowercased() }
    }

    /// `NodeNavigator.nodeAfter`: without a current node, the node of the path's last marker (a section
    /// entered again resumes where it was) or the first; a rule's reserved target gives no node (`exit`
    /// with the exit direction); any other id is looked up among this navigator's nodes only.
    private func assessmentNodeAfter(_ previous: SageSurvey.Node?) -> AssessmentPoint {
        let section = open[level].section
        guard let previous else {
            let restored = open[level].result.path.last?.node
            return AssessmentPoint(node: restored ?? survey.children(of: section).first)
        }
        var point = AssessmentPoint()
        if let target = assessmentNextIdentifier(after: previous) {
            point.target = target
            if let key = reserved(target), !engine.isKotlin {
                point.direction = key == "exit" ? "exit" : "forward"
                return point
            }
            point.node = survey.child(named: target, in: section)
            if engine.isKotlin {
                // Kotlin looks every target up among the nodes, marks one earlier in the list as backward, and
                // otherwise gives the exit direction to any spelling of exit (`Exit`, `EXIT`).
                if let node = point.node, let to = survey.position(of: node, in: section), let from = survey.position(of: previous, in: section), to < from {
                    point.direction = "backward"
                } else if reserved(target) == "exit" {
                    point.direction = "exit"
                }
            }
            return point
        }
        point.node = survey.child(after: previous, in: section)
        return point
    }

    /// A node's navigation rule: Swift reads a question's survey rules first (first match wins) and then its
    /// `nextStepIdentifier`; Kotlin reads `nextStepIdentifier` first and the rules only without one. A step
    /// without answers, or a section, has only its `nextStepIdentifier`.
    private func assessmentNextIdentifier(after node: SageSurvey.Node) -> String? {
        let index: Int
        switch node {
        case .section(let section): return survey.sections[section].nextStepIdentifier
        case .step(let step): index = step
        }
        let step = survey.steps[index]
        guard step.kind == .question else { return step.nextStepIdentifier }
        if engine.isKotlin, let next = step.nextStepIdentifier { return next }
        return assessmentRuleTarget(index) ?? step.nextStepIdentifier
    }

    /// The first rule that matches the step's latest answer (`findAnswer` from the end of the history).
    private func assessmentRuleTarget(_ index: Int) -> String? {
        let step = survey.steps[index]
        let found = open[level].result.findAnswer(step.name, fromEnd: true)
        for (position, rule) in step.rules.enumerated() {
            let field = step.fields.first
            let matched = rule.matches(found, field: field, answerIsObject: step.answerIsObject, engine: engine)
            coverage.map { $0.layout.recordRule(index, position, matched: matched, $0.recorder) }
            guard matched, let target = rule.target(assessment: true) else { continue }
            coverage.map { $0.layout.recordJump(index, position, taken: true, $0.recorder) }
            events.append(TraceEvent("rule_matched", detail: .object(["rule": .number(Double(position + 1)), "to": .string(target)])))
            return target
        }
        return nil
    }

    /// `isCompleted` on a step of the assessment itself: a completion step from which Back is not allowed.
    /// Swift's completion steps always hide Back (`AbstractCompletionStepObject.shouldHideButton`), so each
    /// marks the assessment ready to save; Kotlin's allow Back only when their `actions` name `goBackward`
    /// (`CompletionStep.canGoBack()`) and a node comes before (the path already holds the step, and the
    /// node before it).
    private func assessmentIsCompleted(_ index: Int) -> Bool {
        let step = survey.steps[index]
        guard step.isCompletion else { return false }
        guard engine.isKotlin else { return true }
        return !step.buttons.definesBack || step.buttons.hidesBack || open[0].result.path.isEmpty
    }

    /// `moveTo(nextNode:stepState:)`: the step's state starts from a copy of its last result (a question) or
    /// a fresh one, which is appended to the history; Swift's markers are all forward.
    private func assessmentMove(to index: Int, direction: String) {
        let name = survey.steps[index].name
        var entry = freshEntry(for: index)
        if survey.steps[index].kind == .question, let last = open[level].result.stepHistory.last(where: { $0.identifier == name }) {
            entry.value = last.value
        }
        open[level].detached = nil
        if engine.isKotlin, open[level].result.stepHistory.last?.identifier == name {
            // Kotlin keeps the state's result out of the history until the step is left, and then appends it
            // only when the last entry is another step's (`appendChildResultIfNeeded`, NodeState.kt:463-469): a
            // step entered from itself (a rule naming its own step) never records the new visit, and its rules
            // read the earlier answer. The path still gains the marker (`moveTo`, NodeState.kt:285-291).
            open[level].result.mark(name, node: .step(index), direction: direction)
            open[level].detached = entry
            events.append(TraceEvent("visit_not_recorded", detail: .string(survey.steps[index].id)))
            show(index)
            return
        }
        open[level].result.append(entry, engine: engine, direction: engine.isKotlin ? direction : "forward")
        show(index)
    }

    /// `moveInto(branchState:direction:)`: a section's state starts from a copy of its last result in the
    /// parent (its history and path kept), appended to the parent's history. Swift does not support a section
    /// inside a section: its state is nil, so the section around it ends there.
    private func assessmentEnter(_ section: Int, direction: String, from previous: SageSurvey.Node?) {
        if level > 0, !engine.isKotlin {
            events.append(TraceEvent("nested_section_not_supported", detail: .string(survey.sections[section].id)))
            if direction == "forward" { assessmentEndNavigator(reason: nil) } else { assessmentLeaveBackward() }
            return
        }
        var navigator = makeNavigator(section: section)
        let name = survey.sections[section].name
        if let last = open[level].result.stepHistory.last(where: { $0.identifier == name }), let copy = resolved(last) {
            navigator.result.stepHistory = copy.stepHistory
            navigator.result.path = copy.path
        }
        open[level].current = .section(section)
        open[level].detached = nil
        let entry = SageResultEntry(identifier: name, step: nil, kind: .branch(navigator.result, instance: navigator.instance), start: now)
        open[level].result.append(entry, engine: engine, direction: engine.isKotlin ? direction : "forward")
        open.append(navigator)
        if direction == "forward" { assessmentForward(from: nil) } else { assessmentBack(from: nil) }
    }

    /// `moveToNextSection()`: a section ends and its parent goes on after it; the assessment ends.
    private func assessmentEndNavigator(reason target: String?) {
        open[level].result.end = now
        if level == 0 {
            let key = target.flatMap(reserved)
            let unknown = target != nil && key == nil
            if unknown, let target { noteUnknownTarget(target, from: current) }
            finish(key == "exit" ? .exit : unknown ? .unknownTarget : .completed, saving: true, target: unknown ? target : nil)
            return
        }
        let section = closeSection()
        assessmentForward(from: .section(section))
    }

    /// Closes the lowest section navigator, keeping its result's final state for the parent's entry.
    private func closeSection() -> Int {
        let navigator = open.removeLast()
        branchStates[navigator.instance] = navigator.result
        return navigator.section!
    }

    /// Whether the next node is reachable looking ahead (`hasNodeAfter`): a question's rules and next id are
    /// not read while peeking.
    var assessmentHasNodeAfter: Bool {
        open.indices.contains { depth in
            guard let node = open[depth].current else { return false }
            let section = open[depth].section
            if case .step(let index) = node, survey.steps[index].kind == .display, let next = survey.steps[index].nextStepIdentifier {
                return !survey.isReserved(next) && survey.child(named: next, in: section) != nil
            }
            return survey.child(after: node, in: section) != nil
        }
    }

    // MARK: back

    /// `canGoBack(step:)`: not hidden by the step, its section or the assessment, and a previous node in
    /// this navigator, or (on a section's first node) before the section in the parent.
    var assessmentCanGoBack: Bool {
        guard let current else { return false }
        let step = survey.steps[current]
        if assessmentHides(step, .back) { return false }
        if assessmentPreviousNode(before: .step(current), at: level) != nil { return true }
        guard level > 0, survey.children(of: open[level].section).first == .step(current), let section = open[level - 1].current else { return false }
        return !(open[level].section.map { survey.sections[$0].buttons.hidesBack } ?? false)
            && assessmentPreviousNode(before: section, at: level - 1) != nil
    }

    /// `goBack()`: the step's result replaces the last entry, then `nodeBefore`.
    func assessmentGoBack() {
        guard let current else { return }
        assessmentBack(from: .step(current))
    }

    private func assessmentBack(from previous: SageSurvey.Node?) {
        guard let node = assessmentPreviousNode(before: previous, at: level) else {
            assessmentLeaveBackward()
            return
        }
        switch node {
        case .step(let index): assessmentMove(to: index, direction: "backward")
        case .section(let section): assessmentEnter(section, direction: "backward", from: previous)
        }
    }

    /// `moveToPreviousSection()`: at a section's start Back goes on before the section in the parent.
    private func assessmentLeaveBackward() {
        guard level > 0 else { return }
        let section = closeSection()
        assessmentBack(from: .section(section))
    }

    /// `previousNode`. Swift: without a current node, the last result's node; without markers, the node
    /// before in order; else the node before the current one's last forward marker, and when that one comes
    /// later in order (a loop) the node before its first forward marker. Kotlin: the node before the last
    /// forward marker.
    func assessmentPreviousNode(before node: SageSurvey.Node?, at depth: Int) -> SageSurvey.Node? {
        let section = open[depth].section
        let result = open[depth].result
        let list = survey.children(of: section)
        guard let node, let currentIndex = survey.position(of: node, in: section) else {
            return result.stepHistory.last?.node ?? (engine.isKotlin ? list.first : nil)
        }
        guard !result.path.isEmpty else { return currentIndex > 0 ? list[currentIndex - 1] : nil }
        func before(last: Bool) -> SageSurvey.Node? {
            let forward = { (marker: SagePathMarker) in marker.node == node && marker.direction == "forward" }
            guard let index = last ? result.path.lastIndex(where: forward) : result.path.firstIndex(where: forward), index > 0 else { return nil }
            return result.path[index - 1].node
        }
        guard let previous = before(last: true) else { return nil }
        if engine.isKotlin { return previous }
        if let previousIndex = survey.position(of: previous, in: section), previousIndex < currentIndex { return previous }
        return before(last: false)
    }
}
