import SurveyCore
import Testing

@testable import SurveyFormats

/// What stops a survey from loading, and the force-unwraps of the real engine that only bite when a
/// question is shown (reference §1, "Other quirks", and the addendum on cyclic conditions).
@Suite("SurveyNative loading and engine crashes")
struct SurveyNativeLoadTests {
    /// `surveyText` puts question `i` on line `i + 1`; the 1-based column of the `show_if` object in it.
    private func showIfColumn(in question: String) throws -> Int {
        let range = try #require(question.range(of: #""show_if": "#))
        return question.distance(from: question.startIndex, to: range.upperBound) + 1
    }

    // MARK: cycles

    @Test("two questions whose show_if name each other fail to load, with the cycle located")
    func twoQuestionCycleFailsToLoad() throws {
        let errors = loadErrors(select("start"), select("a", showIf: when("b", "equals", "Yes")), select("b", showIf: when("a", "equals", "Yes")))
        let error = try #require(errors.first)
        #expect(error.message.contains("cycle"))
        #expect(error.message.contains("a") && error.message.contains("b"))
        #expect(error.file == "test.json")
        #expect([2, 3].contains(error.position?.line))
    }

    @Test("a show_if that names its own question fails to load, located at that show_if")
    func selfReferenceFailsToLoad() throws {
        let looping = select("a", showIf: when("a", "equals", "Yes"))
        let errors = loadErrors(select("start"), looping)
        let error = try #require(errors.first)
        #expect(error.message.contains("cycle"))
        #expect(error.position == SourcePosition(line: 2, column: try showIfColumn(in: looping)))
    }

    @Test("a longer cycle, and one through a custom condition's ids, fail to load")
    func longerCyclesFailToLoad() throws {
        let three = loadErrors(
            select("a", showIf: when("c", "equals", "Yes")), select("b", showIf: when("a", "equals", "Yes")),
            select("c", showIf: when("b", "equals", "Yes")))
        #expect(three.first?.message.contains("cycle") == true)
        let throughCustom = loadErrors(select("a", showIf: custom(ids: ["b"], key: "k")), select("b", showIf: when("a", "equals", "Yes")))
        #expect(throughCustom.first?.message.contains("cycle") == true)
    }

    @Test("a cycle through the subconditions of a tree with an unknown operation still fails to load")
    func cycleThroughUnknownTreeOperationFailsToLoad() throws {
        let errors = loadErrors(select("start"), select("a", showIf: tree("xor", [when("a", "equals", "Yes")])))
        #expect(errors.first?.message.contains("cycle") == true)
    }

    @Test("an acyclic chain of show_if loads")
    func acyclicChainLoads() throws {
        let session = try startSession(
            select("a"), select("b", showIf: when("a", "equals", "Yes")), select("c", showIf: when("b", "equals", "Yes")),
            select("d", showIf: allOf(when("a", "equals", "Yes"), when("c", "equals", "Yes"))))
        session.play(.answer("a", "Yes"), .answer("b", "Yes"), .answer("c", "Yes"))
        #expect(session.visibleQuestions == ["a", "b", "c", "d"])
    }

    @Test("a sub-question's show_if naming its parent is no cycle")
    func subQuestionNamingParentLoads() throws {
        let session = try startSession(select("a", subQuestions: [textField("why", showIf: when("a", "equals", "Yes"))]))
        session.play(.answer("a", "Yes"))
        #expect(session.visibleQuestions == ["a", "why"])
    }

    // MARK: ids

    @Test("a show_if naming no question fails to load, located, with a did-you-mean suggestion")
    func danglingIDFailsToLoad() throws {
        let misspelt = select("target", showIf: when("like_musik", "equals", "Yes"))
        let errors = loadErrors(select("like_music"), misspelt)
        let error = try #require(errors.first)
        #expect(error.message.contains("'like_musik'"))
        #expect(error.message.contains("did you mean 'like_music'?"))
        #expect(error.position == SourcePosition(line: 2, column: try showIfColumn(in: misspelt)))
    }

    @Test("a dangling id inside a tree or a custom condition's ids fails to load too")
    func danglingIDInTreeOrCustomFailsToLoad() throws {
        let inTree = loadErrors(select("a"), select("b", showIf: anyOf(when("a", "equals", "Yes"), allOf(when("zz", "equals", "No")))))
        #expect(inTree.first?.message.contains("'zz'") == true)
        let inCustom = loadErrors(select("age"), select("b", showIf: custom(ids: ["age", "birthyaer"], key: "check")))
        #expect(inCustom.first?.message.contains("'birthyaer'") == true)
    }

    @Test("a sub-question's show_if naming no question fails to load")
    func danglingIDInSubQuestionFailsToLoad() throws {
        let errors = loadErrors(select("a", subQuestions: [textField("why", showIf: when("aa", "equals", "Yes"))]), select("z"))
        #expect(errors.first?.message.contains("'aa'") == true)
    }

    @Test("two questions with one id fail to load, located at the second")
    func duplicateIDsFailToLoad() throws {
        let errors = loadErrors(select("a"), select("b"), select("a", ["x"]))
        let error = try #require(errors.first)
        #expect(error.message.contains("duplicate id 'a'"))
        #expect(error.position?.line == 3)
    }

    @Test("a sub-question with the id of a top-level question fails to load")
    func duplicateIDOfSubQuestionFailsToLoad() throws {
        let errors = loadErrors(select("a", subQuestions: [textField("b")]), select("b"))
        #expect(errors.first?.message.contains("duplicate id 'b'") == true)
    }

    // MARK: file shape

    @Test("a question without id or question_type fails to load")
    func missingRequiredKeysFailToLoad() throws {
        #expect(!loadErrors(#"{"question_type": "single_select", "options": ["Yes"]}"#).isEmpty)
        #expect(!loadErrors(#"{"id": "a", "options": ["Yes"]}"#).isEmpty)
    }

    @Test("submit must be an object of strings")
    func submitMustHoldStrings() throws {
        let numeric = #"{"questions": [\#(select("a"))], "submit": {"button_title": "Send", "url": 42}}"#
        #expect(loadErrors(text: numeric).first?.message.contains("submit") == true)
    }

    @Test("questions must be an array of question objects")
    func questionsMustBeObjects() throws {
        let errors = loadErrors(text: #"{"questions": ["a"], "submit": {"button_title": "Send", "url": "https://example.com"}}"#)
        #expect(errors.first?.message.contains("questions") == true)
    }

    @Test("a file without questions and submit is not a SurveyNative survey")
    func unrecognizedFile() throws {
        let errors = loadErrors(text: #"{"questions": []}"#)
        #expect(errors.first?.message.contains("cannot tell which survey format") == true)
    }

    // MARK: keys force-unwrapped when a question is shown

    static let broken: [String] = [
        question("q", "single_select"),
        question("q", "multi_select"),
        question("q", "segment_select"),
        question("q", "table_select", #""table_questions": [{"title": "Row", "id": "r1"}]"#),
        question("q", "table_select", #""options": ["Yes", "No"]"#),
        question("q", "multi_text_field"),
        question("q", "single_select", #""options": ["Yes", {"title": "Other"}]"#),
    ]

    @Test(
        "the action that would reveal a question lacking a force-unwrapped key is refused, and nothing changes",
        arguments: SurveyNativeLoadTests.broken)
    func revealingBrokenQuestionRefused(_ broken: String) throws {
        let session = try startSession(select("a"), broken, select("end"))
        let result = session.perform(.answer("a", "Yes"))
        #expect(result.outcome.kind == .rejected)
        #expect(result.outcome.message?.contains("would crash") == true)
        #expect(session.answer(for: "a") == nil)
        #expect(session.visibleQuestions == ["a"])
    }

    @Test("a first question lacking a force-unwrapped key fails to load", arguments: SurveyNativeLoadTests.broken)
    func brokenFirstQuestionFailsToLoad(_ broken: String) throws {
        let errors = loadErrors(broken, select("end"))
        #expect(errors.first?.message.contains("would crash") == true)
    }

    @Test("a question lacking options never crashes while it stays hidden")
    func hiddenBrokenQuestionNeverCrashes() throws {
        let session = try startSession(select("a"), question("q", "single_select", showIf: when("a", "equals", "Yes")), select("end"))
        session.play(.answer("a", "No"), .answer("end", "Yes"))
        #expect(session.isSubmittable)
        #expect(session.perform(.answer("a", "Yes")).outcome.kind == .rejected)
        #expect(session.answer(for: "a") == "No")
    }

    // MARK: submit

    private func surveyWithSubmit(_ submit: String) -> String {
        #"{"questions": [\#(select("a"))], "submit": \#(submit)}"#
    }

    @Test("a submit url that is not a URL would crash on posting: Submit is refused")
    func invalidSubmitURLRefusesSubmit() throws {
        for submit in [#"{"button_title": "Send", "url": ""}"#, #"{"button_title": "Send"}"#] {
            let session = try loadSurvey(text: surveyWithSubmit(submit)).makeSession(SessionSettings(today: testToday))
            session.play(.answer("a", "Yes"))
            let result = session.perform(.submit)
            #expect(result.outcome.kind == .rejected, "\(submit)")
            #expect(result.outcome.message?.contains("would crash") == true)
            #expect(session.payload == nil)
        }
    }

    @Test("a submit without button_title would crash when Submit is shown: the action showing it is refused")
    func missingButtonTitleRefusesShowingSubmit() throws {
        let survey = try loadSurvey(text: surveyWithSubmit(#"{"url": "https://example.com/answers"}"#))
        let session = survey.makeSession(SessionSettings(today: testToday))
        let result = session.perform(.answer("a", "Yes"))
        #expect(result.outcome.kind == .rejected)
        #expect(result.outcome.message?.contains("would crash") == true)
        #expect(!session.isSubmittable)
        #expect(session.answer(for: "a") == nil)
    }
}
