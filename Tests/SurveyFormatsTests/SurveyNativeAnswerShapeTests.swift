import SurveyCore
import Testing

@testable import SurveyFormats

/// What the engine stores for each question type (reference §2) and what it refuses to store.
@Suite("SurveyNative answer shapes")
struct SurveyNativeAnswerShapeTests {
    @Test(
        "each type stores its answer in its own shape, as given",
        arguments: [
            Answering(select("q"), "Yes"),
            Answering(selectWithOther("q", other: "Years old"), ["Years old": "20"]),
            Answering(multiSelect("q"), ["Rock", "Pop"]),
            Answering(question("q", "year_picker"), "1990"),
            Answering(question("q", "date_picker"), "2024-02-29"),
            Answering(textField("q"), "Hello there"),
            Answering(question("q", "single_text_area"), "A sunny day\nwith friends"),
            Answering(multiTextField("q"), ["Dogs": "1", "Cats": "0"]),
            Answering(dynamicLabel("q"), ["Feet": "5", "Inches": "10"]),
            Answering(dynamicLabel("q"), ["Centimeters": "180"]),
            Answering(question("q", "add_text_field"), ["Golf", "Tennis"]),
            Answering(question("q", "segment_select", #""values": ["1", "2", "3"]"#), "3"),
            Answering(tableSelect("q"), ["r1": "Yes", "r2": "Sometimes"]),
        ])
    func answersAreStoredAsGiven(_ asked: Answering) throws {
        let session = try startSession(asked.question, select("end"))
        session.play(.answer("q", asked.value))
        #expect(session.answer(for: "q") == asked.value)
    }

    @Test("a multi_select keeps the order of the taps, not the order of the options")
    func multiSelectKeepsTapOrder() throws {
        let session = try startSession(multiSelect("q"), select("end"))
        session.play(.answer("q", ["Rap", "Pop"]), .tapNext)
        #expect(session.answer(for: "q") == ["Rap", "Pop"])
    }

    @Test("a multi_select Other text is a plain extra string in the same array")
    func multiSelectOtherTextIsPlainString() throws {
        let options = #""options": ["Pop", "Rock", {"title": "Other", "type": "freeform"}]"#
        let session = try startSession(question("q", "multi_select", options), select("end"))
        session.play(.answer("q", ["Pop", "Polka"]), .tapNext)
        #expect(session.answer(for: "q") == ["Pop", "Polka"])
    }

    @Test("a multi_select without an Other option takes only its options")
    func multiSelectWithoutOtherRefusesFreeText() throws {
        let session = try startSession(multiSelect("q"), select("end"))
        #expect(session.perform(.answer("q", ["Pop", "Polka"])).outcome.kind == .doesNotFit)
        #expect(session.answer(for: "q") == nil)
    }

    @Test("tapping a single_select Other row without typing stores {title: \"\"}")
    func otherRowWithoutText() throws {
        let session = try startSession(selectWithOther("q"), select("end"))
        session.play(.answer("q", ["Other": ""]))
        #expect(session.answer(for: "q") == ["Other": ""])
    }

    @Test("choosing a plain option after Other stores the plain option text")
    func plainOptionReplacesOther() throws {
        let session = try startSession(selectWithOther("q"), select("end"))
        session.play(.answer("q", ["Other": ""]), .answer("q", "Vanilla"))
        #expect(session.answer(for: "q") == "Vanilla")
    }

    @Test("a multi_text_field stores each edited field under its label; fields never edited are absent")
    func multiTextFieldMergesFieldsByLabel() throws {
        let session = try startSession(multiTextField("q"), select("end"))
        session.play(.answer("q", ["Dogs": "2"]))
        #expect(session.answer(for: "q") == ["Dogs": "2"])
        session.play(.answer("q", ["Cats": "3"]))
        #expect(session.answer(for: "q") == ["Dogs": "2", "Cats": "3"])
    }

    @Test("a dynamic label answer is keyed by the chosen label set, a label left empty stored as \"\"")
    func dynamicLabelKeyedByChosenSet() throws {
        let session = try startSession(dynamicLabel("q"), select("end"))
        session.play(.answer("q", ["Feet": "5"]))
        #expect(session.answer(for: "q") == ["Feet": "5", "Inches": ""])
        session.play(.answer("q", ["Centimeters": "180"]))
        #expect(session.answer(for: "q") == ["Centimeters": "180"])
    }

    @Test("a dynamic label answer mixing labels of two sets does not fit")
    func dynamicLabelMixedSetsDoNotFit() throws {
        let session = try startSession(dynamicLabel("q"), select("end"))
        #expect(session.perform(.answer("q", ["Feet": "5", "Centimeters": "180"])).outcome.kind == .doesNotFit)
    }

    @Test("add_text_field drops empty texts and keeps the others in field order")
    func addTextFieldDropsEmptyStrings() throws {
        let session = try startSession(question("q", "add_text_field"), select("end"))
        session.play(.answer("q", ["Golf", "", "Tennis", ""]))
        #expect(session.answer(for: "q") == ["Golf", "Tennis"])
    }

    @Test("add_text_field is complete even when it holds no text")
    func addTextFieldCompleteWhenEmpty() throws {
        let session = try startSession(question("q", "add_text_field"), select("end"))
        session.play(.answer("q", ["", ""]))
        #expect(session.answer(for: "q") == [])
        #expect(session.currentQuestion == "end")
    }

    @Test("table_select merges the rows of successive taps and a row tapped again is overwritten")
    func tableSelectMergesRows() throws {
        let session = try startSession(tableSelect("q", rows: ["r1", "r2", "r3"]), select("end"))
        session.play(.answer("q", ["r1": "Yes"]), .answer("q", ["r2": "No"]), .answer("q", ["r1": "Sometimes"]))
        #expect(session.answer(for: "q") == ["r1": "Sometimes", "r2": "No"])
    }

    @Test("table_select can pick only its first three options: the cell has three buttons")
    func tableSelectOnlyFirstThreeOptions() throws {
        let session = try startSession(tableSelect("q", options: ["A", "B", "C", "D"]), select("end"))
        let fourth = session.perform(.answer("q", ["r1": "D"]))
        #expect(fourth.outcome.kind == .rejected)
        #expect(session.answer(for: "q") == nil)
        session.play(.answer("q", ["r1": "C", "r2": "A"]))
        #expect(session.answer(for: "q") == ["r1": "C", "r2": "A"])
    }

    @Test("sub-question answers are stored flat under their own id, not inside the parent's")
    func subQuestionAnswersAreFlat() throws {
        let session = try startSession(select("a", subQuestions: [textField("why")]))
        session.play(.answer("a", "Yes"), .answer("why", "because"), .submit)
        #expect(session.answer(for: "a") == "Yes")
        #expect(session.answer(for: "why") == "because")
        #expect(session.submittedAnswers == ["a": "Yes", "why": "because"])
    }

    // MARK: values that do not fit


    @Test(
        "a value of the wrong shape does not fit the survey",
        arguments: [
            Answering(select("q"), ["Yes"]),
            Answering(select("q"), 1),
            Answering(multiSelect("q"), "Pop"),
            Answering(textField("q"), 5),
            Answering(question("q", "single_text_area"), ["text"]),
            Answering(question("q", "year_picker"), 1990),
            Answering(question("q", "date_picker"), "22/11/2026"),
            Answering(question("q", "date_picker"), "2026-02-30"),
            Answering(multiTextField("q"), "2"),
            Answering(dynamicLabel("q"), ["5", "10"]),
            Answering(question("q", "add_text_field"), "Golf"),
            Answering(tableSelect("q"), "Yes"),
            Answering(question("q", "segment_select", #""values": ["1", "2"]"#), 1),
        ])
    func wrongShapeDoesNotFit(_ asked: Answering) throws {
        let session = try startSession(asked.question, select("end"))
        #expect(session.perform(.answer("q", asked.value)).outcome.kind == .doesNotFit)
        #expect(session.answer(for: "q") == nil)
        #expect(session.currentQuestion == "q")
    }

    @Test(
        "an option, value, row or label the question does not have does not fit the survey",
        arguments: [
            Answering(select("q"), "Maybe"),
            Answering(select("q"), ["Other": "Mint"]),
            Answering(selectWithOther("q"), ["Another": "Mint"]),
            Answering(multiSelect("q"), ["Jazz"]),
            Answering(question("q", "segment_select", #""values": ["1", "2"]"#), "3"),
            Answering(tableSelect("q"), ["r9": "Yes"]),
            Answering(tableSelect("q"), ["r1": "Maybe"]),
            Answering(multiTextField("q"), ["Birds": "2"]),
            Answering(dynamicLabel("q"), ["Meters": "2"]),
        ])
    func missingChoiceDoesNotFit(_ asked: Answering) throws {
        let session = try startSession(asked.question, select("end"))
        #expect(session.perform(.answer("q", asked.value)).outcome.kind == .doesNotFit)
        #expect(session.answer(for: "q") == nil)
    }
}
