import SurveyCore
import Testing

@testable import SurveyFormats

/// `show_if` evaluation (`conditionMet`, reference §4). Each test places the condition on a question that
/// follows the question it reads, answers that question, and looks whether the condition's question shows.
@Suite("SurveyNative show_if conditions")
struct SurveyNativeConditionTests {
    // MARK: equals and not equals

    @Test("equals matches a string answer exactly, case included")
    func equalsMatchesTheExactString() throws {
        #expect(try showIfHolds(when("a", "equals", "Yes"), performing: [.answer("a", "Yes")]))
        #expect(try !showIfHolds(when("a", "equals", "yes"), performing: [.answer("a", "Yes")]))
        #expect(try !showIfHolds(when("a", "equals", "Yes"), performing: [.answer("a", "No")]))
    }

    @Test("not equals is the negation of equals on an answered question")
    func notEqualsNegatesEquals() throws {
        #expect(try showIfHolds(when("a", "not equals", "Yes"), performing: [.answer("a", "No")]))
        #expect(try !showIfHolds(when("a", "not equals", "Yes"), performing: [.answer("a", "Yes")]))
    }

    @Test("a number value never equals a string answer: no type coercion")
    func numberValueNeverEqualsStringAnswer() throws {
        let before = [textField("a")]
        #expect(try !showIfHolds(when("a", "equals", 5), before: before, performing: [.answer("a", "5")]))
        #expect(try showIfHolds(when("a", "not equals", 5), before: before, performing: [.answer("a", "5")]))
        #expect(try showIfHolds(when("a", "equals", "5"), before: before, performing: [.answer("a", "5")]))
    }

    @Test("not equals is true and equals false on an unanswered question")
    func unansweredQuestionIsNotEqualToAnything() throws {
        let later = [select("later", ["x", "y"])]
        let answered = when("a", "equals", "Yes")
        #expect(try showIfHolds(allOf(answered, when("later", "not equals", "x")), after: later, performing: [.answer("a", "Yes")]))
        #expect(try !showIfHolds(allOf(answered, when("later", "equals", "x")), after: later, performing: [.answer("a", "Yes")]))
    }

    @Test("a JSON null value equals nothing, answered or not")
    func nullValueNeverEquals() throws {
        let later = [select("later")]
        #expect(try !showIfHolds(when("a", "equals", .null), performing: [.answer("a", "Yes")]))
        #expect(try showIfHolds(when("a", "not equals", .null), performing: [.answer("a", "Yes")]))
        let unansweredEqualsNull = allOf(when("a", "equals", "Yes"), when("later", "equals", .null))
        #expect(try !showIfHolds(unansweredEqualsNull, after: later, performing: [.answer("a", "Yes")]))
    }

    @Test("equals on a multi_select answer compares arrays in order")
    func arraysCompareOrderSensitively() throws {
        let before = [multiSelect("a")]
        let picked: [Action] = [.answer("a", ["Pop", "Rock"]), .tapNext]
        #expect(try showIfHolds(when("a", "equals", ["Pop", "Rock"]), before: before, performing: picked))
        #expect(try !showIfHolds(when("a", "equals", ["Rock", "Pop"]), before: before, performing: picked))
    }

    @Test("equals on a dictionary answer compares by content, whatever the key order")
    func dictionariesCompareByContent() throws {
        let before = [tableSelect("a")]
        let picked: [Action] = [.answer("a", ["r1": "Yes", "r2": "No"])]
        #expect(try showIfHolds(#"{"id": "a", "operation": "equals", "value": {"r2": "No", "r1": "Yes"}}"#, before: before, performing: picked))
        #expect(try !showIfHolds(when("a", "equals", ["r1": "Yes", "r2": "Yes"]), before: before, performing: picked))
    }

    @Test("a single_select Other answer is a dictionary and never equals a string")
    func otherAnswerNeverEqualsString() throws {
        let before = [selectWithOther("a")]
        let picked: [Action] = [.answer("a", ["Other": "Mint"])]
        #expect(try !showIfHolds(when("a", "equals", "Mint"), before: before, performing: picked))
        #expect(try !showIfHolds(when("a", "equals", "Other"), before: before, performing: picked))
        #expect(try showIfHolds(when("a", "not equals", "Mint"), before: before, performing: picked))
    }

    // MARK: subid

    @Test("subid compares one part of a dictionary answer")
    func subidPicksPartOfDictionaryAnswer() throws {
        let picked: [Action] = [.answer("a", ["r1": "Yes", "r2": "No"])]
        #expect(try showIfHolds(when("a", "equals", "No", subid: "r2"), before: [tableSelect("a")], performing: picked))
        #expect(try !showIfHolds(when("a", "equals", "Yes", subid: "r2"), before: [tableSelect("a")], performing: picked))
        let other: [Action] = [.answer("a", ["Other": "Mint"])]
        #expect(try showIfHolds(when("a", "equals", "Mint", subid: "Other"), before: [selectWithOther("a")], performing: other))
    }

    @Test("subid naming a part the dictionary lacks compares as unanswered")
    func subidOfMissingPartIsUnanswered() throws {
        let picked: [Action] = [.answer("a", ["Dogs": "1"]), .tapNext]
        #expect(try !showIfHolds(when("a", "equals", "1", subid: "Cats"), before: [multiTextField("a")], performing: picked))
        #expect(try showIfHolds(when("a", "not equals", "1", subid: "Cats"), before: [multiTextField("a")], performing: picked))
    }

    @Test("subid is ignored when the answer is not a dictionary")
    func subidIgnoredOnNonDictionaryAnswer() throws {
        #expect(try showIfHolds(when("a", "equals", "Yes", subid: "r1"), performing: [.answer("a", "Yes")]))
        let picked: [Action] = [.answer("a", ["Pop"]), .tapNext]
        #expect(try showIfHolds(when("a", "contains", "Pop", subid: "r1"), before: [multiSelect("a")], performing: picked))
    }

    // MARK: numeric comparisons

    @Test(
        "the four numeric comparisons compare both sides as Double",
        arguments: [
            Comparison("7", "greater than", "5", true),
            Comparison("5", "greater than", "5", false),
            Comparison("5", "greater than or equal to", "5", true),
            Comparison("4", "greater than or equal to", "5", false),
            Comparison("4", "less than", 5, true),
            Comparison("5", "less than", 5, false),
            Comparison("5", "less than or equal to", 5, true),
            Comparison("6", "less than or equal to", 5, false),
            Comparison("10", "greater than", 9, true),
            Comparison("-2.5", "less than", "-2", true),
        ])
    func numericComparisons(_ comparison: Comparison) throws {
        let condition = when("a", comparison.operation, comparison.value)
        #expect(try showIfHolds(condition, before: [textField("a")], performing: [.answer("a", .string(comparison.text))]) == comparison.holds)
    }

    @Test(
        "numbers are parsed strictly: \"5.0\" and \"1e2\" are numbers",
        arguments: [
            Comparison("5.0", "greater than or equal to", 5, true),
            Comparison("5.0", "less than or equal to", "5", true),
            Comparison("1e2", "greater than", 99, true),
            Comparison("1e2", "less than", "101", true),
        ])
    func numericStringsThatParse(_ comparison: Comparison) throws {
        let condition = when("a", comparison.operation, comparison.value)
        #expect(try showIfHolds(condition, before: [textField("a")], performing: [.answer("a", .string(comparison.text))]) == comparison.holds)
    }

    @Test(
        "a side that is not a number makes every numeric comparison false (\" 5\", \"\", \"abc\")",
        arguments: [
            Comparison(" 5", "greater than", 1, false),
            Comparison(" 5", "less than", 100, false),
            Comparison("5 ", "greater than or equal to", 5, false),
            Comparison("abc", "greater than", 1, false),
            Comparison("abc", "less than or equal to", 1, false),
            Comparison("5", "greater than", "", false),
            Comparison("5", "less than", "", false),
            Comparison("5", "less than", " 9", false),
            Comparison("5", "greater than", "x", false),
            Comparison("5", "less than", ["9"], false),
        ])
    func nonNumericSideIsFalse(_ comparison: Comparison) throws {
        let condition = when("a", comparison.operation, comparison.value)
        #expect(try showIfHolds(condition, before: [textField("a")], performing: [.answer("a", .string(comparison.text))]) == comparison.holds)
    }

    @Test("numeric comparisons are false on an unanswered question, an array answer and a dictionary answer")
    func numericComparisonOnNonStringAnswersIsFalse() throws {
        let later = [textField("later")]
        for operation in ["greater than", "less than"] {
            let unanswered = allOf(when("a", "equals", "Yes"), when("later", operation, 0))
            #expect(try !showIfHolds(unanswered, after: later, performing: [.answer("a", "Yes")]), "\(operation) on unanswered")
            let array: [Action] = [.answer("a", ["5"]), .tapNext]
            #expect(try !showIfHolds(when("a", operation, 0), before: [multiSelect("a", ["5"])], performing: array), "\(operation) on an array")
            let dictionary: [Action] = [.answer("a", ["Other": "5"])]
            #expect(try !showIfHolds(when("a", operation, 0), before: [selectWithOther("a")], performing: dictionary), "\(operation) on a dict")
        }
    }

    // MARK: contains

    @Test("contains and not contains test the elements of an array answer exactly")
    func containsOnArrays() throws {
        let picked: [Action] = [.answer("a", ["Pop", "Rock"]), .tapNext]
        #expect(try showIfHolds(when("a", "contains", "Rock"), before: [multiSelect("a")], performing: picked))
        #expect(try !showIfHolds(when("a", "contains", "rock"), before: [multiSelect("a")], performing: picked))
        #expect(try !showIfHolds(when("a", "contains", "Ro"), before: [multiSelect("a")], performing: picked))
        #expect(try showIfHolds(when("a", "not contains", "Rap"), before: [multiSelect("a")], performing: picked))
        #expect(try !showIfHolds(when("a", "not contains", "Pop"), before: [multiSelect("a")], performing: picked))
    }

    @Test("contains works on an add_text_field answer, which is an array too")
    func containsOnAddTextField() throws {
        let before = [question("a", "add_text_field")]
        #expect(try showIfHolds(when("a", "contains", "Tennis"), before: before, performing: [.answer("a", ["Golf", "Tennis"])]))
        #expect(try !showIfHolds(when("a", "contains", "Chess"), before: before, performing: [.answer("a", ["Golf", "Tennis"])]))
    }

    @Test("contains is false and not contains true on a string answer: no substring test")
    func containsOnStringIsFalse() throws {
        let before = [textField("a")]
        #expect(try !showIfHolds(when("a", "contains", "Pop"), before: before, performing: [.answer("a", "Pop music")]))
        #expect(try !showIfHolds(when("a", "contains", "Pop"), before: before, performing: [.answer("a", "Pop")]))
        #expect(try showIfHolds(when("a", "not contains", "Pop"), before: before, performing: [.answer("a", "Pop")]))
    }

    @Test("contains is false and not contains true on a dictionary answer")
    func containsOnDictionaryIsFalse() throws {
        let before = [selectWithOther("a")]
        let picked: [Action] = [.answer("a", ["Other": "Pop"])]
        #expect(try !showIfHolds(when("a", "contains", "Pop"), before: before, performing: picked))
        #expect(try !showIfHolds(when("a", "contains", "Other"), before: before, performing: picked))
        #expect(try showIfHolds(when("a", "not contains", "Pop"), before: before, performing: picked))
    }

    @Test("contains is false and not contains true on an unanswered question")
    func containsOnUnansweredIsFalse() throws {
        let later = [multiSelect("later")]
        let answered = when("a", "equals", "Yes")
        #expect(try !showIfHolds(allOf(answered, when("later", "contains", "Pop")), after: later, performing: [.answer("a", "Yes")]))
        #expect(try showIfHolds(allOf(answered, when("later", "not contains", "Pop")), after: later, performing: [.answer("a", "Yes")]))
    }

    // MARK: unknown operations, trees, malformed conditions

    @Test("an unknown simple operation is false, whatever the answer")
    func unknownOperationIsFalse() throws {
        #expect(try !showIfHolds(when("a", "is", "Yes"), performing: [.answer("a", "Yes")]))
        #expect(try !showIfHolds(when("a", "==", "Yes"), performing: [.answer("a", "Yes")]))
        #expect(try !showIfHolds(when("a", "Equals", "Yes"), performing: [.answer("a", "Yes")]))
    }

    @Test("and holds when all subconditions hold; or when any does; trees nest")
    func andOrTrees() throws {
        let yes = when("a", "equals", "Yes")
        let no = when("a", "equals", "No")
        let answer: [Action] = [.answer("a", "Yes")]
        #expect(try showIfHolds(allOf(yes, yes), performing: answer))
        #expect(try !showIfHolds(allOf(yes, no), performing: answer))
        #expect(try showIfHolds(anyOf(no, yes), performing: answer))
        #expect(try !showIfHolds(anyOf(no, no), performing: answer))
        #expect(try showIfHolds(allOf(anyOf(no, yes), anyOf(yes, no)), performing: answer))
        #expect(try !showIfHolds(anyOf(allOf(yes, no), allOf(no, yes)), performing: answer))
    }

    @Test("and and or short-circuit: a subcondition after the deciding one is never evaluated")
    func treesShortCircuit() throws {
        // A simple condition without "value" crashes the real engine when evaluated (SQ:472).
        let crashes = #"{"id": "a", "operation": "equals"}"#
        let answer: [Action] = [.answer("a", "Yes")]
        #expect(try !showIfHolds(allOf(when("a", "equals", "No"), crashes), performing: answer))
        #expect(try showIfHolds(anyOf(when("a", "equals", "Yes"), crashes), performing: answer))
    }

    @Test("an empty and is true and an empty or is false")
    func emptyTrees() throws {
        let yes = when("a", "equals", "Yes")
        #expect(try showIfHolds(allOf(yes, allOf()), performing: [.answer("a", "Yes")]))
        #expect(try !showIfHolds(allOf(yes, anyOf()), performing: [.answer("a", "Yes")]))
        #expect(try showIfHolds(anyOf(when("a", "equals", "No"), allOf()), performing: [.answer("a", "Yes")]))
    }

    @Test("a tree with an unknown operation is true, even when its subconditions are false")
    func unknownTreeOperationIsTrue() throws {
        let unknown = tree("xor", [when("a", "equals", "No")])
        #expect(try showIfHolds(allOf(when("a", "equals", "Yes"), unknown), performing: [.answer("a", "Yes")]))
        #expect(try showIfHolds(allOf(when("a", "equals", "Yes"), tree("AND", [when("a", "equals", "No")])), performing: [.answer("a", "Yes")]))
    }

    @Test("a condition with neither id, subconditions nor operation custom is malformed and true")
    func malformedConditionIsTrue() throws {
        let malformed = #"{"operation": "equals", "value": "No"}"#
        #expect(try showIfHolds(allOf(when("a", "equals", "Yes"), malformed), performing: [.answer("a", "Yes")]))
        #expect(try showIfHolds(allOf(when("a", "equals", "Yes"), "{}"), performing: [.answer("a", "Yes")]))
    }

    // MARK: custom conditions

    @Test("a custom condition is false when the host gives no outcome")
    func customConditionFalseByDefault() throws {
        #expect(try !showIfHolds(custom(ids: ["a"], key: "check"), performing: [.answer("a", "Yes")]))
    }

    @Test("a custom condition takes the outcome the host set before it is evaluated")
    func customConditionUsesHostOutcome() throws {
        let condition = custom(ids: ["a"], key: "check")
        #expect(try showIfHolds(condition, performing: [.hostCondition(key: "check", outcome: true), .answer("a", "Yes")]))
        #expect(try !showIfHolds(condition, performing: [.hostCondition(key: "check", outcome: false), .answer("a", "Yes")]))
    }

    @Test("a changed host outcome takes effect only when one of the condition's ids is answered again")
    func hostOutcomeWaitsForReevaluation() throws {
        let session = try startSession(select("a"), select("b"), select("target", showIf: custom(ids: ["a"], key: "check")), select("end"))
        session.play(.answer("a", "Yes"), .answer("b", "Yes"))
        #expect(session.visibleQuestions == ["a", "b", "end"])

        session.play(.hostCondition(key: "check", outcome: true))
        #expect(session.visibleQuestions == ["a", "b", "end"], "setting the outcome re-evaluates nothing")
        session.play(.answer("b", "No"))
        #expect(session.visibleQuestions == ["a", "b", "end"], "b is not among the condition's ids")
        session.play(.answer("a", "Yes"))
        #expect(session.visibleQuestions == ["a", "b", "target", "end"])
    }

    @Test("Next on an answered multi_select evaluates nothing again (SQ:1409-1416): a changed host outcome still waits for an answer")
    func nextOnAnsweredMultiSelectEvaluatesNothing() throws {
        let session = try startSession(multiSelect("ms"), select("target", showIf: custom(ids: ["ms"], key: "check")), select("end"))
        session.play(.answer("ms", ["Pop"]), .hostCondition(key: "check", outcome: true), .next(question: "ms"))
        // The tap on Pop evaluated target (hidden: the host said false then); Next stores nothing new, so
        // updateSkippedQuestions does not run and the survey moves past the hidden target.
        #expect(session.visibleQuestions == ["ms", "end"])
        #expect(session.currentQuestion == "end")
        // Next on a multi_select never answered stores [] and evaluates its dependents then.
        let fresh = try startSession(multiSelect("ms"), select("target", showIf: custom(ids: ["ms"], key: "check")), select("end"))
        fresh.play(.hostCondition(key: "check", outcome: true), .next(question: "ms"))
        #expect(fresh.answer(for: "ms") == [])
        #expect(fresh.visibleQuestions == ["ms", "target"])
    }

    @Test("a host outcome for a key no custom condition has does not fit the survey")
    func hostOutcomeForUnknownKeyDoesNotFit() throws {
        let session = try startSession(select("a"), select("target", showIf: custom(ids: ["a"], key: "check")))
        #expect(session.perform(.hostCondition(key: "chek", outcome: true)).outcome.kind == .doesNotFit)
        #expect(session.perform(.hostCondition(key: "check", outcome: true)).outcome == .ok)
    }

    // MARK: evaluation that would crash

    @Test("a simple condition without value refuses the action whose evaluation reaches it, leaving the state as it was")
    func conditionWithoutValueRefusesTheAction() throws {
        let session = try startSession(select("a"), select("target", showIf: #"{"id": "a", "operation": "equals"}"#), select("end"))
        let result = session.perform(.answer("a", "Yes"))
        #expect(result.outcome.kind == .rejected)
        #expect(result.outcome.message?.contains("would crash") == true)
        #expect(session.answer(for: "a") == nil)
        #expect(session.currentQuestion == "a")
        #expect(session.visibleQuestions == ["a"])
    }

    @Test(
        "a simple condition or a tree without an operation string crashes when evaluated (`as! String`, SQ:471, 495), even with a value: the action is refused; a missing operation is not an unknown one")
    func conditionWithoutOperationRefusesTheAction() throws {
        for showIf in [#"{"id": "a", "value": "Yes"}"#, #"{"subconditions": [{"id": "a", "operation": "equals", "value": "Yes"}]}"#] {
            let session = try startSession(select("a"), select("target", showIf: showIf), select("end"))
            let result = session.perform(.answer("a", "Yes"))
            #expect(result.outcome.message?.contains("force-casts") == true, "\(showIf)")
            #expect(session.answer(for: "a") == nil)
        }
        // An operation the engine does not know is read, and false.
        #expect(try !showIfHolds(#"{"id": "a", "operation": "is", "value": "Yes"}"#, performing: [.answer("a", "Yes")]))
    }

    @Test(
        "subconditions that are not an array of condition objects make no tree (`as? [[String : Any]]`, SQ:494): the condition is malformed and true, unless its operation is custom")
    func subconditionsOfAnotherShapeAreMalformed() throws {
        let withJunk = #"{"operation": "and", "subconditions": [{"id": "a", "operation": "equals", "value": "No"}, "junk"]}"#
        #expect(try showIfHolds(withJunk, performing: [.answer("a", "Yes")]))
        #expect(try showIfHolds(#"{"operation": "or", "subconditions": {"id": "a", "operation": "equals", "value": "No"}}"#, performing: [.answer("a", "Yes")]))
    }

    // MARK: lazy evaluation and the dependency map

    @Test("a first question whose show_if reads a later, unanswered question is shown though its condition is false")
    func firstQuestionWithForwardReferenceIsShown() throws {
        let session = try startSession(select("intro", showIf: when("later", "equals", "Yes")), select("b"), select("later"))
        #expect(session.visibleQuestions == ["intro"])
        #expect(session.currentQuestion == "intro")
        session.play(.answer("intro", "Yes"), .answer("b", "Yes"))
        #expect(session.visibleQuestions == ["intro", "b", "later"])
    }

    @Test("a question whose dependencies are never answered stays shown though its condition is false")
    func neverEvaluatedQuestionIsShown() throws {
        let session = try startSession(select("a"), select("target", showIf: when("z", "equals", "Yes")), select("end"), select("z"))
        session.play(.answer("a", "No"))
        #expect(session.visibleQuestions == ["a", "target"])
        #expect(session.currentQuestion == "target")
    }

    @Test("a forward reference is evaluated once its dependency is answered, hiding the earlier question")
    func forwardReferenceEvaluatedWhenAnswered() throws {
        let session = try startSession(select("a", showIf: when("b", "equals", "Yes")), select("b"), select("end"))
        session.play(.answer("a", "Yes"), .answer("b", "No"))
        #expect(session.visibleQuestions == ["b", "end"])
        #expect(session.answer(for: "a") == "Yes")
    }

    @Test("answering A re-evaluates C whose show_if names B whose show_if names A (the transitive map)")
    func dependencyMapIsTransitive() throws {
        let session = try startSession(
            select("a"), select("b", showIf: when("a", "equals", "Yes")), select("c", showIf: custom(ids: ["b"], key: "check")), select("end"))
        session.play(.answer("a", "Yes"), .answer("b", "Yes"))
        #expect(session.visibleQuestions == ["a", "b", "end"])

        session.play(.hostCondition(key: "check", outcome: true), .answer("a", "Yes"))
        #expect(session.visibleQuestions == ["a", "b", "c", "end"])
    }
}
