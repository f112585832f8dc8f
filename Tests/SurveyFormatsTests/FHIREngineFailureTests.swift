import SurveyCore
import Testing

@testable import SurveyFormats

/// When each R4 engine throws, and how android-fhir's single pass differs from LHC-Forms' fixpoint
/// (docs/fhir.md, "Engines" and "Enablement"): an engine that throws breaks the form, so the action that led
/// there is refused and the session stays as it was; one that throws as the form opens refuses every action.
@Suite("FHIR engines' failures and passes")
struct FHIREngineFailureTests {
    static let android = [FHIRSurvey.engineOption: FHIREngine.androidFHIR.rawValue]

    /// A group enabled once `gate` is true, holding `items`.
    private func gated(_ items: [String]) -> [String] {
        [fhirItem("gate", "boolean"), fhirItem("g", "group", enableWhen: [condition("gate", "=", #""answerBoolean": true"#)], items: items)]
    }

    @Test(
        "several enableWhen without enableBehavior: android-fhir throws IllegalStateException the first time it evaluates the item (EnablementEvaluator.kt:166-172), not when it parses: as the form opens, when an answer enables its group, or as it submits a hidden one")
    func que12ThrowsWhenEvaluated() throws {
        let twoConditions = [condition("gate", "exists", #""answerBoolean": true"#), condition("gate", "=", #""answerBoolean": true"#)]
        let topLevel = try loadQuestionnaire(questionnaireText([fhirItem("gate", "boolean"), fhirItem("t", "string", enableWhen: twoConditions)]))
        #expect(topLevel.problem(with: SessionSettings(options: Self.android))?.contains("android-fhir throws as the form opens: IllegalStateException") == true)
        #expect(topLevel.problem(with: SessionSettings()) == nil)

        let nested = try fhirSession(gated([fhirItem("t", "string", enableWhen: twoConditions)]), options: Self.android)
        #expect(nested.visibleQuestions == ["gate"])
        let outcome = nested.perform(.answer("gate", true)).outcome
        #expect(outcome.kind == .rejected && outcome.message?.contains("IllegalStateException") == true)
        #expect(nested.answer(for: "gate") == nil)
        nested.play(.answer("gate", false))
        #expect(nested.visibleQuestions == ["gate"])

        let hidden = fhirItem("h", "string", #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#, enableWhen: twoConditions)
        let submitting = try fhirSession([fhirItem("gate", "boolean"), hidden], options: Self.android)
        submitting.play(.answer("gate", true))
        let submit = submitting.perform(.submit).outcome
        #expect(submit.kind == .rejected && submit.message?.contains("as it submits") == true)
        #expect(submitting.payload == nil && submitting.isSubmittable)
    }

    @Test(
        "exists with an answer[x] that is no boolean, or none: LHC-Forms reads its truthiness (none is false, lhc-form-data.ts:3878-3880); android-fhir throws when it evaluates the condition (answerBooleanType, EnablementEvaluator.kt:192-197)")
    func existsWithoutBooleanThrowsWhenEvaluated() throws {
        let items = gated([fhirItem("s", "string"), fhirItem("e", "string", enableWhen: [condition("s", "exists", #""answerString": "yes""#)])])
        let lhc = try fhirSession(items)
        lhc.play(.answer("gate", true), .answer("s", "x"))
        #expect(lhc.visibleQuestions == ["gate", "g", "s", "e"])
        let android = try fhirSession(items, options: Self.android)
        #expect(android.perform(.answer("gate", true)).outcome.message?.contains("FHIRException") == true)

        let missing = [fhirItem("s", "string"), fhirItem("m", "string", enableWhen: [#"{"question": "s", "operator": "exists"}"#])]
        let reading = try fhirSession(missing)
        #expect(reading.visibleQuestions == ["s", "m"])
        reading.play(.answer("s", "x"))
        #expect(reading.visibleQuestions == ["s"])
        let survey = try loadQuestionnaire(questionnaireText(missing))
        #expect(survey.problem(with: SessionSettings(options: Self.android))?.contains("NullPointerException") == true)
        #expect(fhirLint(missing).with(rule: "fhir-que-7").count == 1)
    }

    @Test(
        "android-fhir has no view for an item without a type, a url item or an open-choice item without options: showing one throws NotImplementedError (QuestionnaireLists.kt:249-279), so the answer that would show it is refused; with answer options an item without a type is a choice; LHC-Forms renders them all")
    func androidUnrenderedItems() throws {
        let untyped = #"{"linkId": "u", "text": "No type"}"#
        let nested = try fhirSession(gated([untyped]), options: Self.android)
        #expect(nested.perform(.answer("gate", true)).outcome.message?.contains("NotImplementedError: android-fhir has no view for 'u'") == true)
        #expect(try fhirSession(gated([untyped])).perform(.answer("gate", true)).outcome == .ok)

        let url = try loadQuestionnaire(questionnaireText([fhirItem("site", "url")]))
        #expect(url.problem(with: SessionSettings(options: Self.android))?.contains("url item without answer options") == true)
        #expect(url.problem(with: SessionSettings()) == nil)
        #expect(fhirLint(fhirItem("site", "url")).with(rule: "fhir-item-type").first?.severity == .warning)

        let withOptions = try fhirSession([#"{"linkId": "u", "answerOption": [{"valueString": "a"}, {"valueString": "b"}]}"#], options: Self.android)
        withOptions.play(.answer("u", "a"), .submit)
        #expect(withOptions.responseItems == [["linkId": "u", "answer": [["valueString": "a"]]]])
    }

    @Test(
        "android-fhir clears a disabled item's answers as its pass meets it, and does not visit what is under it: a question in a disabled group keeps its answer and still enables what reads it (QuestionnaireViewModel.kt:878-896); LHC-Forms counts it unanswered (lhc-form-data.ts:3872-3873)")
    func androidKeepsAnswersUnderADisabledGroup() throws {
        let items = [
            fhirItem("gate", "boolean"), fhirItem("g", "group", enableWhen: [condition("gate", "exists", #""answerBoolean": false"#)], items: [fhirItem("c", "string")]),
            fhirItem("d", "string", enableWhen: [condition("c", "exists", #""answerBoolean": true"#)]),
        ]
        let lhc = try fhirSession(items)
        lhc.play(.answer("c", "x"), .answer("gate", true))
        #expect(lhc.visibleQuestions == ["gate"])
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("c", "x"), .answer("gate", true))
        #expect(android.visibleQuestions == ["gate", "d"])
        android.play(.answer("d", "y"), .submit)
        #expect(android.responseItems == [["linkId": "gate", "answer": [["valueBoolean": true]]], ["linkId": "d", "answer": [["valueString": "y"]]]])
    }

    @Test(
        "android-fhir makes one pass in document order per change: a dependent placed before its source sees the source's answers from before the pass, so it stays shown until the next change after a change that disables the source; LHC-Forms repeats until nothing changes")
    func androidSinglePassIsStaleUntilTheNextChange() throws {
        let items = [
            fhirItem("first", "string", enableWhen: [condition("src", "exists", #""answerBoolean": true"#)]), fhirItem("gate", "boolean"),
            fhirItem("src", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": false"#)]), fhirItem("other", "string"),
        ]
        let lhc = try fhirSession(items)
        lhc.play(.answer("src", "x"), .answer("gate", true))
        #expect(lhc.visibleQuestions == ["gate", "other"])
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("src", "x"))
        #expect(android.visibleQuestions == ["first", "gate", "src", "other"])
        android.play(.answer("gate", true))
        #expect(android.visibleQuestions == ["first", "gate", "other"])
        android.play(.answer("other", "y"))
        #expect(android.visibleQuestions == ["gate", "other"])
    }

    @Test(
        "android-fhir never evaluates a hidden item in its pass (QuestionnaireViewModel.kt:884), so its answers are never cleared and still drive what reads them; it evaluates it as it submits, and leaves it out when disabled")
    func androidNeverClearsHiddenAnswers() throws {
        let hidden = fhirItem(
            "h", "string", #""initial": [{"valueString": "x"}], "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#,
            enableWhen: [condition("gate", "exists", #""answerBoolean": false"#)])
        let items = [fhirItem("gate", "boolean"), hidden, fhirItem("d", "string", enableWhen: [condition("h", "exists", #""answerBoolean": true"#)])]
        let lhc = try fhirSession(items)
        lhc.play(.answer("gate", true))
        #expect(lhc.visibleQuestions == ["gate"])
        let android = try fhirSession(items, options: Self.android)
        #expect(android.visibleQuestions == ["gate", "d"])
        android.play(.answer("gate", true))
        #expect(android.visibleQuestions == ["gate", "d"])
        android.play(.submit)
        #expect(android.responseItems == [["linkId": "gate", "answer": [["valueBoolean": true]]]])
    }

    @Test(
        "android-fhir's equals tests the class first and its compareTo throws across types (MoreTypes.kt:35, 50-54): answerDecimal against an integer item is never equal, its != holds, and an ordering throws; LHC-Forms compares the numbers")
    func androidNumberClasses() throws {
        let items = [
            fhirItem("n", "integer"), fhirItem("eq", "string", enableWhen: [condition("n", "=", #""answerDecimal": 3"#)]),
            fhirItem("ne", "string", enableWhen: [condition("n", "!=", #""answerDecimal": 3"#)]),
        ]
        let lhc = try fhirSession(items)
        lhc.play(.answer("n", 3))
        #expect(lhc.visibleQuestions == ["n", "eq"])
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("n", 3))
        #expect(android.visibleQuestions == ["n", "ne"])
        let ordering = try fhirSession(items[0], fhirItem("gt", "string", enableWhen: [condition("n", ">", #""answerDecimal": 2.5"#)]), options: Self.android)
        #expect(ordering.perform(.answer("n", 3)).outcome.message?.contains("IllegalArgumentException") == true)
    }

    @Test(
        "walks over a file whose engines throw on some answers and whose android-fhir pass goes stale find no engine error under either engine, and their responses read back",
        arguments: FHIREngine.allCases)
    func walksOverFailuresAndPasses(engine: FHIREngine) throws {
        let twoConditions = [condition("gate", "exists", #""answerBoolean": true"#), condition("gate", "=", #""answerBoolean": true"#)]
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("first", "string", enableWhen: [condition("src", "exists", #""answerBoolean": true"#)]), fhirItem("gate", "boolean"),
                fhirItem("g", "group", enableWhen: [condition("gate", "=", #""answerBoolean": true"#)], items: [fhirItem("t", "string", enableWhen: twoConditions)]),
                fhirItem("src", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": false"#)]),
                fhirItem("c", "choice", #""answerOption": [{"valueInteger": 1}, {"valueInteger": 2}]"#),
                fhirItem("two", "string", enableWhen: [condition("c", "=", #""answerInteger": 2"#)]),
            ]))
        let settings = SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: engine.rawValue])
        #expect(survey.problem(with: settings) == nil)
        #expect(walksSubmitted(survey, settings: settings, walks: 30, maxSteps: 40) > 0)
    }
}
