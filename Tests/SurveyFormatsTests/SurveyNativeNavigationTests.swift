import SurveyCore
import Testing

@testable import SurveyFormats

/// The state machine of reference §6: the active question only moves forward, which types advance by
/// themselves, what Next stores, how edits re-evaluate, and when Submit appears.
@Suite("SurveyNative navigation")
struct SurveyNativeNavigationTests {
    // MARK: the start

    @Test("a session starts with only the first question visible and no Submit")
    func startsOnFirstQuestion() throws {
        let session = try startSession(select("a"), select("b"))
        #expect(session.visibleQuestions == ["a"])
        #expect(session.currentQuestion == "a")
        #expect(!session.isSubmittable)
        #expect(session.payload == nil)
    }

    // MARK: which types advance by themselves


    @Test(
        "answering these types moves on to the next question without Next",
        arguments: [
            Answering(select("q"), "Yes"),
            Answering(question("q", "segment_select", #""values": ["1", "2", "3"]"#), "2"),
            Answering(tableSelect("q"), ["r1": "Yes", "r2": "No"]),
            Answering(question("q", "year_picker"), "1990"),
            Answering(question("q", "date_picker"), "2026-01-15"),
            Answering(textField("q"), "hello"),
            Answering(question("q", "single_text_area"), "a long day"),
            Answering(dynamicLabel("q"), ["Feet": "5", "Inches": "10"]),
            Answering(dynamicLabel("q"), ["Centimeters": "180"]),
            Answering(selectWithOther("q"), ["Other": "Mint"]),
        ])
    func typesThatAdvanceOnAnswer(_ asked: Answering) throws {
        let session = try startSession(asked.question, select("next"))
        session.play(.answer("q", asked.value))
        #expect(session.currentQuestion == "next")
        #expect(session.visibleQuestions == ["q", "next"])
    }

    @Test(
        "an answer that is not complete does not advance",
        arguments: [
            Answering(tableSelect("q"), ["r1": "Yes"]),
            Answering(textField("q"), ""),
            Answering(question("q", "single_text_area"), ""),
            Answering(dynamicLabel("q"), ["Feet": "5"]),
            Answering(selectWithOther("q"), ["Other": ""]),
            Answering(multiSelect("q"), ["Pop"]),
            Answering(multiTextField("q"), ["Dogs": "1", "Cats": "0"]),
        ])
    func incompleteAnswerDoesNotAdvance(_ asked: Answering) throws {
        let session = try startSession(asked.question, select("next"))
        session.play(.answer("q", asked.value))
        #expect(session.currentQuestion == "q")
        #expect(session.visibleQuestions == ["q"])
    }

    @Test("table_select advances once its last row is answered")
    func tableSelectAdvancesWhenAllRowsAnswered() throws {
        let session = try startSession(tableSelect("q"), select("next"))
        session.play(.answer("q", ["r1": "Yes"]))
        #expect(session.currentQuestion == "q")
        session.play(.answer("q", ["r2": "Sometimes"]))
        #expect(session.currentQuestion == "next")
    }

    @Test("multi_select and multi_text_field need Next to advance")
    func multiAnswerTypesNeedNext() throws {
        let asked: [(definition: String, value: JSONValue)] = [(multiSelect("q"), ["Pop"]), (multiTextField("q"), ["Dogs": "2", "Cats": "1"])]
        for (definition, value) in asked {
            let session = try startSession(definition, select("next"))
            session.play(.answer("q", value))
            #expect(session.currentQuestion == "q")
            session.play(.tapNext)
            #expect(session.currentQuestion == "next")
            #expect(session.answer(for: "q") == value, "Next keeps the answer given")
        }
    }

    @Test("add_text_field sends its texts with Next, so answering it advances")
    func addTextFieldAdvancesWithItsNext() throws {
        let session = try startSession(question("q", "add_text_field"), select("next"))
        session.play(.answer("q", ["Golf"]))
        #expect(session.currentQuestion == "next")
    }

    @Test("add_text_field's Next sends its texts through update (AddTextFieldTableViewCell.swift:54-63), which evaluates dependents every time")
    func addTextFieldNextIsAnUpdate() throws {
        let session = try startSession(question("q", "add_text_field"), select("target", showIf: custom(ids: ["q"], key: "check")), select("end"))
        session.play(.answer("q", ["Golf"]))
        #expect(session.visibleQuestions == ["q", "end"])
        session.play(.hostCondition(key: "check", outcome: true), .next(question: "q"))
        #expect(session.visibleQuestions == ["q", "target", "end"])
        #expect(session.answer(for: "q") == ["Golf"])
    }

    // MARK: Next on an unanswered question

    struct EmptyAnswer: Sendable, CustomTestStringConvertible {
        let question: String
        let stored: JSONValue
        let advances: Bool
        var testDescription: String { "\(question.prefix(60))… stores \(json(stored))" }
    }

    @Test(
        "Next on an unanswered question stores the type's empty answer",
        arguments: [
            EmptyAnswer(question: multiSelect("q"), stored: [], advances: true),
            EmptyAnswer(question: question("q", "add_text_field"), stored: [], advances: true),
            EmptyAnswer(question: multiTextField("q"), stored: [:], advances: true),
            EmptyAnswer(question: dynamicLabel("q"), stored: [:], advances: true),
            EmptyAnswer(question: textField("q"), stored: "", advances: false),
            EmptyAnswer(question: question("q", "single_text_area"), stored: "", advances: false),
        ])
    func nextStoresEmptyAnswer(_ empty: EmptyAnswer) throws {
        let session = try startSession(empty.question, select("next"))
        session.play(.tapNext)
        #expect(session.answer(for: "q") == empty.stored)
        #expect(session.currentQuestion == (empty.advances ? "next" : "q"))
    }

    @Test("a multi_select is complete only after its Next, and stays complete when every option is later deselected")
    func multiSelectStaysCompleteAfterNext() throws {
        let parent = select("a", subQuestions: [multiSelect("m")])
        let withoutNext = try startSession(parent, select("end"))
        withoutNext.play(.answer("m", ["Pop"]), .answer("a", "Yes"))
        #expect(withoutNext.currentQuestion == "a", "the multi_select sub-question is not complete before its Next")

        let session = try startSession(parent, select("end"))
        session.play(.answer("m", ["Pop"]), .next(question: "m"), .answer("m", []))
        #expect(session.currentQuestion == "a")
        session.play(.answer("a", "Yes"))
        #expect(session.answer(for: "m") == [])
        #expect(session.currentQuestion == "end")
    }

    // MARK: editing earlier answers

    @Test("answering an earlier question again never moves the active question")
    func editingEarlierAnswerKeepsActiveQuestion() throws {
        let session = try startSession(select("a"), select("b"), select("c"))
        session.play(.answer("a", "Yes"), .answer("b", "Yes"))
        session.play(.answer("a", "No"))
        #expect(session.currentQuestion == "c")
        #expect(session.visibleQuestions == ["a", "b", "c"])
        session.play(.answer("b", "No"))
        #expect(session.currentQuestion == "c", "an earlier question never advances the survey")
    }

    @Test("editing an earlier answer hides a dependent but clears nothing and does not move back")
    func editingReevaluatesWithoutClearing() throws {
        let session = try startSession(select("a"), select("b", showIf: when("a", "equals", "Yes")), select("c"), select("d"))
        session.play(.answer("a", "Yes"), .answer("b", "No"), .answer("c", "No"))
        session.play(.answer("a", "No"))
        #expect(session.visibleQuestions == ["a", "c", "d"])
        #expect(session.currentQuestion == "d")
        #expect(session.answer(for: "b") == "No")
        #expect(session.answer(for: "c") == "No")
    }

    @Test("a newly shown earlier question appears unanswered in the middle, and later questions stay")
    func newlyShownQuestionAppearsInTheMiddle() throws {
        let session = try startSession(select("a"), select("b", showIf: when("a", "equals", "Yes")), select("c"), select("d"))
        session.play(.answer("a", "No"), .answer("c", "Yes"))
        #expect(session.visibleQuestions == ["a", "c", "d"])

        session.play(.answer("a", "Yes"))
        #expect(session.visibleQuestions == ["a", "b", "c", "d"])
        #expect(session.answer(for: "b") == nil)
        #expect(session.currentQuestion == "d")
        session.play(.answer("b", "Yes"))
        #expect(session.currentQuestion == "d")
    }

    @Test("answering an earlier question never advances, even when it leaves the active question fully answered")
    func earlierAnswerNeverAdvances() throws {
        let parent = select("b", subQuestions: [textField("why", showIf: when("a", "equals", "Yes"))])
        let session = try startSession(select("a"), parent, select("c"))
        session.play(.answer("a", "Yes"), .answer("b", "Yes"))
        #expect(session.visibleQuestions == ["a", "b", "why"])

        session.play(.answer("a", "No"))
        #expect(session.visibleQuestions == ["a", "b"])
        #expect(session.currentQuestion == "b")
        session.play(.answer("b", "Yes"))
        #expect(session.currentQuestion == "c")
    }

    @Test("hiding the active question moves on past it")
    func hidingActiveQuestionAdvances() throws {
        let session = try startSession(select("a"), select("b", showIf: when("a", "equals", "Yes")), select("c"))
        session.play(.answer("a", "Yes"))
        #expect(session.currentQuestion == "b")
        session.play(.answer("a", "No"))
        #expect(session.currentQuestion == "c")
        #expect(session.visibleQuestions == ["a", "c"])
    }

    @Test("advancing skips every hidden question in a row")
    func advancingSkipsHiddenQuestions() throws {
        let hidden = when("a", "equals", "Yes")
        let session = try startSession(select("a"), select("b", showIf: hidden), select("c", showIf: hidden), select("d"))
        session.play(.answer("a", "No"))
        #expect(session.currentQuestion == "d")
        #expect(session.visibleQuestions == ["a", "d"])
    }

    // MARK: hidden answers

    @Test("the answer of a hidden question is kept, keeps driving conditions and is submitted")
    func hiddenAnswersKeepWorking() throws {
        let session = try startSession(
            select("a"), multiSelect("b", showIf: when("a", "equals", "Yes")), select("c", showIf: when("b", "contains", "Pop")), select("d"))
        session.play(.answer("a", "Yes"), .answer("b", ["Pop"]), .tapNext)
        #expect(session.currentQuestion == "c")

        session.play(.answer("a", "No"))
        #expect(session.visibleQuestions == ["a", "c"])
        #expect(session.answer(for: "b") == ["Pop"])

        session.play(.answer("c", "Yes"), .answer("d", "No"), .submit)
        #expect(session.submittedAnswers == ["a": "No", "b": ["Pop"], "c": "Yes", "d": "No"])
    }

    // MARK: Submit

    @Test("Submit appears when the last question is fully answered")
    func submitAppearsAfterLastQuestion() throws {
        let session = try startSession(select("a"), select("b"))
        session.play(.answer("a", "Yes"))
        #expect(!session.isSubmittable)
        session.play(.answer("b", "No"))
        #expect(session.isSubmittable)
        #expect(session.currentQuestion == nil)
        #expect(session.visibleQuestions == ["a", "b"])
    }

    @Test("Submit appears when advancing runs onto a hidden last question")
    func submitAppearsWhenLastQuestionIsHidden() throws {
        let hidden = when("a", "equals", "Yes")
        let session = try startSession(select("a"), select("b", showIf: hidden), select("c", showIf: hidden))
        session.play(.answer("a", "No"))
        #expect(session.isSubmittable)
        #expect(session.currentQuestion == nil)
        #expect(session.visibleQuestions == ["a"])
    }

    @Test("Submit never disappears once shown, even when an unanswered question is shown again")
    func submitNeverDisappears() throws {
        let session = try startSession(select("a"), select("b", showIf: when("a", "equals", "Yes")))
        session.play(.answer("a", "No"))
        #expect(session.isSubmittable)

        session.play(.answer("a", "Yes"))
        #expect(session.visibleQuestions == ["a", "b"])
        #expect(session.isSubmittable)
        session.play(.submit)
        #expect(session.submittedAnswers == ["a": "Yes"])
    }

    @Test("the last question hidden while active and unanswered is a dead end: no Submit, no current question, and a dead_end event")
    func deadEnd() throws {
        let session = try startSession(select("a"), select("b", showIf: when("a", "equals", "Yes")))
        session.play(.answer("a", "Yes"))
        #expect(session.visibleQuestions == ["a", "b"])
        #expect(session.currentQuestion == "b")

        let result = session.perform(.answer("a", "No"))
        #expect(result.outcome == .ok)
        #expect(result.has(event: "dead_end"))
        #expect(session.visibleQuestions == ["a"])
        #expect(session.currentQuestion == nil, "the active question is hidden, so nothing on screen is current")
        #expect(!session.isSubmittable)
        #expect(session.perform(.submit).outcome.kind == .rejected)
        #expect(session.perform(.answer("b", "Yes")).outcome.kind == .rejected)
    }

    @Test("a dead end ends when the last question is shown again and answered")
    func deadEndRecovers() throws {
        let session = try startSession(select("a"), select("b", showIf: when("a", "equals", "Yes")))
        session.play(.answer("a", "Yes"), .answer("a", "No"))
        #expect(!session.isSubmittable)
        let shownAgain = session.perform(.answer("a", "Yes"))
        #expect(!shownAgain.has(event: "dead_end"))
        session.play(.answer("b", "Yes"))
        #expect(session.isSubmittable)
    }

    @Test("Submit is refused before it is shown")
    func submitRefusedBeforeShown() throws {
        let session = try startSession(select("a"), select("b"))
        session.play(.answer("a", "Yes"))
        let result = session.perform(.submit)
        #expect(result.outcome.kind == .rejected)
        #expect(session.payload == nil)
    }

    @Test("Submit sends every answer in one flat object under \"answers\"")
    func submitProducesPayload() throws {
        let session = try startSession(select("a", subQuestions: [textField("why")]), multiSelect("b"))
        session.play(.answer("a", "Yes"), .answer("why", "because"), .answer("b", ["Rap", "Pop"]), .tapNext)
        #expect(session.payload == nil)
        let result = session.perform(.submit)
        #expect(result.outcome == .ok)
        #expect(result.has(event: "submitted"))
        #expect(session.payload == ["answers": ["a": "Yes", "why": "because", "b": ["Rap", "Pop"]]])
    }

    @Test("every action after submit is refused")
    func actionsAfterSubmitRefused() throws {
        let session = try startSession(select("a"))
        session.play(.answer("a", "Yes"), .submit)
        #expect(session.perform(.answer("a", "No")).outcome.kind == .rejected)
        #expect(session.perform(.submit).outcome.kind == .rejected)
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        #expect(session.answer(for: "a") == "Yes")
        #expect(session.submittedAnswers == ["a": "Yes"])
    }

    // MARK: sub-questions

    private let sports = select("sports", subQuestions: [question("which", "add_text_field", showIf: when("sports", "equals", "Yes"))])

    @Test("a sub-question shows under its parent when its show_if holds")
    func subQuestionShownByParentAnswer() throws {
        let session = try startSession(sports, select("end"))
        #expect(session.visibleQuestions == ["sports"])
        session.play(.answer("sports", "Yes"))
        #expect(session.visibleQuestions == ["sports", "which"])
    }

    @Test("a question is fully answered only when its shown sub-questions are: then it advances")
    func shownSubQuestionMustBeAnswered() throws {
        let session = try startSession(sports, select("end"))
        session.play(.answer("sports", "Yes"))
        #expect(session.currentQuestion == "sports")
        session.play(.answer("which", ["Golf"]))
        #expect(session.currentQuestion == "end")
        #expect(session.visibleQuestions == ["sports", "which", "end"])
    }

    @Test("a hidden sub-question is not needed to advance")
    func hiddenSubQuestionNotRequired() throws {
        let session = try startSession(sports, select("end"))
        session.play(.answer("sports", "No"))
        #expect(session.currentQuestion == "end")
        #expect(session.visibleQuestions == ["sports", "end"])
    }

    @Test("a sub-question without show_if is always shown and must be answered")
    func subQuestionWithoutConditionAlwaysShown() throws {
        let session = try startSession(select("a", subQuestions: [textField("why")]), select("end"))
        #expect(session.visibleQuestions == ["a", "why"])
        session.play(.answer("a", "Yes"))
        #expect(session.currentQuestion == "a")
        session.play(.answer("why", "because"))
        #expect(session.currentQuestion == "end")
    }

    @Test("the last question with a shown sub-question shows Submit only when the sub-question is answered")
    func submitWaitsForSubQuestions() throws {
        let session = try startSession(select("a"), sports)
        session.play(.answer("a", "Yes"), .answer("sports", "Yes"))
        #expect(!session.isSubmittable)
        session.play(.answer("which", []))
        #expect(session.isSubmittable)
    }

    // MARK: unknown types

    @Test("a question of an unknown type can never be answered and blocks the survey")
    func unknownTypeBlocks() throws {
        let session = try startSession(select("a"), question("q", "slider"), select("end"))
        session.play(.answer("a", "Yes"))
        #expect(session.perform(.answer("q", "5")).outcome.kind == .rejected)
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        #expect(session.currentQuestion == "q")
        #expect(session.visibleQuestions == ["a", "q"])
    }

    // MARK: the stall after a multi_select tap (SQ:1292-1298)

    /// music (multi_select), gig shown while music contains Rock, then end.
    private func stallSurvey() throws -> any SurveySession {
        let session = try startSession(multiSelect("music"), select("gig", showIf: when("music", "contains", "Rock")), select("end"))
        session.play(.answer("music", ["Rock"]), .tapNext)
        #expect(session.currentQuestion == "gig")
        return session
    }

    @Test(
        "a plain multi_select tap that hides the active question does not advance: the active question stays, hidden; the respondent sees the questions before it, no current question, no Submit, and a stalled event")
    func multiSelectTapStalls() throws {
        let session = try stallSurvey()
        let result = session.perform(.answer("music", ["Pop"]))
        #expect(result.outcome == .ok)
        #expect(result.has(event: "stalled"))
        #expect(session.visibleQuestions == ["music"])
        #expect(session.currentQuestion == nil)
        #expect(!session.isSubmittable)
        #expect(session.perform(.answer("end", "Yes")).outcome.kind == .rejected)
    }

    @Test("Next on the multi_select (markFinished, SQ:1404-1425) runs sectionsToInsert and moves past the hidden question")
    func nextOnTheMultiSelectMovesOn() throws {
        let session = try stallSurvey()
        session.play(.answer("music", ["Pop"]))
        #expect(session.otherActions == [.next(question: "music")])
        session.play(.next(question: "music"))
        #expect(session.currentQuestion == "end")
        #expect(session.visibleQuestions == ["music", "end"])
    }

    @Test("another kind of answer change (update, SQ:1371-1397; a single_select option) moves the survey on too; a second toggle does not, unless it shows the question again")
    func otherAnswersMoveOn() throws {
        let session = try startSession(select("mood"), multiSelect("music"), select("gig", showIf: when("music", "contains", "Rock")), select("end"))
        session.play(.answer("mood", "Yes"), .answer("music", ["Rock"]), .tapNext, .answer("music", ["Pop"]))
        #expect(session.currentQuestion == nil)
        session.play(.answer("music", ["Pop", "Rap"]))
        #expect(session.currentQuestion == nil)
        session.play(.answer("mood", "No"))
        #expect(session.currentQuestion == "end")
        let shownAgain = try stallSurvey()
        shownAgain.play(.answer("music", ["Pop"]), .answer("music", ["Pop", "Rock"]))
        #expect(shownAgain.currentQuestion == "gig")
        #expect(shownAgain.visibleQuestions == ["music", "gig"])
    }

    @Test("next while the active question is hidden says so and what moves the survey on, not that the question has no Next button")
    func nextWhileHidden() throws {
        let session = try stallSurvey()
        session.play(.answer("music", ["Pop"]))
        let refused = session.perform(.tapNext)
        #expect(refused.outcome.kind == .rejected)
        let message = refused.outcome.message ?? ""
        #expect(message.contains("the active question 'gig' is hidden") && message.contains("next music"))
        #expect(!message.contains("has no Next button"))
    }

    @Test("a multi_select Other text commits through update (SQ:1371-1397), which moves past a hidden active question")
    func otherTextMovesOn() throws {
        let session = try startSession(
            question("music", "multi_select", #""options": ["Pop", "Rock", {"title": "Other", "type": "freeform"}]"#),
            select("gig", showIf: when("music", "contains", "Rock")), select("end"))
        session.play(.answer("music", ["Rock"]), .tapNext, .answer("music", ["Pop", "Jazz"]))
        #expect(session.currentQuestion == "end")
    }
}
