import SurveyCore
import Testing

@testable import SurveyFormats

/// The navigation rules per generation and release, beyond the corrections (SageCorrectionsTests): each
/// test names the source it follows (SR Sage-Bionetworks/SageResearch, AM AssessmentModelKMM@08288272).
@Suite("Sage navigation")
struct SageNavigationTests {
    // MARK: legacy forms

    @Test("an input field without \"optional\" is required: Next is refused until it is answered (SR@v2.8.88 RSDInputFieldObject.swift:241)")
    func legacyOptionalDefaultsToFalse() throws {
        let session = try sageSession(sageTask([form("a", inputField("x", "integer")), instruction("end")]))
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.answer("a", 3), .tapNext)
        #expect(session.currentQuestion == "end")
    }

    @Test("a legacy rule without ruleOperator is eq, and its missing target is exit (SR@v2.8.88 RSDSurveyRule.swift:72-74, 84-87)")
    func legacyDefaultsEqAndExit() throws {
        let text = sageTask([form("a", inputField("x", "integer", #""surveyRules": [{"matchingAnswer": 3}]"#)), instruction("b")])
        let session = try sageSession(text)
        session.play(.answer("a", 3), .tapNext)
        #expect(session.ending == .exit)
        #expect(historyNames(session.payload) == ["a"])
        let other = try sageSession(text)
        other.play(.answer("a", 4), .tapNext)
        #expect(other.currentQuestion == "b")
    }

    @Test("legacy: the targets of all matching rules form a Set: two distinct targets cancel, two rules to one target count once (SR@v2.8.88 RSDSurveyNavigationStep.swift:86-98)")
    func legacyDistinctTargets() throws {
        let rules = #""surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "c"}, {"matchingAnswer": 1, "ruleOperator": "ge", "skipToIdentifier": "d"}, {"matchingAnswer": 5, "ruleOperator": "ge", "skipToIdentifier": "d"}, {"matchingAnswer": 6, "ruleOperator": "ge", "skipToIdentifier": "d"}]"#
        let text = sageTask([form("a", inputField("x", "integer", rules)), instruction("b"), instruction("c"), instruction("d")])
        let conflict = try sageSession(text)
        conflict.play(.answer("a", 1))
        #expect(conflict.perform(.tapNext).has(event: "rules_conflict"))
        #expect(conflict.currentQuestion == "b")
        let same = try sageSession(text)
        same.play(.answer("a", 7), .tapNext)
        #expect(same.currentQuestion == "d")
    }

    @Test("legacy: the rules of all fields are pooled, each field's answer found by its identifier (SR@v2.8.88 RSDSurveyNavigationStep.swift:88-95)")
    func legacyRulesOfSeveralFields() throws {
        let first = inputField("x", "integer", #""optional": true, "surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "c"}]"#)
        let second = inputField("y", "string", #""optional": true, "surveyRules": [{"matchingAnswer": "go", "skipToIdentifier": "d"}]"#)
        let text = sageTask([form("a", first, second), instruction("b"), instruction("c"), instruction("d")])
        let one = try sageSession(text)
        one.play(.answer("a", ["x": 1, "y": "stay"]), .tapNext)
        #expect(one.currentQuestion == "c")
        let both = try sageSession(text)
        both.play(.answer("a", ["x": 1, "y": "go"]), .tapNext)
        #expect(both.currentQuestion == "b")
    }

    @Test("legacy: a rule reads the first answer with its field's identifier anywhere in the history, even another step's (SR@v2.8.88 RSDTaskResult.swift:88-102, RSDCollectionResult.swift:51-64)")
    func legacySharedFieldIdentifier() throws {
        let first = form("a", inputField("value", "integer"))
        let second = form("b", inputField("value", "integer", #""surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "d"}]"#))
        let text = sageTask([first, second, instruction("c"), instruction("d")])
        let session = try sageSession(text)
        session.play(.answer("a", 1), .tapNext, .answer("b", 2), .tapNext)
        #expect(session.currentQuestion == "d")
        #expect(lintFindings(text).findings.map(\.rule) == ["sage-shared-field-id"])
    }

    @Test("eq on an array answer matches when the value is in it, ot when it is not, ne compares the whole array (SR@v2.8.88 RSDComparable.swift:104-123)")
    func arrayOperators() throws {
        func target(_ op: String, _ matching: JSONValue, _ answer: JSONValue) throws -> String? {
            let rules = #""surveyRules": [{"matchingAnswer": \#(json(matching)), "ruleOperator": "\#(op)", "skipToIdentifier": "c"}]"#
            let field = inputField("x", "multipleChoice.integer", #""choices": [1, 2, 3], \#(rules)"#)
            let session = try sageSession(sageTask([form("a", field), instruction("b"), instruction("c")]))
            session.play(.answer("a", answer), .tapNext)
            return session.currentQuestion
        }
        #expect(try target("eq", 3, [1, 3]) == "c")
        #expect(try target("eq", 2, [1, 3]) == "b")
        #expect(try target("ot", 2, [1, 3]) == "c")
        #expect(try target("ot", 3, [1, 3]) == "b")
        #expect(try target("ne", 1, [1, 3]) == "c")
        #expect(try target("ne", 1, [1]) == "b")
    }

    @Test("v3 arrays: eq with an array matchingAnswer matches when ANY of its values is in the answer (SR@v3.3.91 RSDComparable.swift:120-122)")
    func v3AnyOf() throws {
        let question = #"{"identifier": "a", "type": "choiceQuestion", "baseType": "string", "singleChoice": false, "choices": ["x", "y", "z"], "surveyRules": [{"matchingAnswer": ["y", "z"], "skipToIdentifier": "c"}]}"#
        let session = try sageSession(sageTask([question, instruction("b"), instruction("c")]))
        session.play(.answer("a", ["x", "z"]), .tapNext)
        #expect(session.currentQuestion == "c")
    }

    @Test("scalar operators: comparisons, decimals within 0.00001, always, and de false once answered (SR@v2.8.88 RSDComparable.swift:99-132)")
    func scalarOperators() throws {
        func target(_ op: String, _ matching: JSONValue, _ answer: JSONValue) throws -> String? {
            let rules = #""surveyRules": [{"matchingAnswer": \#(json(matching)), "ruleOperator": "\#(op)", "skipToIdentifier": "c"}]"#
            let session = try sageSession(sageTask([form("a", inputField("x", "decimal", rules)), instruction("b"), instruction("c")]))
            session.play(.answer("a", answer), .tapNext)
            return session.currentQuestion
        }
        #expect(try target("lt", 5, 4) == "c")
        #expect(try target("lt", 5, 5) == "b")
        #expect(try target("le", 5, 5) == "c")
        #expect(try target("gt", 5, 5) == "b")
        #expect(try target("ge", 5, 5) == "c")
        #expect(try target("eq", 0.1, 0.100001) == "c")
        #expect(try target("eq", 0.1, 0.1001) == "b")
        #expect(try target("always", 0, 1) == "c")
        #expect(try target("de", 0, 1) == "b")
        #expect(try target("ne", 5, 4) == "c")
    }

    @Test("legacy: a form whose answers are all nil goes to its skip action's target on Next or Skip; the result records the skip (SR@v2.8.88 RSDSurveyNavigationStep.swift:98, RSDStepViewController.swift:808-827)")
    func legacySkipToIfNil() throws {
        let keys = #""actions": {"skip": {"type": "navigation", "skipToIdentifier": "c"}}"#
        let text = sageTask([form("a", inputField("x", "integer", #""optional": true"#), keys: keys), instruction("b"), instruction("c")])
        let next = try sageSession(text)
        next.play(.tapNext)
        #expect(next.currentQuestion == "c")
        let skip = try sageSession(text)
        skip.play(.skip(question: nil), .tapNext)
        let result = try #require(skip.payload?.objectValue?["stepHistory"]?.arrayValue?.first?.objectValue)
        #expect(result["skipToIdentifier"] == "c")
        #expect(result["type"] == "collection")
    }

    @Test("the skip button keeps the answers entered: the rules still read them (SR@v3.4.92 RSDStepViewController.swift:656-672, 786-806)")
    func skipKeepsAnswers() throws {
        let keys = #""actions": {"skip": {"type": "navigation", "skipToIdentifier": "c"}}"#
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "d""#)], keys: keys), instruction("b"), instruction("c"), instruction("d")])
        let session = try sageSession(text, profile: "sage-3.4")
        session.play(.answer("a", 1), .skip(question: nil))
        #expect(session.currentQuestion == "d")
    }

    @Test("a step without a skip action shows no skip button in SageResearch; a task-level skip action is offered on every step (SR@v3.4.92 RSDStepViewModel.swift:207-219, 273)")
    func skipButtonNeedsAnAction() throws {
        let none = try sageSession(sageTask([simpleQuestion("a"), instruction("b")]))
        #expect(none.perform(.skip(question: nil)).outcome.kind == .rejected)
        let task = try sageSession(sageTask([simpleQuestion("a"), instruction("b")], extra: #""actions": {"skip": {"type": "default"}}"#))
        #expect(task.perform(.skip(question: nil)).outcome == .ok)
        #expect(task.currentQuestion == "b")
    }

    @Test("v3: a skip checkbox stores its value (null by default), which lets a required question go on (SR@v3.4.92 InputItem.swift:74, QuestionTableItemGroup.swift:44)")
    func skipCheckbox() throws {
        let keys = #""optional": false, "skipCheckbox": {"type": "skipCheckbox", "fieldLabel": "No answer"}"#
        let text = sageTask([simpleQuestion("a", rules: [rule(#""ruleOperator": "de", "skipToIdentifier": "c""#)], keys: keys), instruction("b"), instruction("c")])
        let session = try sageSession(text)
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.answer("a", .null), .tapNext)
        #expect(session.currentQuestion == "c")
    }

    @Test("v3: two matching rules to one target cancel (SR@v3.3.91 SurveyRuleNavigation.swift:75-76)")
    func v3CountsRules() throws {
        let rules = [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#), rule(#""matchingAnswer": 1, "ruleOperator": "le", "skipToIdentifier": "c""#)]
        let text = sageTask([simpleQuestion("a", rules: rules, keys: #""optional": false"#), instruction("b"), instruction("c")])
        let session = try sageSession(text)
        session.play(.answer("a", 1), .tapNext)
        #expect(session.currentQuestion == "b")
        let one = try sageSession(text)
        one.play(.answer("a", 0), .tapNext)
        #expect(one.currentQuestion == "c")
    }

    @Test("v3: a question step is optional unless it says otherwise; a simpleQuestion without inputItem takes text (SR@v3.3.91 QuestionObjects.swift:46, 218)")
    func v3Defaults() throws {
        let session = try sageSession(sageTask([#"{"identifier": "a", "type": "simpleQuestion"}"#, instruction("b")]))
        #expect(session.perform(.answer("a", "hello")).outcome == .ok)
        session.play(.tapNext)
        #expect(session.currentQuestion == "b")
    }

    @Test("v3: every choice value must have exactly the question's JSON type: an integral value in a number question fails the load (SR@v3.4.92 QuestionObjects.swift:468-484)")
    func v3ChoiceTypes() {
        let bad = #"{"identifier": "a", "type": "choiceQuestion", "baseType": "number", "choices": [1, 2.5]}"#
        #expect(loadErrors(text: sageTask([bad])).map(\.rule) == ["sage-type-mismatch"])
    }

    // MARK: AssessmentModel

    @Test("AssessmentModel takes the first matching rule (sample_assessment: eq 1, then ge 4) (AM Question.swift:190-198)")
    func successorFirstMatch() throws {
        let rules = [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#), rule(#""matchingAnswer": 1, "ruleOperator": "ge", "skipToIdentifier": "d""#)]
        let text = sageTask([simpleQuestion("a", rules: rules), instruction("b"), instruction("c"), instruction("d")], extra: assessmentMarker)
        let session = try sageSession(text)
        session.play(.answer("a", 1), .tapNext)
        #expect(session.currentQuestion == "c")
        let second = try sageSession(text)
        second.play(.answer("a", 2), .tapNext)
        #expect(second.currentQuestion == "d")
    }

    @Test("AssessmentModel decodes only eq, ne, lt, gt, le, ge: de is a located load error (AM SurveyRule.swift:38-57)")
    func successorOperators() {
        let errors = loadErrors(text: sageTask([simpleQuestion("a", rules: [rule(#""ruleOperator": "de""#)])], extra: assessmentMarker))
        #expect(errors.first?.message.contains("unknown ruleOperator 'de'") == true)
        #expect(errors.first?.pointer == "/steps/0/surveyRules/0/ruleOperator")
    }

    @Test("AssessmentModel numbers are equal rounded: 0 digits for an integer answer, 5 otherwise; a string answer is read as a number (AM SurveyRule.swift:97-110, JM JsonElement.swift:196)")
    func successorRounding() throws {
        let decimal = sageTask([simpleQuestion("a", "decimal", rules: [rule(#""matchingAnswer": 2.000001, "skipToIdentifier": "c""#)]), instruction("b"), instruction("c")], extra: assessmentMarker)
        let close = try sageSession(decimal)
        close.play(.answer("a", 2.000002), .tapNext)
        #expect(close.currentQuestion == "c")
        let far = try sageSession(decimal)
        far.play(.answer("a", 2.0001), .tapNext)
        #expect(far.currentQuestion == "b")
        let text = sageTask([simpleQuestion("a", "string", rules: [rule(#""matchingAnswer": 5, "skipToIdentifier": "c""#)]), instruction("b"), instruction("c")], extra: assessmentMarker)
        let string = try sageSession(text)
        string.play(.answer("a", "5"), .tapNext)
        #expect(string.currentQuestion == "c")
    }

    @Test("Kotlin reads nextStepIdentifier before the rules; Swift reads the rules first (AM NavigationRule.kt:41-49, Question.swift:152-155)")
    func kotlinNextStepFirst() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#)], keys: #""nextStepIdentifier": "d""#), instruction("b"), instruction("c"), instruction("d")], extra: assessmentMarker)
        let swift = try sageSession(text)
        swift.play(.answer("a", 1), .tapNext)
        #expect(swift.currentQuestion == "c")
        let kotlin = try sageSession(text, options: ["implementation": "kotlin"])
        kotlin.play(.answer("a", 1), .tapNext)
        #expect(kotlin.currentQuestion == "d")
    }

    @Test("AssessmentModel Back goes to the node before the current one's last forward marker (AM NodeNavigator.swift:120-165)")
    func successorBack() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#)]), simpleQuestion("b"), simpleQuestion("c")], extra: assessmentMarker)
        let session = try sageSession(text)
        session.play(.answer("a", 1), .tapNext, .back)
        #expect(session.currentQuestion == "a")
        #expect(session.answer(for: "a") == 1)
        #expect(session.perform(.back).outcome.kind == .rejected)
    }

    @Test("Swift AssessmentModel does not run a section inside a section: the outer section ends there (AM AssessmentViewModel.swift:213-217)")
    func nestedSections() throws {
        let text = sageTask([section("outer", simpleQuestion("q", keys: #""optional": true"#), section("inner", instruction("i")), instruction("o")), instruction("after")], extra: assessmentMarker)
        let swift = try sageSession(text)
        swift.play(.tapNext)
        #expect(swift.currentQuestion == "after")
        let kotlin = try sageSession(text, options: ["implementation": "kotlin"])
        kotlin.play(.tapNext)
        #expect(kotlin.currentQuestion == "outer/inner/i")
    }

    // MARK: targets, sections, Back and the end

    @Test("a target already in the history is a backward jump: the path is cut there and the answers pre-fill (SR@v2.8.88 RSDOrderedStepNavigator.swift:201-203, RSDTaskViewModel.swift:659-661)")
    func backwardJump() throws {
        let text = sageTask([simpleQuestion("a"), simpleQuestion("b", "boolean", rules: [rule(#""matchingAnswer": false, "skipToIdentifier": "a""#)]), instruction("c")])
        for profile in ["sage-3.3", "sage-4"] {
            let session = try sageSession(text, profile: profile)
            session.play(.answer("a", 5), .tapNext, .answer("b", false))
            #expect(session.perform(.tapNext).has(event: "jumped_back"))
            #expect(session.visibleQuestions == ["a"], "\(profile)")
            #expect(session.answer(for: "a") == 5)
        }
    }

    @Test("Back in SageResearch walks the path record; answers of a step that left the path pre-fill it (SR@v3.4.92 RSDOrderedStepNavigator.swift:253-266, QuestionStepDataSource.swift:45-49)")
    func researchBack() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#)]), simpleQuestion("b"), simpleQuestion("c")])
        let session = try sageSession(text, profile: "sage-3.3")
        session.play(.answer("a", 2), .tapNext, .answer("b", 7), .back)
        #expect(session.visibleQuestions == ["a"])
        session.play(.answer("a", 1), .tapNext)
        #expect(session.visibleQuestions == ["a", "c"])
        #expect(session.answer(for: "b") == 7)
        session.play(.submit)
        #expect(historyNames(session.payload) == ["a", "c"])
    }

    @Test("a completion step with nothing after it hands the result over when it shows: a Back then changes nothing uploaded (SR@v2.8.88 RSDTaskViewModel.swift:789-839, 945)")
    func completionStepSavesTheResult() throws {
        let text = sageTask([simpleQuestion("a"), #"{"identifier": "done", "type": "completion"}"#])
        let session = try sageSession(text)
        session.play(.answer("a", 1))
        #expect(session.perform(.tapNext).has(event: "result_saved"))
        let saved = session.payload
        session.play(.back, .answer("a", 2), .tapNext, .submit)
        #expect(session.payload == saved)
        let checker = session.survey.makeStepChecker()
        let again = try sageSession(text)
        again.play(.answer("a", 1), .tapNext)
        #expect(checker.check(again, after: .back, result: again.perform(.back)).contains { $0.property == "back-after-result-saved" })
    }

    @Test("steps with fullInstructionsOnly are passed over when the app abbreviates instructions (SR@v3.4.92 RSDTaskViewModel.swift:626-630)")
    func abbreviatedInstructions() throws {
        let text = sageTask([instruction("a"), instruction("long", keys: #""fullInstructionsOnly": true"#), instruction("b")])
        let full = try sageSession(text)
        full.play(.tapNext)
        #expect(full.currentQuestion == "long")
        let short = try sageSession(text, options: ["abbreviated-instructions": "on"])
        short.play(.tapNext)
        #expect(short.currentQuestion == "b")
    }

    @Test("cohort rules act only when the app tracks cohorts, and only for a step its own rules do not move (SR@v2.8.88 RSDOrderedStepNavigator.swift:104-122, RSDCohortTrackingRule.swift:59-93)")
    func cohorts() throws {
        let question = #"{"identifier": "a", "type": "simpleQuestion", "inputItem": {"type": "integer"}, "surveyRules": [{"matchingAnswer": 1, "cohort": "one"}], "afterCohortRules": [{"requiredCohorts": ["one"], "skipToIdentifier": "c"}]}"#
        let text = sageTask([question, instruction("b"), instruction("c")])
        let off = try sageSession(text)
        off.play(.answer("a", 1), .tapNext)
        #expect(off.currentQuestion == "b")
        let on = try sageSession(text, options: ["cohort-tracking": "on"])
        on.play(.answer("a", 1))
        #expect(on.perform(.tapNext).has(event: "cohort_added"))
        #expect(on.currentQuestion == "c")
    }

    @Test("without a rule, nextStepIdentifier then the next step in order; Done shows when looking ahead finds no step")
    func fallbacks() throws {
        let session = try sageSession(sageTask([instruction("a", keys: #""nextStepIdentifier": "c""#), instruction("b"), instruction("c")]))
        #expect(!session.isSubmittable)
        session.play(.tapNext)
        #expect(session.currentQuestion == "c")
        #expect(session.isSubmittable)
    }

    @Test("answers are checked against their field: choices, exclusive choices, ranges, text options")
    func answerChecks() throws {
        let fields = [
            inputField("pick", "multipleChoice.integer", #""optional": true, "choices": [1, 2, {"value": 0, "text": "None", "isExclusive": true}]"#),
            inputField("n", "integer", #""optional": true, "range": {"minimumValue": -2, "maximumValue": 3}"#),
            inputField("t", "string", #""optional": true, "textFieldOptions": {"maximumLength": 3, "textValidator": "[a-z]+", "invalidMessage": "letters only"}"#),
            inputField("y", "year", #""optional": true, "range": {"allowFuture": false}"#),
        ]
        let session = try sageSession(sageTask([#"{"identifier": "a", "type": "form", "inputFields": [\#(fields.joined(separator: ", "))]}"#]))
        #expect(session.perform(.answer("a", ["pick": [1, 2]])).outcome == .ok)
        #expect(session.perform(.answer("a", ["pick": [1, 0]])).outcome.kind == .rejected)
        #expect(session.perform(.answer("a", ["pick": [4]])).outcome.kind == .rejected)
        #expect(session.perform(.answer("a", ["n": 4])).outcome.kind == .validationFailed)
        #expect(session.perform(.answer("a", ["n": "4"])).outcome.kind == .rejected)
        #expect(session.perform(.answer("a", ["t": "ab1"])).outcome == .validationFailed("letters only"))
        #expect(session.perform(.answer("a", ["y": 2027])).outcome.kind == .validationFailed)
        #expect(session.perform(.answer("a", ["y": 2026])).outcome == .ok)
        #expect(session.perform(.answer("a", ["zzz": 1])).outcome.kind == .doesNotFit)
    }

    @Test("verbs SageResearch lacks do not fit; an unknown profile is named")
    func verbsThatDoNotFit() throws {
        let session = try sageSession(sageTask([instruction("a")]))
        #expect(session.perform(.app(.launch)).outcome.kind == .doesNotFit)
        #expect(session.perform(.goto(question: "a")).outcome.kind == .doesNotFit)
        #expect(session.perform(.answer("zz", 1)).outcome.kind == .doesNotFit)
        #expect(session.perform(.answer("a", 1)).outcome.kind == .rejected)
        let survey = try loadSurvey(text: sageTask([simpleQuestion("a")]))
        #expect(survey.problem(with: SessionSettings(profile: "sage-2"))?.contains("expected one of sage-4, sage-4.5, sage-4.4, sage-4.0, sage-3.5, sage-3.4, sage-3.3") == true)
    }
}
