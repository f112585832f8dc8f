import SurveyCore
import Testing

@testable import SurveyFormats

/// Refusals of actions the engine cannot take, `max_chars`, and validations (reference §5).
@Suite("SurveyNative refusals and validations")
struct SurveyNativeValidationTests {
    // MARK: questions that cannot be answered now

    @Test("answering a question not yet revealed is refused and stores nothing")
    func answeringUnrevealedQuestionRejected() throws {
        let session = try startSession(select("a"), select("b"))
        #expect(session.perform(.answer("b", "Yes")).outcome.kind == .rejected)
        #expect(session.answer(for: "b") == nil)
        #expect(session.currentQuestion == "a")
    }

    @Test("answering a hidden question is refused and stores nothing")
    func answeringHiddenQuestionRejected() throws {
        let session = try startSession(select("a"), select("b", showIf: when("a", "equals", "Yes")), select("c"))
        session.play(.answer("a", "No"))
        #expect(session.perform(.answer("b", "Yes")).outcome.kind == .rejected)
        #expect(session.answer(for: "b") == nil)
    }

    @Test("answering a hidden sub-question is refused")
    func answeringHiddenSubQuestionRejected() throws {
        let session = try startSession(select("a", subQuestions: [textField("why", showIf: when("a", "equals", "Yes"))]), select("end"))
        session.play(.answer("a", "No"))
        #expect(session.perform(.answer("why", "because")).outcome.kind == .rejected)
        #expect(session.answer(for: "why") == nil)
    }

    @Test("an unknown question id does not fit the survey, with a suggestion for a likely typo")
    func unknownQuestionDoesNotFit() throws {
        let session = try startSession(select("like_music"))
        let result = session.perform(.answer("like_musik", "Yes"))
        #expect(result.outcome.kind == .doesNotFit)
        #expect(result.outcome.message?.contains("did you mean 'like_music'") == true)
        #expect(session.perform(.next(question: "nothing")).outcome.kind == .doesNotFit)
    }

    @Test("back and clear do not fit: SurveyNative has neither")
    func backAndClearDoNotFit() throws {
        let session = try startSession(select("a"), select("b"))
        session.play(.answer("a", "Yes"))
        #expect(session.perform(.back).outcome.kind == .doesNotFit)
        #expect(session.perform(.clear(question: "a")).outcome.kind == .doesNotFit)
        #expect(session.answer(for: "a") == "Yes")
        #expect(session.currentQuestion == "b")
    }

    // MARK: max_chars

    @Test("text longer than a string max_chars is refused; text of that length is taken")
    func maxCharsLimitsTyping() throws {
        let session = try startSession(textField("q", #""max_chars": "2""#), select("end"))
        #expect(session.perform(.answer("q", "100")).outcome.kind == .rejected)
        #expect(session.answer(for: "q") == nil)
        session.play(.answer("q", "99"))
        #expect(session.answer(for: "q") == "99")
    }

    @Test("a max_chars string that is not an integer refuses all typing")
    func nonIntegerMaxCharsRejectsAllTyping() throws {
        let session = try startSession(textField("q", #""max_chars": "two""#), select("end"))
        #expect(session.perform(.answer("q", "1")).outcome.kind == .rejected)
        #expect(session.answer(for: "q") == nil)
    }

    @Test("a numeric max_chars is ignored: the length is unlimited")
    func numericMaxCharsIsUnlimited() throws {
        let session = try startSession(textField("q", #""max_chars": 2"#), select("end"))
        session.play(.answer("q", "a much longer text"))
        #expect(session.answer(for: "q") == "a much longer text")
    }

    @Test("max_chars limits each field of a multi_text_field")
    func maxCharsPerMultiTextField() throws {
        let fields = #""fields": [{"label": "Dogs", "input_type": "number", "max_chars": "1"}, {"label": "Cats", "input_type": "number"}]"#
        let session = try startSession(question("q", "multi_text_field", fields), select("end"))
        #expect(session.perform(.answer("q", ["Dogs": "12"])).outcome.kind == .rejected)
        session.play(.answer("q", ["Dogs": "1", "Cats": "12"]))
        #expect(session.answer(for: "q") == ["Dogs": "1", "Cats": "12"])
    }

    @Test("single_text_area ignores max_chars")
    func textAreaIgnoresMaxChars() throws {
        let session = try startSession(question("q", "single_text_area", #""max_chars": "2""#), select("end"))
        session.play(.answer("q", "longer than two"))
        #expect(session.answer(for: "q") == "longer than two")
    }

    // MARK: validations

    @Test(
        "the four numeric comparisons validate the typed text as a number",
        arguments: [
            Comparison("11", "greater than", 10, true),
            Comparison("10", "greater than", 10, false),
            Comparison("10", "greater than or equal to", "10", true),
            Comparison("9.5", "greater than or equal to", 10, false),
            Comparison("9", "less than", 10, true),
            Comparison("10", "less than", 10, false),
            Comparison("10.0", "less than or equal to", 10, true),
            Comparison("1e3", "less than or equal to", 10, false),
        ])
    func numericValidations(_ check: Comparison) throws {
        let rule = validation(check.operation, check.value, message: "out of range")
        let session = try startSession(textField("q", validations(rule)), select("end"))
        let outcome = session.perform(.answer("q", .string(check.text))).outcome
        #expect(outcome == (check.holds ? .ok : .validationFailed("out of range")))
    }

    @Test("text that is not a number fails every numeric validation")
    func nonNumericTextFailsValidation() throws {
        for operation in ["greater than", "greater than or equal to", "less than", "less than or equal to"] {
            let rule = validation(operation, 10, message: "a number please")
            let session = try startSession(textField("q", validations(rule)), select("end"))
            #expect(session.perform(.answer("q", "ten")).outcome == .validationFailed("a number please"), "\(operation)")
            #expect(session.perform(.answer("q", " 10")).outcome == .validationFailed("a number please"), "\(operation)")
        }
    }

    @Test("equals, not equals and any other operation always fail as validations")
    func nonNumericValidationOperationsAlwaysFail() throws {
        let cases: [(operation: String, text: String)] = [("equals", "5"), ("not equals", "6"), ("contains", "5")]
        for (operation, text) in cases {
            let rule = validation(operation, "5", message: "\(operation) failed")
            let session = try startSession(textField("q", validations(rule)), select("end"))
            #expect(session.perform(.answer("q", .string(text))).outcome == .validationFailed("\(operation) failed"))
            #expect(session.answer(for: "q") == nil)
        }
    }

    @Test("validations run in order and the first failure's message is returned")
    func firstFailureWins() throws {
        let rules = [
            validation("greater than", 10, message: "at least 11"),
            validation("less than", 20, message: "under 20"),
            validation("less than", 5, message: "under 5"),
        ]
        let session = try startSession(textField("q", validations(rules)), select("end"))
        #expect(session.perform(.answer("q", "3")).outcome == .validationFailed("at least 11"))
        #expect(session.perform(.answer("q", "25")).outcome == .validationFailed("under 20"))
        #expect(session.perform(.answer("q", "15")).outcome == .validationFailed("under 5"))
    }

    @Test("a failed validation stores nothing and does not advance")
    func failedValidationLeavesStateAlone() throws {
        let rule = validation("greater than", 10, message: "Age must be at least 10")
        let session = try startSession(textField("q", validations(rule)), select("end"))
        #expect(session.perform(.answer("q", "9")).outcome == .validationFailed("Age must be at least 10"))
        #expect(session.answer(for: "q") == nil)
        #expect(session.currentQuestion == "q")
        session.play(.answer("q", "12"))
        #expect(session.currentQuestion == "end")
    }

    @Test("answer_to_question_id validates against another question's answer")
    func validationAgainstAnotherAnswer() throws {
        let rule = #"{"operation": "less than or equal to", "answer_to_question_id": "age", "on_fail_message": "Time machines not invented yet"}"#
        let session = try startSession(textField("age"), textField("kiss", validations(rule)), select("end"))
        session.play(.answer("age", "30"))
        #expect(session.perform(.answer("kiss", "31")).outcome == .validationFailed("Time machines not invented yet"))
        session.play(.answer("kiss", "30"))
        #expect(session.answer(for: "kiss") == "30")
    }

    @Test("answer_to_question_id naming a dictionary or array answer always fails")
    func validationAgainstStructuredAnswerFails() throws {
        let rule = #"{"operation": "less than", "answer_to_question_id": "pets", "on_fail_message": "not comparable"}"#
        let session = try startSession(multiTextField("pets"), textField("q", validations(rule)), select("end"))
        session.play(.answer("pets", ["Dogs": "100"]), .tapNext)
        #expect(session.perform(.answer("q", "1")).outcome == .validationFailed("not comparable"))
    }

    @Test("answer_to_question_id naming an unanswered question would crash: the action is refused and nothing changes")
    func validationAgainstUnansweredQuestionWouldCrash() throws {
        let rule = #"{"operation": "less than or equal to", "answer_to_question_id": "later", "on_fail_message": "too big"}"#
        let session = try startSession(select("a"), textField("q", validations(rule)), textField("later"))
        session.play(.answer("a", "Yes"))
        let result = session.perform(.answer("q", "5"))
        #expect(result.outcome.kind == .rejected)
        #expect(result.outcome.message?.contains("would crash") == true)
        #expect(session.answer(for: "q") == nil)
        #expect(session.currentQuestion == "q")
        #expect(session.visibleQuestions == ["a", "q"])
    }

    @Test("a dynamic label validation checks the field of its for_label")
    func dynamicLabelValidationForLabel() throws {
        let rules = [
            validation("greater than", 3, message: "Height must be at least 4 feet", forLabel: "Feet"),
            validation("less than", 12, message: "Inches under 12", forLabel: "Inches"),
        ]
        let session = try startSession(dynamicLabel("q", rules: rules), select("end"))
        #expect(session.perform(.answer("q", ["Feet": "2", "Inches": "0"])).outcome == .validationFailed("Height must be at least 4 feet"))
        #expect(session.perform(.answer("q", ["Feet": "5", "Inches": "13"])).outcome == .validationFailed("Inches under 12"))
        #expect(session.answer(for: "q") == nil)
        session.play(.answer("q", ["Feet": "5", "Inches": "10"]))
        #expect(session.currentQuestion == "end")
    }

    @Test("a dynamic label validation whose for_label is not in the chosen label set is skipped")
    func dynamicLabelValidationOffScreenSkipped() throws {
        let rule = validation("greater than", 3, message: "Height must be at least 4 feet", forLabel: "Feet")
        let session = try startSession(dynamicLabel("q", rules: [rule]), select("end"))
        session.play(.answer("q", ["Centimeters": "2"]))
        #expect(session.answer(for: "q") == ["Centimeters": "2"])
    }

    @Test("single_text_area ignores its validations")
    func textAreaIgnoresValidations() throws {
        let rule = validation("greater than", 100, message: "never shown")
        let session = try startSession(question("q", "single_text_area", validations(rule)), select("end"))
        session.play(.answer("q", "not a number at all"))
        #expect(session.currentQuestion == "end")
    }

    @Test("a single_select Other option validates its text with its own validations")
    func singleSelectOtherValidations() throws {
        let rule = validation("greater than", 5, message: "Age must be at least 10")
        let session = try startSession(selectWithOther("q", ["Don't know"], other: "Years old", rules: [rule]), select("end"))
        #expect(session.perform(.answer("q", ["Years old": "3"])).outcome == .validationFailed("Age must be at least 10"))
        #expect(session.currentQuestion == "q")
        session.play(.answer("q", ["Years old": "20"]))
        #expect(session.answer(for: "q") == ["Years old": "20"])
        #expect(session.currentQuestion == "end")
    }

    @Test("a multi_select Other text is committed only when its validations pass")
    func multiSelectOtherValidations() throws {
        let rule = validation("greater than", 0, message: "a positive number")
        let options = #""options": ["Pop", {"title": "Other", "type": "number", \#(validations(rule))}]"#
        let session = try startSession(question("q", "multi_select", options), select("end"))
        // Ticking Other stores "" (SQ:1293-1294); the text that fails is not sent (OtherOptionTableViewCell.swift:32-36).
        #expect(session.perform(.answer("q", ["Pop", "-1"])).outcome == .validationFailed("a positive number"))
        #expect(session.answer(for: "q") == ["Pop", ""])
        session.play(.answer("q", ["Pop", "7"]))
        #expect(session.answer(for: "q") == ["Pop", "7"])
        // A later text that fails leaves the earlier one.
        #expect(session.perform(.answer("q", ["Pop", "0"])).outcome == .validationFailed("a positive number"))
        #expect(session.answer(for: "q") == ["Pop", "7"])
    }

    @Test("ticking a multi_select Other without typing stores \"\" and checks no validation: the edit ending with \"\" sends nothing")
    func multiSelectOtherTickStoresEmptyText() throws {
        let rule = validation("greater than", 0, message: "a positive number")
        let options = #""options": ["Pop", {"title": "Other", "type": "number", \#(validations(rule))}]"#
        let session = try startSession(question("q", "multi_select", options), select("end"))
        // "" is not a number, so it would fail the validation if it were checked (OtherOptionTableViewCell.swift:29-31).
        #expect(session.perform(.answer("q", ["", "Pop"])).outcome == .ok)
        #expect(session.answer(for: "q") == ["", "Pop"])
        #expect(session.currentQuestion == "q")
    }

    @Test("the validations of a multi_text_field apply to every field")
    func multiTextFieldValidationsApplyToEveryField() throws {
        let rule = validation("greater than or equal to", 0, message: "no negative pets")
        let session = try startSession(multiTextField("q", validations(rule)), select("end"))
        #expect(session.perform(.answer("q", ["Dogs": "1", "Cats": "-1"])).outcome == .validationFailed("no negative pets"))
        #expect(session.perform(.answer("q", ["Dogs": "-2"])).outcome == .validationFailed("no negative pets"))
        session.play(.answer("q", ["Dogs": "1", "Cats": "0"]))
        #expect(session.answer(for: "q") == ["Dogs": "1", "Cats": "0"])
    }

    @Test("a failing validation without on_fail_message would crash: the action is refused")
    func validationWithoutMessageWouldCrash() throws {
        let session = try startSession(textField("q", validations(#"{"operation": "greater than", "value": 10}"#)), select("end"))
        let result = session.perform(.answer("q", "5"))
        #expect(result.outcome.kind == .rejected)
        #expect(result.outcome.message?.contains("would crash") == true)
        #expect(session.answer(for: "q") == nil)
        session.play(.answer("q", "11"))
    }
}
