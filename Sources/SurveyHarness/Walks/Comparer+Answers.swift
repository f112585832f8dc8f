import SurveyCore

/// Comparing two engines by answers: a walk chosen on one side is played there; if it submits, its answers
/// (read back from the payload as `import` reads it) are given to the other side as `import` gives them, and
/// the two are compared at the end: the questions each shows (those that take answers) and the answers each
/// submits. Every question that differs is one difference of the walk.
extension Comparer {
    func answerDifferences(_ actions: [Action], onOld: Bool) -> [Difference] {
        let (walked, walkedSettings, walkedName) = onOld ? (old, oldSettings, names.old) : (new, newSettings, names.new)
        let (other, otherSettings, otherName) = onOld ? (new, newSettings, names.new) : (old, oldSettings, names.old)
        let first = walked.makeSession(walkedSettings)
        for action in actions { _ = first.perform(action) }
        guard let submitted = first.payload.flatMap({ walked.submittedAnswers($0, settings: walkedSettings) }) else { return [] }
        let imported = PayloadImporter(survey: other, settings: otherSettings).importAnswers(submitted)
        let second = other.makeSession(otherSettings)
        for action in imported.actions { _ = second.perform(action) }
        let given = Dictionary(submitted, uniquingKeysWith: { first, _ in first })
        let got = Dictionary(second.payload.flatMap { other.submittedAnswers($0, settings: otherSettings) } ?? [], uniquingKeysWith: { first, _ in first })
        let shownFirst = answerable(first.visibleQuestions, walked, walkedSettings)
        let shownSecond = answerable(second.visibleQuestions, other, otherSettings)
        func difference(_ question: String, _ detail: String) -> Difference {
            Difference(question: question, detail: detail, actions: actions, walks: 1, walkedOnOld: onOld)
        }
        guard second.payload != nil else {
            // What it shows and submits up to there follows from stopping: the stop is the one difference.
            let stop = second.currentQuestion ?? "(submit)"
            return [difference(stop, "given the answers \(walkedName) submits, \(otherName) stops at '\(stop)' and cannot submit")]
        }
        var found: [Difference] = []
        var reported: Set<String> = []
        for (question, value) in submitted where !reported.contains(question) {
            let answer = got[question]
            guard answer != value else { continue }
            let what: String
            if let answer {
                what = "\(otherName) submits \(CanonicalJSON.compact(answer))"
            } else if !shownSecond.contains(question) {
                what = "\(otherName) never shows it on the path these answers take"
            } else {
                what = "\(otherName) shows it but submits no answer (it refuses the value, or drops it)"
            }
            found.append(difference(question, "\(walkedName) submits \(question) = \(CanonicalJSON.compact(value)); \(what)"))
            reported.insert(question)
        }
        for (question, value) in got.sorted(by: { $0.key < $1.key }) where given[question] == nil && !reported.contains(question) {
            found.append(difference(question, "\(otherName) submits \(question) = \(CanonicalJSON.compact(value)), which \(walkedName) does not submit"))
            reported.insert(question)
        }
        for question in shownSecond where !shownFirst.contains(question) && !reported.contains(question) {
            found.append(difference(question, "given the answers \(walkedName) submits, only \(otherName) shows \(question)"))
            reported.insert(question)
        }
        for question in shownFirst where !shownSecond.contains(question) && !reported.contains(question) {
            found.append(difference(question, "only \(walkedName) shows \(question); given the same answers, \(otherName) does not"))
        }
        return found
    }

    /// Removes actions one at a time while the walk still differs at the same question.
    func shrinkAnswers(_ actions: [Action], question: String, onOld: Bool) -> [Action] {
        Self.removingActions(actions) { candidate in
            answerDifferences(candidate, onOld: onOld).contains(where: { $0.question == question }) ? candidate : nil
        }
    }

    /// The questions of a list that take answers (those with values to try), in order.
    private func answerable(_ ids: [String], _ survey: any Survey, _ settings: SessionSettings) -> [String] {
        ids.filter { !survey.candidateValues(for: $0, settings: settings).isEmpty }
    }
}

extension Survey {
    /// The answers of a submitted payload as the format's `import` reads them under these settings, or nil
    /// when it cannot.
    func submittedAnswers(_ payload: JSONValue, settings: SessionSettings) -> [(question: String, value: JSONValue)]? {
        let file = SourceFile(path: "payload", text: CanonicalJSON.compact(payload))
        guard let root = try? JSONParser.parse(file), let reading = try? readPayload(JSONCursor(node: root), settings: settings) else { return nil }
        return reading.answers.map { ($0.question, $0.value) }
    }
}
