import SurveyCore

/// What the order of the questions does to their conditions (reference §4, §6): the engine evaluates a
/// top-level show_if only when a question it names is answered, so a condition on a later question (or on
/// the first question) does not hide anything until then; it keeps the answers of hidden questions, which
/// still count and are submitted; it caches a sub-question's visibility per section; and it shows no Submit when the last
/// question is hidden while the respondent is on it.
extension SurveyNativeLint {
    static func orderFindings(_ outline: SurveyNativeOutline) -> [Diagnostic] {
        guard let last = outline.topLevel.indices.last else { return [] }
        var findings: [Diagnostic] = []
        for (slot, question) in outline.questions.enumerated() {
            guard let showIf = question.showIf else { continue }
            let section = question.owner
            let references = showIf.evaluatedReferences.compactMap { reference in
                outline.slotByID[reference.id].map { (slot: $0, location: reference.location) }
            }
            if question.isSubQuestion {
                for reference in references where outline.questions[reference.slot].owner != section {
                    findings.append(
                        outline.finding(
                            .warning, at: reference.location,
                            "sub-question '\(question.id)' depends on '\(outline.questions[reference.slot].id)', outside its section; the engine caches whether it shows and refreshes that only when '\(outline.questions[outline.topLevel[section]].id)' or one of its sub-questions is answered, so it can show a stale visibility (reference §4)",
                            hint: "make the sub-question depend only on its parent and sibling sub-questions, or make it a top-level question",
                            rule: "sn-stale-sub-question"))
                }
            } else if section == 0, showIf.canHide {
                findings.append(
                    outline.finding(
                        .warning, at: showIf.location,
                        "'\(question.id)' is the first question: the engine always shows it at the start and evaluates this show_if only once a question it names is answered (reference §6)",
                        hint: "remove the show_if, or start the survey with a question that is always asked", rule: "sn-show-if-on-first"))
            } else {
                findings += lazinessFindings(question, slot: slot, showIf, references, outline)
                findings += stallFindings(question, showIf, outline)
                if section == last, showIf.canHide, !showIf.dependencies.isEmpty {
                    findings.append(
                        outline.finding(
                            .warning, at: showIf.location,
                            "'\(question.id)' is the last question and can be hidden: if a changed answer hides it while the respondent is on it, unanswered, the engine shows no Submit and the survey cannot be finished (reference §6, the dead end)",
                            hint: "end the survey with a question that is always shown", rule: "sn-dead-end"))
                }
            }
            findings += staleAnswerFindings(question, slot: slot, showIf, references, outline)
            if showIf.canHide, !showIf.dependencies.isEmpty {
                findings.append(
                    outline.finding(
                        .note, at: showIf.location,
                        "'\(question.id)' can be hidden after it is answered (a respondent can go back and change what its show_if reads), and the engine submits the answers of hidden questions too: nothing is pruned (reference §3), so the payload can hold an answer to '\(question.id)' the respondent no longer sees",
                        hint: "have whoever reads the payload check this show_if before using '\(question.id)', or rely on 'fuzz' (hidden-answer-submitted) to show the path",
                        rule: "sn-hidden-answer-submitted"))
            }
        }
        return findings
    }

    /// A top-level show_if reading an earlier multi_select: once the respondent is on this question, a tap on
    /// one of that multi_select's options can hide it, and a plain option tap runs no `sectionsToInsert`
    /// (SQ:1292-1298), so the survey stalls with no current question and no Submit until a Next or another
    /// kind of answer change. Only the operations whose outcome an answer list can change count (`equals`,
    /// `not equals`, `contains`, `not contains`; the numeric ones are always false on a list).
    private static func stallFindings(_ question: SurveyNative.Question, _ showIf: Condition, _ outline: SurveyNativeOutline) -> [Diagnostic] {
        guard showIf.canHide else { return [] }
        var seen: Set<String> = []
        var findings: [Diagnostic] = []
        for atom in showIf.atoms {
            guard case .leaf(let leaf) = atom.kind, ["equals", "not equals", "contains", "not contains"].contains(leaf.operation),
                let source = outline.slotByID[leaf.question], case .multiSelect = outline.questions[source].kind,
                outline.questions[source].owner < question.owner, seen.insert(leaf.question).inserted
            else { continue }
            findings.append(
                outline.finding(
                    .warning, at: atom.location,
                    "'\(leaf.question)' is a multi_select, and a tap on one of its options can hide '\(question.id)' while the respondent is on it; such a tap does not move the survey on (SQ:1292-1298), so the respondent sees no current question and no Submit until Next on '\(leaf.question)' or another answer change (the stall)",
                    hint: "put '\(question.id)' where '\(leaf.question)' cannot hide it while it is active, or make it depend on a single_select", rule: "sn-multi-select-stall"))
        }
        return findings
    }

    /// A top-level show_if evaluated late or never: it names a question that comes after it, or none at all.
    private static func lazinessFindings(
        _ question: SurveyNative.Question, slot: Int, _ showIf: Condition, _ references: [(slot: Int, location: SourceLocation)],
        _ outline: SurveyNativeOutline
    ) -> [Diagnostic] {
        if showIf.dependencies.isEmpty, showIf.atoms.contains(where: { if case .host = $0.kind { true } else { false } }) {
            return [
                outline.finding(
                    .warning, at: showIf.location,
                    "this custom condition names no question in \"ids\", and the engine evaluates a show_if only when a question it names is answered, so '\(question.id)' is always shown (reference §6)",
                    hint: "list in \"ids\" the questions the host app decides on", rule: "sn-custom-without-ids")
            ]
        }
        return references.compactMap { reference in
            let named = outline.questions[reference.slot]
            // A question's own sub-question also comes after it: it is shown only with it.
            guard reference.slot != slot, named.owner > question.owner || named.owner == question.owner && named.isSubQuestion else { return nil }
            return outline.finding(
                .warning, at: reference.location,
                "show_if of '\(question.id)' depends on '\(named.id)', which comes later; the engine evaluates it only when '\(named.id)' is answered, so until then '\(question.id)' is shown whatever its condition says (reference §6)",
                hint: "move '\(question.id)' after '\(named.id)', or make it depend on earlier questions", rule: "sn-forward-reference")
        }
    }

    /// A condition reading a question that can be hidden: the engine keeps the answer of a hidden question,
    /// and the condition still follows it (reference §6). Not when the condition also reads what hides it.
    private static func staleAnswerFindings(
        _ question: SurveyNative.Question, slot: Int, _ showIf: Condition, _ references: [(slot: Int, location: SourceLocation)],
        _ outline: SurveyNativeOutline
    ) -> [Diagnostic] {
        let read = Set(showIf.dependencies)
        return references.compactMap { reference in
            guard reference.slot != slot else { return nil }
            let unread = Set(outline.conditionsHiding(reference.slot, from: slot).flatMap(\.dependencies)).subtracting(read)
            guard !unread.isEmpty else { return nil }
            let named = outline.questions[reference.slot].id
            return outline.finding(
                .warning, at: reference.location,
                "show_if of '\(question.id)' reads the answer to '\(named)', which can be hidden; the engine keeps the answers of hidden questions, so once '\(named)' is hidden after being answered, '\(question.id)' still follows its old answer (reference §6)",
                hint: "also test in this show_if, with an and, what hides '\(named)' (\(SurveyNativeAnswerForm.list(unread.sorted())))",
                rule: "sn-stale-answer")
        }
    }
}
