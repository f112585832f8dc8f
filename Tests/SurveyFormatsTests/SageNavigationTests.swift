import SurveyCore
import Testing

@testable import SurveyFormats

/// The navigation rules of reference §1.2 and §1.5, per generation.
@Suite("Sage navigation")
struct SageNavigationTests {
    // MARK: legacy (v2 forms)

    @Test("an input field without \"optional\" is required: Next is refused until it is answered")
    func legacyOptionalDefaultsToFalse() throws {
        let session = try sageSession(sageTask([form("a", inputField("x", "integer")), instruction("end")]))
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.answer("a", 3), .tapNext)
        #expect(session.currentQuestion == "end")
    }

    @Test("a legacy rule without ruleOperator is eq with a matchingAnswer, and its missing target is exit")
    func legacyDefaultsEqAndExit() throws {
        let text = sageTask([form("a", inputField("x", "integer", #""surveyRules": [{"matchingAnswer": 3}]"#)), instruction("b")])
        let session = try sageSession(text)
        session.play(.answer("a", 3), .tapNext)
        #expect(session.hasEnded)
        #expect(session.payload?.objectValue?["stepHistory"]?.arrayValue?.count == 1)
        let other = try sageSession(text)
        other.play(.answer("a", 4), .tapNext)
        #expect(other.currentQuestion == "b")
    }

    @Test("a legacy rule without matchingAnswer is de: it matches only a skipped answer")
    func legacyDefaultsToSkipOperator() throws {
        let field = inputField("x", "integer", #""optional": true, "surveyRules": [{"skipToIdentifier": "c"}]"#)
        let text = sageTask([form("a", field), instruction("b"), instruction("c")])
        let skipped = try sageSession(text)
        skipped.play(.tapNext)
        #expect(skipped.currentQuestion == "c")
        let answered = try sageSession(text)
        answered.play(.answer("a", 1), .tapNext)
        #expect(answered.currentQuestion == "b")
    }

    @Test("legacy: two matching rules with different targets cancel, two with one target count as one")
    func legacyDistinctTargets() throws {
        let rules = #""surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "c"}, {"matchingAnswer": 1, "ruleOperator": "ge", "skipToIdentifier": "d"}, {"matchingAnswer": 5, "ruleOperator": "ge", "skipToIdentifier": "d"}, {"matchingAnswer": 6, "ruleOperator": "ge", "skipToIdentifier": "d"}]"#
        let text = sageTask([form("a", inputField("x", "integer", rules)), instruction("b"), instruction("c"), instruction("d")])
        let conflict = try sageSession(text)
        conflict.play(.answer("a", 1))
        let result = conflict.perform(.tapNext)
        #expect(conflict.currentQuestion == "b")
        #expect(result.has(event: "rules_conflict"))
        let same = try sageSession(text)
        same.play(.answer("a", 7), .tapNext)
        #expect(same.currentQuestion == "d")
    }

    @Test("legacy: the rules of all fields are pooled; one field's jump wins when the other matches none")
    func legacyRulesOfSeveralFields() throws {
        let first = inputField("x", "integer", #""surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "c"}]"#)
        let second = inputField("y", "string", #""surveyRules": [{"matchingAnswer": "go", "skipToIdentifier": "d"}]"#)
        let text = sageTask([form("a", first, second), instruction("b"), instruction("c"), instruction("d")])
        let one = try sageSession(text)
        one.play(.answer("a", ["x": 1, "y": "stay"]), .tapNext)
        #expect(one.currentQuestion == "c")
        let both = try sageSession(text)
        both.play(.answer("a", ["x": 1, "y": "go"]), .tapNext)
        #expect(both.currentQuestion == "b")
    }

    @Test("eq on an array answer matches when any matching value is in it; ot when none is; ne compares the whole")
    func arrayOperators() throws {
        func target(_ op: String, _ matching: JSONValue, _ answer: JSONValue) throws -> String? {
            let rules = #""surveyRules": [{"matchingAnswer": \#(json(matching)), "ruleOperator": "\#(op)", "skipToIdentifier": "c"}]"#
            let field = inputField("x", "multipleChoice.integer", #""choices": [1, 2, 3], \#(rules)"#)
            let session = try sageSession(sageTask([form("a", field), instruction("b"), instruction("c")]))
            session.play(.answer("a", answer), .tapNext)
            return session.currentQuestion
        }
        #expect(try target("eq", [2, 3], [1, 3]) == "c")
        #expect(try target("eq", [2], [1, 3]) == "b")
        #expect(try target("eq", 1, [1, 3]) == "c")
        #expect(try target("ot", [2], [1, 3]) == "c")
        #expect(try target("ot", [3], [1, 3]) == "b")
        #expect(try target("ne", [1, 3], [1, 3]) == "b")
        #expect(try target("ne", [1], [1, 3]) == "c")
    }

    @Test("scalar operators: comparisons, always, and de false once answered")
    func scalarOperators() throws {
        func target(_ op: String, _ matching: JSONValue?, _ answer: JSONValue) throws -> String? {
            let value = matching.map { #""matchingAnswer": \#(json($0)), "# } ?? ""
            let rules = #""surveyRules": [{\#(value)"ruleOperator": "\#(op)", "skipToIdentifier": "c"}]"#
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
        #expect(try target("always", nil, 1) == "c")
        #expect(try target("de", nil, 1) == "b")
        #expect(try target("ne", 5, 4) == "c")
    }

    @Test("the skip action's target is where a step left unanswered goes (skipToIfNil)")
    func skipActionTarget() throws {
        let keys = #""actions": {"skip": {"type": "navigation", "skipToIdentifier": "c"}}"#
        let text = sageTask([form("a", inputField("x", "integer"), keys: keys), instruction("b"), instruction("c")])
        let session = try sageSession(text)
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.skip(question: nil))
        #expect(session.currentQuestion == "c")
        session.play(.tapNext)
        let result = try #require(session.payload?.objectValue?["stepHistory"]?.arrayValue?.first?.objectValue)
        #expect(result["skipToIdentifier"] == "c")
        #expect(result["type"] == "collection")
    }

    // MARK: v3

    @Test("v3 counts matching rules: two rules to one target cancel")
    func v3CountsRules() throws {
        let rules = [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#), rule(#""matchingAnswer": 1, "ruleOperator": "le", "skipToIdentifier": "c""#)]
        let text = sageTask([simpleQuestion("a", rules: rules, keys: #""optional": false"#), instruction("b"), instruction("c")])
        let session = try sageSession(text)
        #expect(session.survey.generation == .v3)
        session.play(.answer("a", 1), .tapNext)
        #expect(session.currentQuestion == "b")
        let one = try sageSession(text)
        one.play(.answer("a", 0), .tapNext)
        #expect(one.currentQuestion == "c")
    }

    @Test("v3: a question step is optional unless it says otherwise, and a skipped one matches de")
    func v3OptionalAndSkip() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""skipToIdentifier": "c""#)]), instruction("b"), instruction("c")])
        let session = try sageSession(text)
        session.play(.skip(question: nil))
        #expect(session.currentQuestion == "c")
        let required = try sageSession(sageTask([simpleQuestion("a", keys: #""optional": false"#), instruction("b")]))
        #expect(required.perform(.skip(question: nil)).outcome.kind == .rejected)
    }

    // MARK: the successor

    @Test("the successor takes the first matching rule (sample_assessment: eq 1, then ge 4)")
    func successorFirstMatch() throws {
        let rules = [
            rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#), rule(#""matchingAnswer": 1, "ruleOperator": "ge", "skipToIdentifier": "d""#),
        ]
        let text = sageTask([simpleQuestion("a", rules: rules), instruction("b"), instruction("c"), instruction("d")], extra: assessmentMarker)
        let session = try sageSession(text)
        #expect(session.survey.generation == .assessment)
        session.play(.answer("a", 1), .tapNext)
        #expect(session.currentQuestion == "c")
        let second = try sageSession(text)
        second.play(.answer("a", 2), .tapNext)
        #expect(second.currentQuestion == "d")
    }

    @Test("the successor: a rule without matchingAnswer compares with null, so it matches a skipped question")
    func successorNullMatchesSkip() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""skipToIdentifier": "c""#)]), instruction("b"), instruction("c")], extra: assessmentMarker)
        let skipped = try sageSession(text)
        skipped.play(.skip(question: nil))
        #expect(skipped.currentQuestion == "c")
        let answered = try sageSession(text)
        answered.play(.answer("a", 2), .tapNext)
        #expect(answered.currentQuestion == "b")
    }

    @Test("the successor decodes only eq, ne, lt, gt, le, ge: de is a located load error")
    func successorOperators() {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""ruleOperator": "de""#)])], extra: assessmentMarker)
        let errors = loadErrors(text: text)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("unknown ruleOperator 'de'") == true)
        #expect(errors.first?.pointer == "/steps/0/surveyRules/0/ruleOperator")
    }

    @Test("integers are compared rounded to 0 digits in the successor")
    func successorRounding() throws {
        let text = sageTask([simpleQuestion("a", "decimal", rules: [rule(#""matchingAnswer": 2.000001, "skipToIdentifier": "c""#)]), instruction("b"), instruction("c")], extra: assessmentMarker)
        let close = try sageSession(text)
        close.play(.answer("a", 2.000002), .tapNext)
        #expect(close.currentQuestion == "c")
        let far = try sageSession(text)
        far.play(.answer("a", 2.0001), .tapNext)
        #expect(far.currentQuestion == "b")
    }

    // MARK: targets, back and results

    @Test("reserved targets: exit ends the task, nextSection leaves the section, beginning restarts it")
    func reservedTargets() throws {
        let rules = [
            rule(#""matchingAnswer": 1, "skipToIdentifier": "nextSection""#), rule(#""matchingAnswer": 2, "skipToIdentifier": "beginning""#),
            rule(#""matchingAnswer": 3"#),
        ]
        let question = simpleQuestion("a", rules: rules)
        let section = #"{"identifier": "s", "type": "section", "steps": ["# + question + ", " + instruction("b") + "]}"
        let text = sageTask([instruction("intro"), section, instruction("after")], extra: assessmentMarker)
        let next = try sageSession(text)
        next.play(.tapNext, .answer("s/a", 1), .tapNext)
        #expect(next.currentQuestion == "after")
        let beginning = try sageSession(text)
        beginning.play(.tapNext, .answer("s/a", 2), .tapNext)
        #expect(beginning.currentQuestion == "s/a")
        #expect(beginning.visibleQuestions == ["intro", "s/a"])
        let exit = try sageSession(text)
        exit.play(.tapNext, .answer("s/a", 3), .tapNext)
        #expect(exit.hasEnded)
        #expect(exit.currentQuestion == nil)
    }

    @Test("a target already on the path is a backward jump: the path is cut there and answers pre-fill")
    func backwardJump() throws {
        let text = sageTask([
            simpleQuestion("a"), simpleQuestion("b", "boolean", rules: [rule(#""matchingAnswer": false, "skipToIdentifier": "a""#)]), instruction("c"),
        ], extra: assessmentMarker)
        let session = try sageSession(text)
        session.play(.answer("a", 5), .tapNext, .answer("b", false))
        let result = session.perform(.tapNext)
        #expect(result.has(event: "jumped_back"))
        #expect(session.visibleQuestions == ["a"])
        #expect(session.answer(for: "a") == 5)
        #expect(session.answer(for: "b") == false)
        session.play(.tapNext, .answer("b", true), .tapNext, .submit)
        #expect(stepHistory(session.payload) == ["a", "b", "c"])
    }

    @Test("back pops the path; the answers of a step off the path are kept for pre-fill but not in the result")
    func backKeepsAnswersOffThePath() throws {
        let text = sageTask([
            simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#)]), simpleQuestion("b"), simpleQuestion("c"),
        ], extra: assessmentMarker)
        let session = try sageSession(text)
        session.play(.answer("a", 2), .tapNext, .answer("b", 7), .back)
        #expect(session.visibleQuestions == ["a"])
        session.play(.answer("a", 1), .tapNext)
        #expect(session.visibleQuestions == ["a", "c"])
        #expect(session.answer(for: "b") == 7)
        session.play(.submit)
        #expect(stepHistory(session.payload) == ["a", "c"])
        #expect(session.perform(.back).outcome.kind == .rejected)
    }

    @Test("an unknown target ends the task silently, with the target in the event")
    func unknownTargetEndsTask() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "nowhere""#)]), instruction("b")])
        let session = try sageSession(text)
        session.play(.answer("a", 1))
        let result = session.perform(.tapNext)
        #expect(session.hasEnded)
        #expect(result.events.first { $0.name == "task_finished" }?.detail == ["reason": "unknown_target", "target": "nowhere"])
        let checker = session.survey.makeStepChecker()
        #expect(checker.check(session, after: .tapNext, result: result).map(\.property) == ["unknown-target-ends-task"])
    }

    @Test("without a rule, nextStepIdentifier then the next step in order")
    func fallbacks() throws {
        let text = sageTask([instruction("a", keys: #""nextStepIdentifier": "c""#), instruction("b"), instruction("c")])
        let session = try sageSession(text)
        session.play(.tapNext)
        #expect(session.currentQuestion == "c")
        #expect(session.isSubmittable)
    }

    @Test("Submit is the forward tap that reads Done, on the last step only")
    func submitOnlyOnTheLastStep() throws {
        let session = try sageSession(sageTask([instruction("a"), instruction("b")]))
        #expect(session.perform(.submit).outcome.kind == .rejected)
        session.play(.tapNext)
        #expect(session.isSubmittable)
        session.play(.submit)
        #expect(session.hasEnded)
        #expect(session.perform(.tapNext).outcome == .rejected("the task has finished"))
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
        #expect(session.perform(.answer("a", ["t": "abcd"])).outcome == .validationFailed("letters only"))
        #expect(session.perform(.answer("a", ["y": 2027])).outcome.kind == .validationFailed)
        #expect(session.perform(.answer("a", ["y": 2026])).outcome == .ok)
        #expect(session.perform(.answer("a", ["zzz": 1])).outcome.kind == .doesNotFit)
    }

    @Test("the legacy result is a collection of answer results with their answerType, stamped by the scenario clock")
    func legacyResult() throws {
        let session = try sageSession(sageTask([form("a", inputField("x", "singleChoice.integer", #""choices": [1, 2]"#))]))
        session.play(.app(.wait(seconds: 90)), .answer("a", 2), .submit)
        let payload = try #require(session.payload?.objectValue)
        #expect(payload["type"] == "task")
        #expect(payload["startDate"] == "2026-11-22T00:00:00.000+00:00")
        #expect(payload["endDate"] == "2026-11-22T00:01:30.000+00:00")
        let input = payload["stepHistory"]?.arrayValue?.first?.objectValue?["inputResults"]?.arrayValue?.first
        #expect(
            input == [
                "identifier": "x", "type": "answer", "startDate": "2026-11-22T00:00:00.000+00:00", "endDate": "2026-11-22T00:01:30.000+00:00",
                "answerType": ["baseType": "integer", "formDataType": "singleChoice.integer"], "value": 2,
            ])
    }

    @Test("verbs SageResearch lacks do not fit")
    func verbsThatDoNotFit() throws {
        let session = try sageSession(sageTask([instruction("a")]))
        #expect(session.perform(.app(.launch)).outcome.kind == .doesNotFit)
        #expect(session.perform(.goto(question: "a")).outcome.kind == .doesNotFit)
        #expect(session.perform(.answer("zz", 1)).outcome.kind == .doesNotFit)
        #expect(session.perform(.answer("a", 1)).outcome.kind == .rejected)
    }
}
