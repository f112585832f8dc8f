import SurveyCore

/// What each action does to an R4 session: where it is refused and why, and the change it makes.
extension FHIRSession {
    func apply(_ action: Action) -> Outcome {
        switch action {
        case .answer(let id, let json):
            let slot: Int32
            switch locate(id) {
            case .success(let found): slot = found
            case .failure(let outcome): return outcome.value
            }
            if let refusal = answeringRefusal(slot) { return .rejected(refusal) }
            let item = state.instances.item(slot)
            let values: [FHIR.Value]
            switch survey.interpret(json, forItem: item, options: expressions == nil ? nil : state.expressions.options[id]) {
            case .success(let interpreted): values = interpreted
            case .failure(let problem): return .rejected(problem.message)
            }
            if let problem = survey.limitProblem(values, forItem: item) { return problem }
            change(focusTo: slot) { store(values, at: slot) }
            return .ok
        case .clear(let id):
            let slot: Int32
            switch locate(id) {
            case .success(let found): slot = found
            case .failure(let outcome): return outcome.value
            }
            if let refusal = answeringRefusal(slot) { return .rejected(refusal) }
            change(focusTo: slot) { store([], at: slot) }
            return .ok
        case .next(let id):
            let from: Int32
            if let id {
                switch locate(id) {
                case .success(let found): from = found
                case .failure(let outcome): return outcome.value
                }
                if let refusal = focusRefusal(from) { return .rejected(refusal) }
            } else {
                guard state.focus >= 0 else {
                    return .rejected("no question has the focus: the respondent is past the last question, and Submit is next")
                }
                from = state.focus
            }
            state.focus = nextQuestion(after: from) ?? -1
            return .ok
        case .back:
            if state.focus >= 0 {
                guard let previous = previousQuestion(before: state.focus) else {
                    return .rejected("'\(state.instances.id(state.focus))' is the first question: there is nothing to go back to")
                }
                state.focus = previous
            } else {
                guard let last = previousQuestion(before: nil) else { return .rejected("no question is shown: there is nothing to go back to") }
                state.focus = last
            }
            return .ok
        case .goto(let id):
            switch locate(id) {
            case .success(let slot):
                if let refusal = focusRefusal(slot) { return .rejected(refusal) }
                state.focus = slot
                return .ok
            case .failure(let outcome): return outcome.value
            }
        case .submit:
            if case .failure(let submitFailure) = submitEnablement() {
                failure = submitFailure.reason
                return .ok
            }
            state.submitted = true
            if let coverage, recordsCoverage {
                coverage.recorder.terminal(responseStatus == "completed" ? FHIRCoverageLayout.submittedCompleted : FHIRCoverageLayout.submittedInProgress)
            }
            return .ok
        case .add(let base):
            return addInstance(base)
        case .remove(let id):
            return removeInstance(id)
        case .hostCondition:
            return .doesNotFit("a FHIR Questionnaire has no conditions decided by the host app (custom); its enableWhen read answers only")
        case .skip:
            return .doesNotFit("the FHIR engines have no Skip button: leave a question unanswered and tap next")
        case .app:
            return .doesNotFit("FHIR Questionnaires have no app lifecycle: launch, foreground, wait, consent, quit and resume are Owlmetry's")
        }
    }

    /// An outcome carried as an error, so lookups can return either.
    struct Refusal: Error {
        let value: Outcome
    }

    /// The instance an id names, or why the action cannot name it.
    func locate(_ id: String) -> Result<Int32, Refusal> {
        if let slot = state.instances.slot(named: id) { return .success(slot) }
        guard let item = survey.definition(of: id) else {
            return .failure(Refusal(value: .doesNotFit("the Questionnaire has no item '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))")))
        }
        let linkId = survey.items[item].linkId
        let instances = state.instances.instances(of: item)
        if let first = instances.first, id == linkId {
            return .failure(Refusal(value: .doesNotFit("'\(id)' is inside a repeating item: name an instance, such as '\(state.instances.id(first))'")))
        }
        let existing = instances.prefix(4).map { "'\(state.instances.id($0))'" }
        let parent = survey.items[item].parent.map { survey.items[$0] }
        let none = parent.map { $0.type.takesAnswers ? "the items under '\($0.linkId)' exist once it is answered, one set per answer" : "none exists now" } ?? "none exists now"
        let known = existing.isEmpty ? none : "there are \(existing.joined(separator: ", "))\(instances.count > 4 ? ", …" : "")"
        return .failure(Refusal(value: .rejected("there is no instance '\(id)' of '\(linkId)' now: \(known)")))
    }

    /// Why the instance is not on screen, or nil.
    func visibilityRefusal(_ slot: Int32) -> String? {
        if !isEnabled(slot) {
            if let parent = state.instances.parent(slot), !isEnabled(parent) {
                var top = parent
                while let above = state.instances.parent(top), !isEnabled(above) { top = above }
                return "'\(state.instances.id(slot))' is disabled with '\(state.instances.id(top))', whose enableWhen is false (a disabled item disables all its descendants)"
            }
            return "'\(state.instances.id(slot))' is disabled: its enableWhen is false"
        }
        if !isShown(slot) {
            return "'\(state.instances.id(slot))' is hidden (questionnaire-hidden): the respondent cannot see it"
        }
        return nil
    }

    /// Why the respondent cannot answer or clear the instance, or nil.
    func answeringRefusal(_ slot: Int32) -> String? {
        if let refusal = visibilityRefusal(slot) { return refusal }
        let traits = plan.traits[state.instances.item(slot)]
        if !traits.contains(.takesAnswers) { return "'\(state.instances.id(slot))' is \(item(of: slot).type.withArticle) item, which takes no answers" }
        if traits.contains(.readOnly) { return "'\(state.instances.id(slot))' is read-only" }
        return nil
    }

    func focusRefusal(_ slot: Int32) -> String? {
        if let refusal = visibilityRefusal(slot) { return refusal }
        guard !plan.traits[state.instances.item(slot)].contains(.takesAnswers) else { return nil }
        return "the focus moves between questions; '\(state.instances.id(slot))' is \(item(of: slot).type.withArticle) item"
    }

    private func addInstance(_ base: String) -> Outcome {
        guard let first = state.instances.slot(named: "\(base)#1") else {
            if let item = survey.definition(of: base), survey.items[item].isRepeatingGroup {
                return .rejected("the repeating group '\(base)' does not exist now")
            }
            let groups = survey.items.filter(\.isRepeatingGroup).map(\.linkId)
            return .doesNotFit("'\(base)' is not a repeating group\(groups.isEmpty ? "; the Questionnaire has none" : "; add takes one of \(groups.joined(separator: ", "))")")
        }
        if let refusal = visibilityRefusal(first) { return .rejected(refusal) }
        let item = item(of: first)
        let count = state.instances.groupInstances(of: first)?.count ?? 1
        if let maxOccurs = item.maxOccurs, count >= maxOccurs {
            return .rejected("'\(base)' has \(count) instances, its maximum (questionnaire-maxOccurs)")
        }
        var added: Int32 = -1
        change(focusTo: nil) { added = addGroupInstance(after: first) }
        // The focus goes to the new instance's first question, as a renderer scrolls to it.
        if let inside = nextQuestion(after: added), let last = state.instances.slots(of: state.instances.block(of: added)).last,
            state.instances.order.key(inside) <= state.instances.order.key(last)
        {
            state.focus = inside
        }
        return .ok
    }

    private func removeInstance(_ id: String) -> Outcome {
        let slot: Int32
        switch locate(id) {
        case .success(let found): slot = found
        case .failure(let outcome): return outcome.value
        }
        guard let siblings = state.instances.groupInstances(of: slot) else {
            return .doesNotFit("'\(id)' is not an instance of a repeating group; remove takes GROUP#N")
        }
        if let refusal = visibilityRefusal(slot) { return .rejected(refusal) }
        let item = item(of: slot)
        let base = state.instances.groupBase(slot) ?? id
        let minimum = max(1, item.minOccurs ?? 1)
        if siblings.count <= minimum {
            return .rejected("'\(base)' keeps at least \(minimum) instance\(minimum == 1 ? "" : "s")\(minimum > 1 ? " (questionnaire-minOccurs)" : ""): '\(id)' cannot be removed")
        }
        change(focusTo: nil) { removeGroupInstance(slot, siblings: siblings) }
        return .ok
    }

    // MARK: changes

    /// Makes a change to the answers or the instances, then brings everything derived up to date. The focus
    /// goes to `focusTo` if given; a focus that is no longer on screen moves to the next question shown
    /// after it (among the instances that existed before the change), or past the end.
    func change(focusTo: Int32?, _ body: () -> Void) {
        let oldFocus = state.focus
        focusAnchor = nil
        state.changes += 1
        body()
        refresh()
        if let focusTo, state.instances.isLive(focusTo), focusRefusal(focusTo) == nil {
            state.focus = focusTo
            return
        }
        if state.focus >= 0, state.instances.isLive(state.focus), focusRefusal(state.focus) == nil { return }
        guard oldFocus >= 0 else { return }
        state.focus = -1
        let anchor: Int32?
        switch focusAnchor {
        case .oldOrder(let order)?:
            // Blocks were reordered: the questions after the old focus, in the order they had.
            for slot in order.drop(while: { $0 != oldFocus }).dropFirst() where state.instances.isLive(slot) && focusRefusal(slot) == nil {
                state.focus = slot
                return
            }
            return
        case .after(let slot)?: anchor = slot
        case nil: anchor = oldFocus
        }
        var candidate = nextQuestion(after: anchor)
        while let found = candidate, state.arrivals[Int(found)].change == state.changes { candidate = nextQuestion(after: found) }
        state.focus = candidate ?? -1
    }

    /// Stores an instance's answers. The items nested under a question follow its answers: a question that
    /// does not repeat keeps them aside while it has no answer; a repeating one's follow their answer when the
    /// list changes (matched by value), so each answer keeps its own nested answers.
    func store(_ values: [FHIR.Value], at slot: Int32) {
        let old = answers(slot)
        setAnswer(slot, values)
        recordAnswer(values, item: state.instances.item(slot))
        guard let container = state.instances.answerContainer(of: slot) else { return }
        if !plan.items[state.instances.item(slot)].repeats {
            if old.isEmpty != values.isEmpty { values.isEmpty ? setAside(container) : restore(container, under: slot) }
            return
        }
        guard old != values else { return }
        var mapping: [Int: Int] = [:]
        var used: Set<Int> = []
        for (index, value) in old.enumerated() {
            if let target = values.indices.first(where: { values[$0] == value && !used.contains($0) }) {
                mapping[index] = target
                used.insert(target)
            }
        }
        replaceAnswerBlocks(container, under: slot, mapping: mapping, count: values.count)
    }
}
