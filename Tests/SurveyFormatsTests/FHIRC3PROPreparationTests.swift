import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

/// How C3-PRO prepares the task: what gets a step and what does not (reported beside the task, which runs
/// anyway), what it reads of an STU3-era file that leaves things out, and what makes ResearchKit throw while
/// the task is built (the app stops: a load error under c3pro).
@Suite("FHIR c3pro preparation: items without a step, errors beside the task, build failures, titles, ids")
struct FHIRC3PROPreparationTests {
    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:307-315 (no answer format), :91-100 (the error is collected, no step), :120-143 (sub-items
    // still processed); QuestionnairePromise.swift:79-89 and QuestionnaireController.swift:81-86, 109-115 (the task comes with the errors)
    @Test("text, attachment and reference items get no step: the task runs without them, sub-items included, and the errors are start events")
    func itemsWithoutStep() throws {
        let session = try c3proSession(
            fhirItem("a", "boolean", #""required": true"#), fhirItem("t", "text"), fhirItem("f", "attachment", items: [fhirItem("fc", "string")]),
            fhirItem("r", "reference"), fhirItem("end", "display", #""text": "Bye""#))
        #expect(session.task.steps.map(\.id) == ["a", "fc", "end"])
        #expect(session.task.buildFailure == nil && !session.hasEnded)
        #expect(session.startEvents.map(\.name) == ["preparation_error", "preparation_error", "preparation_error"])
        #expect(session.startEvents.map { $0.detail?.objectValue?["item"] } == ["t", "f", "r"])
        #expect(session.startEvents.allSatisfy { $0.detail?.objectValue?["rule"] == "c3pro-unsupported-item" })
        #expect(session.startEvents[0].detail?.objectValue?["message"] == "'t' is a text item, for which C3-PRO has no answer format; it gets no step and the task runs without it")
        #expect(session.outcome(.answer("t", "long")) == .rejected("'t' has no step: 't' is a text item, for which C3-PRO has no answer format; it gets no step and the task runs without it"))
        session.play(.answer("a", true), .tapNext, .answer("fc", "x"), .tapNext, .submit)
        #expect(session.responseItems == [["linkId": "a", "answer": [["valueBoolean": true]]], ["linkId": "f", "item": [["linkId": "fc", "answer": [["valueString": "x"]]]]]])
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:283-306 (no choices: an error), :329-383 (option not implemented; options resolved; none)
    @Test("a choice whose options cannot be resolved gets no step: inline options, an unresolved ValueSet, no options, a ValueSet without codes")
    func choicesWithoutStep() throws {
        let empty = #"{"resourceType": "ValueSet", "id": "empty", "compose": {"include": [{"system": "http://x"}]}}"#
        let cases: [(String, String)] = [
            (fhirItem("c", "choice", #""option": [{"valueString": "a"}]"#), "c3pro-inline-options"),
            (fhirItem("c", "choice", ##""options": {"reference": "#nowhere"}"##), "c3pro-valueset-missing"),
            (fhirItem("c", "choice"), "c3pro-no-choices"),
            (fhirItem("c", "choice", ##""options": {"reference": "#empty"}"##), "c3pro-no-choices"),
        ]
        for (item, rule) in cases {
            let text = questionnaireText([fhirItem("a", "boolean"), item], extra: #""id": "test", "status": "draft", "contained": [\#(c3proColors), \#(empty)]"#)
            let session = try c3proSession(text: text)
            #expect(session.task.steps.map(\.id) == ["a"], "\(rule)")
            #expect(session.task.reports.map(\.rule) == [rule])
            #expect(!session.hasEnded)
        }
    }

    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:31-44 (the first enableWhen that cannot be read throws), :56-97; QuestionnaireItemPromise.swift:80-88
    // (the error is collected, the item keeps its parent's requirements), :127 (its children get the same)
    @Test("an enableWhen C3-PRO cannot read drops all the item's own conditions: it shows whenever its ancestors' hold, and so do its children")
    func unreadableConditionDropsOwn() throws {
        let session = try c3proSession(
            fhirItem("gate", "boolean", #""required": true"#), fhirItem("n", "integer", #""required": true"#),
            fhirItem("s", "string", #""required": true"#, enableWhen: [stu3Condition("gate", #""answerBoolean": true"#), stu3Condition("n", #""answerInteger": 3"#)]),
            fhirItem("g", "group", enableWhen: [stu3Condition("gate", #""answerBoolean": true"#)], items: [
                fhirItem("u", "string", enableWhen: [stu3Condition("n", #""answerInteger": 3"#)])
            ]),
            fhirItem("h", "group", enableWhen: [#"{"question": "gate", "hasAnswer": true}"#], items: [fhirItem("v", "string", #""required": true"#)]),
            fhirItem("end", "display", #""text": "Bye""#))
        #expect(session.task.reports.map { session.survey.items[$0.item].linkId } == ["s", "u", "h"])
        #expect(session.task.reports.allSatisfy { $0.rule == "c3pro-unsupported-enablewhen" })
        #expect(session.task.reports[0].message.hasPrefix("C3-PRO cannot read an enableWhen of 's': it compares answerInteger"))
        #expect(session.task.steps.first { $0.id == "s" }?.requirements.isEmpty == true)
        #expect(session.task.steps.first { $0.id == "u" }?.requirements.map(\.condition.question) == ["gate"])
        #expect(session.task.steps.first { $0.id == "v" }?.requirements.isEmpty == true)
        session.play(.answer("gate", false), .tapNext, .answer("n", 5), .tapNext)
        #expect(session.currentQuestion == "s")
        let next = session.perform(.answer("s", "shown anyway"))
        #expect(next.outcome == .ok)
        let result = session.perform(.tapNext)
        #expect(result.events.first == TraceEvent("skipped_by_enableWhen", detail: ["u"]))
        #expect(session.currentQuestion == "v")
    }

    /// An STU3-era file (it uses `options`) whose enableWhen leave out what every engine needs.
    static let stu3Unreadable = c3proText([
        fhirItem("c", "choice", colorOptions), fhirItem("q", "string", enableWhen: [#"{"answerBoolean": true}"#]),
        fhirItem("r", "string", enableWhen: [#"{"question": "c"}"#]),
    ])

    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:56-61 (no question), :96 (no answer type it supports)
    @Test("an STU3 enableWhen without question, or without answer and hasAnswer, loads: C3-PRO drops the item's own conditions, the r4 profile cannot run the file")
    func stu3UnreadableConditions() throws {
        let survey = try loadQuestionnaire(Self.stu3Unreadable)
        #expect(survey.item("q")?.enableWhen.isEmpty == true && survey.item("q")?.c3pro.unreadableConditions.map(\.problem) == ["has no \"question\""])
        #expect(survey.item("r")?.c3pro.unreadableConditions.map(\.problem) == ["has neither an answer[x] nor hasAnswer"])
        #expect(survey.problem(with: c3proSettings()) == nil)
        let r4 = try #require(survey.problem(with: SessionSettings(profile: "r4")))
        #expect(r4.hasPrefix("q.json:1:") && r4.contains("an enableWhen of 'q' has no \"question\": the r4 profile cannot evaluate it"))
        #expect(survey.task().reports.map(\.rule) == ["c3pro-unsupported-enablewhen", "c3pro-unsupported-enablewhen"])
        // An R4 file keeps needing both.
        #expect(fhirLoadErrors(questionnaireText([fhirItem("q", "string", enableWhen: [#"{"operator": "=", "answerBoolean": true}"#])])).count == 1)
    }

    // C3-PRO@e5790c52 ConditionalStep.swift:91, 107-110 (no step result for the question: the requirement is passed); Questionnaire+C3-PRO.swift:56-61
    // (only a missing question throws, not one naming no item)
    @Test("an STU3 enableWhen naming no item loads: C3-PRO counts it as satisfied, the r4 profile cannot run the file under LHC-Forms; in an R4 file LHC-Forms refuses it, android-fhir renders it")
    func danglingCondition() throws {
        let text = c3proText([
            fhirItem("a", "boolean", #""required": true"#), fhirItem("b", "string", enableWhen: [stu3Condition("nope", #""answerBoolean": true"#)]),
            fhirItem("end", "display", #""text": "Bye""#),
        ])
        let survey = try loadQuestionnaire(text)
        #expect(survey.problem(with: c3proSettings()) == nil)
        let r4 = try #require(survey.problem(with: SessionSettings(profile: "r4")))
        #expect(r4.hasPrefix("q.json:1:") && r4.contains("an enableWhen of 'b' reads 'nope', which no item has: the r4 profile cannot evaluate it"))
        // android-fhir renders it: the condition reads no answer.
        #expect(survey.problem(with: SessionSettings(profile: "r4", options: [FHIRSurvey.engineOption: "android-fhir"])) == nil)
        let session = try c3proSession(text: text)
        session.play(.answer("a", true))
        let next = session.perform(.tapNext)
        #expect(session.currentQuestion == "b")
        #expect(next.events == [TraceEvent("enabled_without_result", detail: ["step": "b", "questions": ["nope"]])])
        let rules = FormatRegistry.standard.lint(SourceFile(path: "q.json", text: text)).findings.compactMap(\.rule)
        #expect(rules.contains("fhir-dangling-question") && rules.contains("c3pro-requirement-without-result"))
        // In an R4 file LHC-Forms (the default engine) refuses it, and android-fhir renders it (issue 17).
        let r4File = try loadQuestionnaire(
            questionnaireText([fhirItem("a", "boolean"), fhirItem("b", "string", enableWhen: [condition("nope", "=", #""answerBoolean": true"#)])]))
        let refusal = try #require(r4File.problem(with: SessionSettings(profile: "r4")))
        #expect(refusal.hasPrefix("LHC-Forms does not render this Questionnaire (it renders under option engine android-fhir)") && refusal.contains("reads 'nope', which no item has"))
        #expect(r4File.problem(with: SessionSettings(profile: "r4", options: [FHIRSurvey.engineOption: "android-fhir"])) == nil)
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:264-270 (a scale of step 1); ResearchKit@44c88877 ResearchKit/Common/ORKAnswerFormat.m:1645-1665 (the
    // initializer validates), :1735-1778 (at most 13 steps, bounds within ±10000: NSInvalidArgumentException)
    @Test("a slider of more than 13 steps, or past ±10000, makes ResearchKit throw while the task is built: a load problem under c3pro, every action refused")
    func sliderLimits() throws {
        func slider(_ low: Int, _ high: Int) -> String {
            fhirItem("s", "integer", extensions([("minValue", #""valueInteger": \#(low)"#), ("maxValue", #""valueInteger": \#(high)"#)]))
        }
        for (low, high) in [(0, 13), (-10000, -9990), (9990, 10000)] {
            #expect(try loadQuestionnaire(c3proText([slider(low, high)])).task().buildFailure == nil, "\(low)…\(high)")
        }
        // The limit is each slider's: twenty sliders of 13 steps make a task of twenty steps, which builds.
        let many = (1...20).map { fhirItem("s\($0)", "integer", extensions([("minValue", #""valueInteger": 0"#), ("maxValue", #""valueInteger": 13"#)])) }
        let manySteps = try loadQuestionnaire(c3proText(many)).task()
        #expect(manySteps.steps.count == 20 && manySteps.buildFailure == nil)
        for (low, high, why) in [(0, 14, "it has 14 steps (0 to 14), and a ResearchKit scale takes at most 13"), (0, 100, "it has 100 steps"), (-10001, -10000, "leave ResearchKit's range"), (10000, 10001, "leave ResearchKit's range")] {
            let survey = try loadQuestionnaire(c3proText([fhirItem("a", "boolean"), slider(low, high)]))
            let failure = try #require(survey.task().buildFailure, "\(low)…\(high)")
            #expect(failure.rule == "c3pro-slider-limits" && failure.message.contains(why), "\(failure.message)")
            let problem = try #require(survey.problem(with: c3proSettings()))
            #expect(problem.hasPrefix("q.json:1:") && problem.contains("ResearchKit throws while C3-PRO builds the slider of 's'"))
            #expect(survey.problem(with: SessionSettings(profile: "r4")) == nil)
            let session = try #require(survey.makeSession(c3proSettings()) as? FHIRC3PROSession)
            #expect(session.hasEnded && session.visibleQuestions.isEmpty)
            #expect(session.outcome(.answer("a", true)).message?.hasPrefix("the app stops before the task shows: ResearchKit throws") == true)
        }
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKOrderedTask.m:100-111, 141-152 (unique step identifiers, else NSGenericException)
    @Test("two steps with one identifier make ResearchKit's ordered task throw while it is built")
    func duplicateSteps() throws {
        let survey = try loadQuestionnaire(c3proText([fhirItem("d", "display", #""text": "A""#), fhirItem("d", "display", #""text": "B""#), fhirItem("a", "boolean")]))
        #expect(survey.task().buildFailure?.rule == "c3pro-duplicate-step")
        #expect(survey.problem(with: c3proSettings())?.contains("two steps are named 'd'") == true)
    }

    // C3-PRO@e5790c52 QuestionnairePromise.swift:81-84 (the task is made of whatever steps there are); ResearchKit@44c88877
    // ResearchKit/Common/ORKTaskViewController.m:642-655 (no first step: nothing shown)
    @Test("a Questionnaire of which nothing becomes a step gives an empty task: nothing on screen, nothing to do")
    func emptyTask() throws {
        let session = try c3proSession(fhirItem("t", "text"), fhirItem("d", "display"))
        #expect(session.task.steps.isEmpty && session.task.buildFailure == nil)
        #expect(session.currentQuestion == nil && session.visibleQuestions.isEmpty && !session.isSubmittable && session.hasEnded)
        #expect(session.outcome(.tapNext) == .rejected("no step is on screen: the task has no step to show"))
    }

    /// An STU3-era Questionnaire (it uses `options`) with a display item whose linkId is `uuid-1`, a group
    /// without linkId, a question without type and one with both.
    static let unnamed = c3proText([
        fhirItem("uuid-1", "display", #""text": "Hi""#),
        #"{"type": "group", "text": "About you", "item": [{"linkId": "name", "text": "Your name?"}, {"linkId": "ok", "type": "boolean"}]}"#,
        fhirItem("c", "choice", colorOptions),
    ])

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:317-320 (no type: a text answer format), :154-156 (no linkId: a UUID each time),
    // :159-167 (a child's linkIds ask again), ORKTaskResult+FHIR.swift:121, 207-219 (no type: valueString)
    @Test("an STU3 item without type is a text question answered as valueString; one without linkId gets a generated id, and a fresh wrapper for each step under it")
    func missingTypeAndLinkId() throws {
        let session = try c3proSession(text: Self.unnamed)
        #expect(session.task.steps.map(\.id) == ["uuid-1", "uuid-2", "name", "ok", "c"])
        #expect(session.survey.item("uuid-2")?.c3pro.linkIdGenerated == true && session.survey.item("name")?.c3pro.typeMissing == true)
        #expect(session.task.steps[2].format == .text(url: false))
        #expect(session.task.steps[2].wrappers == ["uuid-2-for-name"] && session.task.steps[3].wrappers == ["uuid-2-for-ok"])
        session.play(.tapNext, .tapNext, .answer("name", "Ann"), .tapNext, .answer("ok", true), .tapNext, .answer("c", coding("red")), .submit)
        #expect(session.responseItems == [
            ["linkId": "uuid-2-for-name", "item": [["linkId": "name", "answer": [["valueString": "Ann"]]]]],
            ["linkId": "uuid-2-for-ok", "item": [["linkId": "ok", "answer": [["valueBoolean": true]]]]],
            ["linkId": "c", "answer": [["valueCoding": ["system": "http://example.org/s", "code": "red"]]]],
        ])
        let rules = FormatRegistry.standard.lint(SourceFile(path: "q.json", text: Self.unnamed)).findings.compactMap(\.rule)
        #expect(rules.contains("c3pro-generated-linkid") && rules.contains("c3pro-missing-type"))
        // An R4 file still needs a linkId (every R4 engine refuses it).
        let r4 = fhirLoadErrors(questionnaireText([#"{"type": "string"}"#, fhirItem("a", "boolean")])).map(\.message)
        #expect(r4.count == 1 && r4[0].contains("has no \"linkId\""))
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:317-320 (no type: a text answer format), :313-314 (`default:`, STU3's
    // `question`: no answer format, an error); smart-on-fhir/Swift-FHIR@3.1.1 Sources/Models/FHIREnum.swift:34-37 (a code
    // the enum lacks leaves the type nil, an error only strict parsing throws), Sources/Models/Questionnaire.swift:283-285
    @Test("in an R4 file under c3pro, an item without type or with a code R4 lacks is a text question, and STU3's question type gets no step")
    func untypedItemsInR4Files() throws {
        let text = questionnaireText([fhirItem("a", "boolean"), #"{"linkId": "b"}"#, #"{"linkId": "c", "type": "paragraph"}"#, #"{"linkId": "d", "type": "question"}"#])
        let survey = try loadQuestionnaire(text)
        #expect(survey.problem(with: c3proSettings()) == nil && survey.problem(with: SessionSettings(profile: "r4")) == nil)
        let session = try c3proSession(text: text)
        #expect(session.task.steps.map(\.id) == ["a", "b", "c"])
        #expect(session.task.steps[1].format == .text(url: false) && session.task.steps[2].format == .text(url: false))
        #expect(session.startEvents.map { $0.detail?.objectValue?["item"] } == ["d"])
        #expect(session.startEvents.first?.detail?.objectValue?["message"] == "'d' has STU3's abstract type \"question\", for which C3-PRO has no answer format; it gets no step and the task runs without it")
        session.play(.answer("a", true), .tapNext, .answer("b", "Ann"), .tapNext, .answer("c", "more"), .submit)
        #expect(session.responseItems == [
            ["linkId": "a", "answer": [["valueBoolean": true]]], ["linkId": "b", "answer": [["valueString": "Ann"]]],
            ["linkId": "c", "answer": [["valueString": "more"]]],
        ])
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:189-206 (title: code display, else code, else text; text; c3_stripMultipleSpaces), :102-105
    @Test("titles come from code.display, then code.code, then text; the text is then the item's text, else the instruction, else help; runs of spaces collapse")
    func titles() throws {
        let session = try c3proSession(
            fhirItem("g", "group", #""code": [{"code": "x"}, {"code": "G1", "display": "Group  one"}], "text": "About   you""#, items: [fhirItem("a", "boolean")]),
            fhirItem("h", "group", #""code": [{"code": "H1"}]"#, items: [fhirItem("b", "boolean")]),
            fhirItem("i", "display", extensions([("questionnaire-help", #""valueString": "Only help""#)])),
            fhirItem("j", "display", #""text": "Plain", \#(extensions([("questionnaire-help", #""valueString": "Help""#), ("questionnaire-instruction", #""valueString": "Do it""#)]))"#),
            fhirItem("k", "group", #""title": "Not read""#, items: [fhirItem("c", "boolean")]))
        let steps = session.task.steps
        #expect(steps.map(\.id) == ["g", "a", "h", "b", "i", "j", "c"])
        #expect(steps.map(\.title) == ["Group one", nil, "H1", nil, nil, "Plain", nil])
        #expect(steps.map(\.text) == ["About you", nil, nil, nil, "Only help", "Do it", nil])
    }

    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:31-44 (every enableWhen a requirement), ConditionalStep.swift:84-113 (all must hold)
    @Test("several STU3 enableWhen on one item load: C3-PRO requires all, the r4 profile reads any under LHC-Forms and throws under android-fhir (no enableBehavior), and lint says so")
    func severalConditions() throws {
        let text = c3proText([
            fhirItem("a", "boolean", #""required": true"#), fhirItem("b", "boolean", #""required": true"#),
            fhirItem("s", "string", enableWhen: [stu3Condition("a", #""answerBoolean": true"#), stu3Condition("b", #""answerBoolean": true"#)]),
            fhirItem("end", "display", #""text": "Bye""#),
        ])
        let survey = try loadQuestionnaire(text)
        #expect(survey.item("s")?.enableBehavior == .any)
        let c3pro = try c3proSession(text: text)
        c3pro.play(.answer("a", true), .tapNext, .answer("b", false), .tapNext)
        #expect(c3pro.currentQuestion == "end")
        let r4 = try #require(survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)
        r4.play(.answer("a", true), .answer("b", false))
        #expect(r4.isVisible("s"))
        // android-fhir keeps no behavior and throws when it evaluates 's', here as the form opens (EnablementEvaluator.kt:166-172).
        let android = try #require(survey.problem(with: SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: "android-fhir"])))
        #expect(android.hasPrefix("android-fhir throws as the form opens: IllegalStateException"))
        #expect(FormatRegistry.standard.lint(SourceFile(path: "q.json", text: text)).findings.with(rule: "c3pro-several-conditions").count == 1)
    }

    // C3-PRO@e5790c52 QuestionnaireController.swift:81-86, 109-115 (the view controller is handed over with the errors, before any step)
    @Test("a scenario's trace shows C3-PRO's errors as start events, in the golden text and in replay --json")
    func startEventsInTrace() throws {
        let survey = try loadQuestionnaire(c3proText([fhirItem("a", "boolean"), fhirItem("t", "text")]))
        let scenario = try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey q.json\nprofile c3pro\nanswer a true\n"))
        let result = ScenarioRunner().run(scenario, survey: survey)
        #expect(result.passed)
        #expect(result.trace.startEvents.map(\.name) == ["preparation_error"])
        #expect(result.trace.text.contains("start\n  event: preparation_error {\"item\":\"t\","))
        #expect(result.trace.json.objectValue?["start_events"]?.arrayValue?.count == 1)
        // Under r4 nothing is reported at the start.
        let r4 = ScenarioRunner().run(try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey q.json\nanswer a true\n")), survey: survey)
        #expect(r4.trace.startEvents.isEmpty && r4.trace.json.objectValue?["start_events"] == [])
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKAnswerFormat.m:1645-1665, 1735-1778 (the exception stops the app while C3-PRO prepares the task)
    @Test("a scenario under c3pro on a Questionnaire whose task ResearchKit cannot build stops at step 0 with the located reason")
    func buildFailureStopsScenario() throws {
        let wide = extensions([("minValue", #""valueInteger": 0"#), ("maxValue", #""valueInteger": 100"#)])
        let survey = try loadQuestionnaire(c3proText([fhirItem("s", "integer", wide)]))
        let scenario = try ScenarioParser.parse(SourceFile(path: "s.scenario", text: "survey q.json\nprofile c3pro\nanswer s 50\n"))
        let stale = try #require(ScenarioRunner().run(scenario, survey: survey).stale)
        #expect(stale.step == 0 && stale.line == 2 && stale.reason.hasPrefix("q.json:1:"))
    }
}
