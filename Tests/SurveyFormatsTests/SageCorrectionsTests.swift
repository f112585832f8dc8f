import SurveyCore
import Testing

@testable import SurveyFormats

/// One test (or more) for each numbered correction of the reference's SageResearch / AssessmentModel part
/// (Corrections 2026-11-23, items 1–12), each naming the engine source line it follows. SR is
/// Sage-Bionetworks/SageResearch, AM Sage-Bionetworks/AssessmentModelKMM@08288272, JM
/// BridgeDigitalHealth/JsonModel-Swift.
@Suite("Sage corrections 1–12")
struct SageCorrectionsTests {
    // MARK: 1, 2: legacy rules without matchingAnswer do not decode

    @Test("1: a legacy rule without matchingAnswer whose operator is not de fails the whole load, located at the rule (SR@v2.8.88 Research/Research/RSDComparableSurveyRuleObject.swift:94-96)")
    func legacyRuleWithoutMatchingAnswer() {
        let field = inputField("x", "integer", #""optional": true, "surveyRules": [{"skipToIdentifier": "b"}]"#)
        let errors = loadErrors(text: sageTask([form("a", field), instruction("b")]))
        #expect(errors.map(\.rule) == ["sage-rule-not-decodable"])
        #expect(errors.first?.pointer == "/steps/0/inputFields/0/surveyRules/0")
        #expect(errors.first?.message.contains("rule 1 of field 'x' in step 'a' has no matchingAnswer") == true)
        #expect(lintFindings(sageTask([form("a", field), instruction("b")])).findings.contains { $0.severity == .error && $0.rule == "sage-rule-not-decodable" })
        // With the explicit skip operator it decodes and matches the unanswered field.
        let skip = inputField("x", "integer", #""optional": true, "surveyRules": [{"ruleOperator": "de", "skipToIdentifier": "c"}]"#)
        #expect(throws: Never.self) { try loadSurvey(text: sageTask([form("a", skip), instruction("b"), instruction("c")])) }
    }

    @Test("1: a cohort-only legacy rule and a rule with no key at all do not decode either (SR@v2.8.88 RSDComparableSurveyRuleObject.swift:90-96)")
    func legacyCohortOnlyRule() {
        let cohort = inputField("x", "integer", #""surveyRules": [{"cohort": "low"}]"#)
        #expect(loadErrors(text: sageTask([form("a", cohort)])).map(\.rule) == ["sage-rule-not-decodable"])
        let empty = inputField("x", "integer", #""surveyRules": [{}]"#)
        #expect(loadErrors(text: sageTask([form("a", empty)])).first?.message.contains("none of skipToIdentifier") == true)
    }

    @Test("1: v3 question steps decode the same rule, as a de rule (SR@v3.3.91 Research/Research/QuestionObjects.swift:108, JsonSurveyRuleObject.swift:47; RSDSurveyRule.swift _ruleOperator)")
    func v3DecodesRuleWithoutMatchingAnswer() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""skipToIdentifier": "c""#)]), instruction("b"), instruction("c")])
        let session = try sageSession(text)
        session.play(.tapNext)
        #expect(session.currentQuestion == "c")
    }

    @Test("2: a legacy always rule decodes only with a matchingAnswer, and then matches even an unanswered field (SR@v2.8.88 RSDComparableSurveyRuleObject.swift:94, RSDComparable.swift:66)")
    func legacyAlways() throws {
        let bare = inputField("x", "integer", #""optional": true, "surveyRules": [{"ruleOperator": "always", "skipToIdentifier": "c"}]"#)
        let errors = loadErrors(text: sageTask([form("a", bare), instruction("b"), instruction("c")]))
        #expect(errors.first?.hint == "an always rule needs some matchingAnswer (its value is ignored)")
        let withValue = inputField("x", "integer", #""optional": true, "surveyRules": [{"ruleOperator": "always", "matchingAnswer": 0, "skipToIdentifier": "c"}]"#)
        let session = try sageSession(sageTask([form("a", withValue), instruction("b"), instruction("c")]))
        session.play(.tapNext)
        #expect(session.currentQuestion == "c")
    }

    // MARK: 3: v3 matchingAnswer is any JSON, converted when comparing

    @Test("3: v3 converts matchingAnswer to the answer's type: 5 matches the string answer \"5\", a string never matches a number (SR@v3.3.91 Research/Research/RSDComparable.swift:181, 187)")
    func v3ConvertsMatchingAnswer() throws {
        func target(_ type: String, _ matching: String, _ answer: JSONValue) throws -> String? {
            let text = sageTask([simpleQuestion("a", type, rules: [rule(#""matchingAnswer": \#(matching), "skipToIdentifier": "c""#)]), instruction("b"), instruction("c")])
            let session = try sageSession(text)
            session.play(.answer("a", answer), .tapNext)
            return session.currentQuestion
        }
        #expect(try target("string", "5", "5") == "c")
        #expect(try target("string", "true", "true") == "c")
        #expect(try target("integer", #""5""#, 5) == "b")
        #expect(try target("integer", "true", 1) == "c")
        // The legacy factory decodes the value as the field's type: a string for an integer field fails the load.
        let legacy = inputField("x", "integer", #""surveyRules": [{"matchingAnswer": "5"}]"#)
        #expect(loadErrors(text: sageTask([form("a", legacy)])).map(\.rule) == ["sage-type-mismatch"])
    }

    @Test("3: a legacy rule on a multiple choice decodes one value of the base type, never an array (SR@v2.8.88 Research/Research/RSDFactory.swift:462-470)")
    func legacyMultipleChoiceRuleIsOneValue() throws {
        let array = inputField("x", "multipleChoice.integer", #""choices": [1, 2], "surveyRules": [{"matchingAnswer": [1, 2]}]"#)
        #expect(loadErrors(text: sageTask([form("a", array)])).map(\.rule) == ["sage-type-mismatch"])
        let one = inputField("x", "multipleChoice.integer", #""choices": [1, 2], "surveyRules": [{"matchingAnswer": 2, "skipToIdentifier": "c"}]"#)
        let session = try sageSession(sageTask([form("a", one), instruction("b"), instruction("c")]))
        session.play(.answer("a", [1, 2]), .tapNext)
        #expect(session.currentQuestion == "c")
    }

    // MARK: 4: Next on an unanswered v3 question, and the skip button

    static let skipTask = sageTask([
        simpleQuestion("a", keys: #""actions": {"skip": {"type": "navigation", "skipToIdentifier": "c"}}"#), instruction("b"), instruction("c"),
    ])

    @Test("4: Next on an unanswered v3 question goes on in order: its result exists with a nil value, so skipToIfNil is not used (SR@v3.3.91 SurveyRuleNavigation.swift:69-76, QuestionStepDataSource.swift:74)")
    func v3NextOnUnanswered() throws {
        for profile in ["sage-3.3", "sage-3.4", "sage-4.0", "sage-4"] {
            let session = try sageSession(Self.skipTask, profile: profile)
            session.play(.tapNext)
            #expect(session.currentQuestion == "b", "\(profile)")
        }
    }

    @Test("4: only the skip button goes to the skip action's target (SR@v3.4.92 Research/ResearchUI/iOS/RSDStepViewController.swift:786-806, RSDUIStepObject nextStepIdentifier(with:))")
    func v3SkipButton() throws {
        for profile in ["sage-3.3", "sage-3.4", "sage-4.0", "sage-4"] {
            let session = try sageSession(Self.skipTask, profile: profile)
            session.play(.answer("a", 4), .skip(question: nil))
            #expect(session.currentQuestion == "c", "\(profile)")
        }
    }

    @Test("4: from 3.4.92 the skip button after a Back to the question is not followed: the step's first result is read (SR@v3.4.92 RSDTaskResult.swift:75, RSDStepViewController.swift:789)")
    func v3SkipAfterBack() throws {
        let expected = ["sage-3.3": "c", "sage-3.4": "b", "sage-4.0": "b", "sage-4": "b"]
        for (profile, target) in expected {
            let session = try sageSession(Self.skipTask, profile: profile)
            session.play(.answer("a", 1), .tapNext, .back, .skip(question: nil))
            #expect(session.currentQuestion == target, "\(profile)")
        }
    }

    // MARK: 5: nextStep / nextSection from a survey rule are ordinary ids

    @Test("5: a survey rule's nextStep is looked up as a step id: none has it, so the task finishes as completed, not early (SR@v2.8.88 RSDOrderedStepNavigator.swift:192-204, RSDTaskViewModel.swift:940)")
    func nextStepFromARuleEndsTheTask() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "nextStep""#)]), instruction("b")])
        let session = try sageSession(text)
        session.play(.answer("a", 1))
        let result = session.perform(.tapNext)
        #expect(session.hasEnded)
        #expect(result.events.first { $0.name == "task_finished" }?.detail == ["reason": "completed", "unknown_target": "nextStep"])
        #expect(session.payload != nil)
        #expect(lintFindings(text).findings.map(\.rule) == ["sage-reserved-target"])
    }

    @Test("5: inside a section the section ends, the parent re-reads the same id: a step of the parent is jumped to, an unknown id finishes the task (SR@v2.8.88 RSDOrderedStepNavigator.swift:93-110, RSDTaskViewModel.swift:907-931)")
    func unknownTargetInsideASection() throws {
        let inner = simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "outside""#), rule(#""matchingAnswer": 2, "skipToIdentifier": "nextSection""#)])
        let text = sageTask([section("s", inner, instruction("r")), instruction("middle"), instruction("outside")])
        let jump = try sageSession(text)
        jump.play(.answer("s/q", 1), .tapNext)
        #expect(jump.currentQuestion == "outside")
        let ends = try sageSession(text)
        ends.play(.answer("s/q", 2), .tapNext)
        #expect(ends.hasEnded)
        #expect(historyNames(ends.payload) == ["s"])
    }

    // MARK: 6: exit inside a section

    @Test("6: exit inside a section ends the task early and the section's result is never added to the task result (SR@v2.8.88 RSDTaskViewModel.swift:886-902, append only at :929)")
    func exitInsideASectionDropsItsResult() throws {
        let text = sageTask([instruction("intro"), section("s", simpleQuestion("q", rules: [rule(#""matchingAnswer": 1"#)]), instruction("r")), instruction("after")])
        for profile in ["sage-3.3", "sage-3.4", "sage-4"] {
            let session = try sageSession(text, profile: profile)
            session.play(.tapNext, .answer("s/q", 1))
            let result = session.perform(.tapNext)
            #expect(session.ending == .exit)
            #expect(result.has(event: "section_result_dropped"))
            #expect(historyNames(session.payload) == ["intro"], "\(profile)")
        }
    }

    // MARK: 7: Back and the history

    static let backTask = sageTask([
        simpleQuestion("a", "boolean", rules: [rule(#""matchingAnswer": false, "skipToIdentifier": "c""#)]), simpleQuestion("b"), instruction("c"),
    ])

    @Test("7: up to 3.3.91 Back truncates the history; from 3.4.92 every visit stays and the path is in nodePath / path (SR@v3.3.91 RSDTaskResult.swift:102, SR@v3.4.92 RSDTaskResult.swift:94-113)")
    func backKeepsOrTruncatesHistory() throws {
        // A=true, B=20, Back, Back, A=false: the rule goes to c.
        let actions: [Action] = [.answer("a", true), .tapNext, .answer("b", 20), .back, .answer("a", false), .tapNext, .tapNext]
        let old = try sageSession(Self.backTask, profile: "sage-3.3")
        old.play(actions)
        #expect(historyNames(old.payload) == ["a", "c"])
        #expect(pathNames(old.payload).isEmpty)
        let kept = try sageSession(Self.backTask, profile: "sage-4")
        kept.play(actions)
        #expect(historyNames(kept.payload) == ["a", "b", "a", "c"])
        #expect(pathNames(kept.payload) == ["a", "c"])
    }

    @Test("7: which answer the rules read after a Back: the first one up to 4.3.8, the latest from JsonModel 1.4.6 (SR@4.3.8 RSDTaskResult.swift:143, JM@1.4.6 BranchNodeResult.swift:62)")
    func whichAnswerTheRulesRead() throws {
        let actions: [Action] = [.answer("a", true), .tapNext, .back, .answer("a", false)]
        let expected = ["sage-3.3": "c", "sage-3.4": "b", "sage-4.0": "b", "sage-4": "c"]
        for (profile, target) in expected {
            let session = try sageSession(Self.backTask, profile: profile)
            session.play(actions)
            let result = session.perform(.tapNext)
            #expect(session.currentQuestion == target, "\(profile)")
            #expect(result.has(event: "stale_answer_read") == (target == "b"), "\(profile)")
        }
    }

    // MARK: 8: nodePath or path

    @Test("8: SageResearch 3.4.92–4.3.8 write nodePath (strings), 4.4+ and AssessmentModel path markers with directions (SR@v3.4.92 RSDTaskResultObject.swift:122, JM@7b81f56 BranchNodeResult.swift:86-107)")
    func pathRecord() throws {
        for (profile, key) in [("sage-3.4", "nodePath"), ("sage-4.0", "nodePath"), ("sage-4", "path"), ("sage-3.3", nil)] {
            let session = try sageSession(Self.backTask, profile: profile)
            session.play(.answer("a", false), .tapNext, .tapNext)
            let payload = try #require(session.payload?.objectValue)
            #expect((payload["nodePath"] != nil) == (key == "nodePath"), "\(profile)")
            #expect((payload["path"] != nil) == (key == "path"), "\(profile)")
        }
        let session = try sageSession(Self.backTask, profile: "sage-4")
        session.play(.answer("a", false), .tapNext, .tapNext)
        #expect(session.payload?.objectValue?["path"]?.arrayValue?.first == ["identifier": "a", "direction": "forward"])
    }

    // MARK: 9: AssessmentModel targets and sections

    static func assessmentSections(_ target: String) -> String {
        let q = simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "\#(target)""#)], keys: #""optional": true"#)
        return sageTask([instruction("intro"), section("s", q, instruction("r")), instruction("after"), instruction("end")], extra: assessmentMarker)
    }

    @Test("9: in AssessmentModel any reserved target from a rule, beginning too, ends the current section and the parent goes on after it (AM SwiftPackage/Sources/AssessmentModel/Navigation/NodeNavigator.swift:53-54, AssessmentModelUI/ViewModels/AssessmentViewModel.swift:128-132, 155-165)")
    func reservedTargetsEndTheSection() throws {
        for target in ["nextSection", "beginning", "exit"] {
            let session = try sageSession(Self.assessmentSections(target))
            session.play(.tapNext, .answer("s/q", 1), .tapNext)
            #expect(session.currentQuestion == "after", "\(target)")
        }
        #expect(lintFindings(Self.assessmentSections("beginning")).findings.map(\.rule) == ["sage-reserved-target"])
    }

    @Test("9: exit inside a section leaves only the section in Swift; Kotlin ends the run and saves nothing (AM NodeState.kt:390-396)")
    func exitInASectionByImplementation() throws {
        let swift = try sageSession(Self.assessmentSections("exit"))
        swift.play(.tapNext, .answer("s/q", 1), .tapNext)
        #expect(!swift.hasEnded)
        let kotlin = try sageSession(Self.assessmentSections("exit"), options: ["implementation": "kotlin"])
        kotlin.play(.tapNext, .answer("s/q", 1))
        let result = kotlin.perform(.tapNext)
        #expect(kotlin.hasEnded)
        #expect(kotlin.payload == nil)
        #expect(result.events.first { $0.name == "task_finished" }?.detail == ["reason": "exit", "saved": false])
    }

    @Test("9: a rule's target is looked up only in the current section: a top-level step named from a section ends the section (AM NodeNavigator.swift:38-40, 55-57)")
    func targetsOnlyInTheSection() throws {
        let session = try sageSession(Self.assessmentSections("end"))
        session.play(.tapNext, .answer("s/q", 1), .tapNext)
        #expect(session.currentQuestion == "after")
        #expect(lintFindings(Self.assessmentSections("end")).findings.map(\.rule) == ["sage-unknown-target"])
    }

    // MARK: 10: AssessmentModel comparisons

    static func comparison(_ op: String, _ matching: String, type: String = "integer", singleChoice: Bool = true) -> String {
        let question: String
        if singleChoice {
            question = simpleQuestion("a", type, rules: [rule(#""ruleOperator": "\#(op)", "matchingAnswer": \#(matching), "skipToIdentifier": "c""#)])
        } else {
            question = #"{"identifier": "a", "type": "choiceQuestion", "baseType": "string", "singleChoice": false, "choices": [{"value": "x"}, {"value": "y"}], "surveyRules": [{"matchingAnswer": \#(matching), "skipToIdentifier": "c"}]}"#
        }
        return sageTask([question, instruction("b"), instruction("c")], extra: assessmentMarker)
    }

    @Test("10: an array answer eq a single value is false; an array equals only the same array (JM@7b81f56 Sources/JsonModel/Json/JsonElement.swift:129, AM SurveyRule.kt:111-119)")
    func arrayEqualsScalar() throws {
        for implementation in ["swift", "kotlin"] {
            let scalar = try sageSession(Self.comparison("eq", #""x""#, singleChoice: false), options: ["implementation": implementation])
            scalar.play(.answer("a", ["x", "y"]), .tapNext)
            #expect(scalar.currentQuestion == "b", "\(implementation)")
            let array = try sageSession(Self.comparison("eq", #"["x", "y"]"#, singleChoice: false), options: ["implementation": implementation])
            array.play(.answer("a", ["x", "y"]), .tapNext)
            #expect(array.currentQuestion == "c", "\(implementation)")
        }
    }

    @Test("10: against a skipped answer Swift's ge and le hold, gt and lt do not; Kotlin's four do not (AM SurveyRule.swift:84-91, JM JsonElement.swift:173-186, 203-210; AM SurveyRule.kt:124-130)")
    func orderOperatorsOnASkippedAnswer() throws {
        let expected: [(String, String, String)] = [
            ("ge", "swift", "c"), ("le", "swift", "c"), ("gt", "swift", "b"), ("lt", "swift", "b"),
            ("ge", "kotlin", "b"), ("le", "kotlin", "b"), ("gt", "kotlin", "b"), ("lt", "kotlin", "b"),
        ]
        for (op, implementation, target) in expected {
            let session = try sageSession(Self.comparison(op, "3"), options: ["implementation": implementation])
            session.play(.skip(question: nil))
            #expect(session.currentQuestion == target, "\(op) \(implementation)")
        }
    }

    @Test("10: Kotlin orders by JSON text, so 10 gt 9 is false there and true in Swift (AM SurveyRule.kt:137-144)")
    func kotlinOrdersText() throws {
        let swift = try sageSession(Self.comparison("gt", "9"))
        swift.play(.answer("a", 10), .tapNext)
        #expect(swift.currentQuestion == "c")
        let kotlin = try sageSession(Self.comparison("gt", "9"), options: ["implementation": "kotlin"])
        kotlin.play(.answer("a", 10), .tapNext)
        #expect(kotlin.currentQuestion == "b")
    }

    // MARK: 11: required by default, Skip on every question

    @Test("11: AssessmentModel questions are required by default and show Skip on every question step; Skip clears the answer (AM Question.swift:111, NodeState.swift:132, 162-164, AssessmentViewModel.swift:336-357)")
    func requiredWithSkip() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""skipToIdentifier": "c""#)]), instruction("b"), instruction("c")], extra: assessmentMarker)
        let session = try sageSession(text)
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        #expect(session.otherActions.contains(.skip(question: nil)))
        session.play(.answer("a", 5), .skip(question: nil))
        #expect(session.currentQuestion == "c")
        #expect(session.answer(for: "a") == nil)
        let hidden = sageTask([simpleQuestion("a", keys: #""shouldHideActions": ["skip"]"#), instruction("b")], extra: assessmentMarker)
        #expect(try sageSession(hidden).perform(.skip(question: nil)).outcome.kind == .rejected)
    }

    // MARK: 12: results never removed

    @Test("12: AssessmentModel never removes a result: every visit appends, and the path lists the visits (AM AssessmentViewModel.swift:172-175, 248-259; JM BranchNodeResult.swift:59-71)")
    func assessmentKeepsEveryResult() throws {
        let text = sageTask([simpleQuestion("a"), simpleQuestion("b"), simpleQuestion("c")], extra: assessmentMarker)
        let session = try sageSession(text)
        session.play(.answer("a", 1), .tapNext, .answer("b", 2), .back, .answer("a", 3), .tapNext, .tapNext, .answer("c", 4), .submit)
        #expect(historyNames(session.payload) == ["a", "b", "a", "b", "c"])
        #expect(historyValues(session.payload) == [1, 2, 3, 2, 4])
        #expect(pathNames(session.payload) == ["a", "b", "a", "b", "c"])
        let kotlin = try sageSession(text, options: ["implementation": "kotlin"])
        kotlin.play(.answer("a", 1), .tapNext, .answer("b", 2), .back, .answer("a", 3), .tapNext, .tapNext, .answer("c", 4), .submit)
        #expect(pathNames(kotlin.payload) == ["a", "b", "a(backward)", "b", "c"])
    }
}
