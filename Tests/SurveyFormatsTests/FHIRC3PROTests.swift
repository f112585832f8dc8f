import Foundation
import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

@Suite("FHIR c3pro profile: STU3 input, ResearchKit steps, C3-PRO's enableWhen, answer formats and response")
struct FHIRC3PROTests {
    // MARK: inputs

    @Test("STU3 forms load as their R4 counterparts: options, option, enableWhen without operator as =, hasAnswer as exists, initial[x]")
    func stu3Forms() throws {
        let survey = try loadQuestionnaire(
            c3proText([
                fhirItem("color", "choice", colorOptions),
                fhirItem("size", "choice", #""option": [{"valueString": "S"}, {"valueString": "L"}]"#),
                fhirItem("flag", "boolean", #""initialBoolean": true"#),
                fhirItem("a", "string", enableWhen: [stu3Condition("flag", #""answerBoolean": false"#)]),
                fhirItem("b", "string", enableWhen: [#"{"question": "color", "hasAnswer": true}"#]),
            ]))
        let color = try #require(survey.item("color"))
        #expect(color.options.map { $0.value.json.objectValue?["code"] } == ["red", "green", "blue"])
        #expect(color.c3pro.optionsSource == .valueSet("#colors"))
        #expect(survey.item("size")?.options.map(\.value.json) == ["S", "L"])
        #expect(survey.item("size")?.c3pro.optionsSource == .inline)
        #expect(survey.item("flag")?.initial.map(\.json) == [true])
        #expect(survey.item("a")?.enableWhen.first?.op == .equals)
        #expect(survey.item("b")?.enableWhen.first?.op == .exists)
        #expect(survey.item("b")?.enableWhen.first?.answer.json == true)
    }

    @Test("a ValueSet's expansion.contains is read before its compose")
    func expansion() throws {
        let valueSet = #"{"resourceType": "ValueSet", "id": "vs", "expansion": {"contains": [{"system": "http://x", "code": "e"}]}, "compose": {"include": [{"system": "http://x", "concept": [{"code": "c"}]}]}}"#
        let survey = try loadQuestionnaire(questionnaireText([fhirItem("c", "choice", ##""options": {"reference": "#vs"}"##)], extra: #""status": "draft", "contained": [\#(valueSet)]"#))
        #expect(survey.item("c")?.options.map(\.value.json) == [["system": "http://x", "code": "e"]])
    }

    @Test("an R4 file that gives some enableWhen an operator still needs one on every enableWhen")
    func r4MissingOperator() {
        let text = questionnaireText([
            fhirItem("a", "boolean"), fhirItem("b", "string", enableWhen: [condition("a", "=", #""answerBoolean": true"#)]),
            fhirItem("c", "string", enableWhen: [stu3Condition("a", #""answerBoolean": true"#)]),
        ])
        #expect(fhirLoadErrors(text).contains { $0.message.contains("has no \"operator\"") })
    }

    @Test("options naming no contained ValueSet is resolved from a ValueSet file beside the Questionnaire, by id, ValueSet/id or url")
    func valueSetFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("c3pro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let valueSet = #"{"resourceType": "ValueSet", "id": "sizes", "url": "http://example.org/vs/sizes", "compose": {"include": [{"system": "http://x", "concept": [{"code": "S"}, {"code": "L"}]}]}}"#
        try valueSet.write(to: folder.appendingPathComponent("ValueSet-sizes.json"), atomically: true, encoding: .utf8)
        for reference in ["sizes", "ValueSet/sizes", "http://example.org/vs/sizes"] {
            let text = questionnaireText([fhirItem("s", "choice", #""options": {"reference": "\#(reference)"}"#)], extra: #""status": "draft""#)
            let survey = try #require(try FormatRegistry.standard.load(SourceFile(path: folder.appendingPathComponent("q.json").path, text: text)) as? FHIRSurvey)
            #expect(survey.item("s")?.options.count == 2, "\(reference)")
            #expect(survey.item("s")?.c3pro.optionsSource == .valueSet(reference))
        }
        let missing = questionnaireText([fhirItem("s", "choice", #""options": {"reference": "ValueSet/colours"}"#)], extra: #""status": "draft""#)
        let findings = FormatRegistry.standard.lint(SourceFile(path: folder.appendingPathComponent("q.json").path, text: missing)).findings
        let finding = try #require(findings.with(rule: "c3pro-valueset-missing").first)
        #expect(finding.severity == .error && finding.position != nil)
    }

    // C3-PRO@e5790c52 C3PRO.podspec:34 (ResearchKit ~> 1.4.1), .gitmodules and the ResearchKit submodule at 44c88877 (1.5.2), Cartfile.resolved:1
    // (2efdb9d5)
    @Test("the profiles are r4 and c3pro, another is reported with a suggestion; option researchkit names each of C3-PRO's pins: 1.4, 1.5 or 2.1+")
    func profiles() throws {
        let survey = try loadQuestionnaire(c3proText([fhirItem("a", "boolean")]))
        #expect(survey.profiles == ["r4", "c3pro"])
        #expect(survey.options["researchkit"] == ["1.4", "1.5", "2.1+"])
        #expect(survey.problem(with: SessionSettings(profile: "c3pro")) == nil)
        for value in ["1.4", "1.5", "2.1+"] {
            #expect(survey.problem(with: SessionSettings(profile: "c3pro", options: ["researchkit": value])) == nil, "\(value)")
        }
        #expect(survey.problem(with: SessionSettings(profile: "c3pro", options: ["researchkit": "1.3"]))?.contains("expected one of 1.4, 1.5, 2.1+") == true)
        #expect(survey.problem(with: SessionSettings(profile: "c3po"))?.contains("did you mean 'c3pro'") == true)
        #expect(survey.makeSession(SessionSettings(profile: "r4")) is FHIRSession)
    }

    // MARK: the step flow

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:91-105 (question, instruction or no step), :120-143 (children follow)
    @Test("questions are steps named by linkId; groups and display items with text are instruction steps, the others transparent")
    func steps() throws {
        let session = try c3proSession(
            fhirItem("g1", "group", #""text": "About you", \#(extensions([("questionnaire-instruction", #""valueString": "Read this""#)]))"#, items: [
                fhirItem("name", "string", #""required": true"#),
                fhirItem("g2", "group", items: [fhirItem("age", "integer")]),
            ]),
            fhirItem("d1", "display"), fhirItem("d2", "display", #""text": "Thanks""#))
        #expect(session.task.steps.map(\.id) == ["g1", "name", "age", "d2"])
        #expect(session.task.steps.map(\.isQuestion) == [false, true, true, false])
        #expect(session.task.steps[2].wrappers == ["g2", "g1"])
        let prompt = try #require(session.survey.prompt(for: "g1", settings: SessionSettings(profile: "c3pro")))
        #expect(prompt.text == "About you" && prompt.kind == "instruction step — Read this")
        #expect(session.visibleQuestions == ["g1"] && session.currentQuestion == "g1")
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:121 (the children of an item whose linkId is "{root}" get no parent), :159-167
    @Test("an item named {root} is taken for C3-PRO's synthetic top group: the wrappers of the steps below it stop under it")
    func rootNamedItem() throws {
        let session = try c3proSession(
            fhirItem("top", "group", items: [fhirItem("{root}", "group", items: [fhirItem("g", "group", items: [fhirItem("q", "string")]), fhirItem("r", "string")])]))
        #expect(session.task.steps.map(\.id) == ["q", "r"])
        #expect(session.task.steps.map(\.wrappers) == [["g"], []])
    }

    @Test("one step at a time: Next needs an answer, Back pops the path, only the step on screen takes answers, Done ends the task")
    func navigation() throws {
        let session = try c3proSession(
            fhirItem("g1", "group", #""text": "About you""#, items: [fhirItem("name", "string", #""required": true"#), fhirItem("age", "integer")]),
            fhirItem("d2", "display", #""text": "Thanks""#))
        session.play(.tapNext)
        #expect(session.visibleQuestions == ["g1", "name"])
        #expect(session.outcome(.tapNext) == .rejected("'name' needs an answer before Next"))
        session.play(.answer("name", "Ann"), .tapNext)
        #expect(session.visibleQuestions == ["g1", "name", "age"] && session.currentQuestion == "age")
        #expect(session.outcome(.answer("name", "Bob")) == .rejected("'name' is not the step on screen ('age'); go back to change it"))
        #expect(session.outcome(.tapNext) == .rejected("'age' needs an answer before Next (it is optional: skip it instead)"))
        session.play(.back)
        #expect(session.visibleQuestions == ["g1", "name"] && session.answer(for: "name") == "Ann")
        #expect(session.outcome(.goto(question: "age")).kind == .doesNotFit)
        #expect(session.outcome(.add(group: "g1")).kind == .doesNotFit)
        session.play(.tapNext, .answer("age", 40), .tapNext)
        #expect(session.isSubmittable)
        #expect(session.outcome(.tapNext) == .rejected("'d2' is the last step: its button is Done (submit)"))
        session.play(.submit)
        #expect(session.currentQuestion == nil && session.hasEnded)
        #expect(session.visibleQuestions == ["g1", "name", "age", "d2"])
        #expect(session.outcome(.back).kind == .rejected)
    }

    @Test("required false makes a question step skippable; Skip drops its answer and moves on; required and instruction steps have no Skip")
    func skip() throws {
        let session = try c3proSession(
            fhirItem("intro", "display", #""text": "Hello""#), fhirItem("name", "string", #""required": true"#), fhirItem("nick", "string"),
            fhirItem("end", "display", #""text": "Bye""#))
        #expect(session.outcome(.skip(question: nil)) == .rejected("'intro' is an instruction step: it has no Skip button"))
        session.play(.tapNext)
        #expect(!session.otherActions.contains(.skip(question: nil)))
        #expect(session.outcome(.skip(question: nil)) == .rejected("'name' is required: it has no Skip button"))
        session.play(.answer("name", "Ann"), .tapNext, .answer("nick", "A"))
        #expect(session.otherActions.contains(.skip(question: nil)))
        session.play(.skip(question: nil))
        #expect(session.currentQuestion == "end" && session.answer(for: "nick") == nil)
        session.play(.submit)
        #expect(session.responseItems == [["linkId": "name", "answer": [["valueString": "Ann"]]]])
    }

    // MARK: C3-PRO's enableWhen

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:77-88, 111-113, 127 (parent's requirements + own); ConditionalStep.swift:84-113 (all must hold)
    @Test("a step's requirements are its ancestors' and its own, all ANDed")
    func ancestorsAnded() throws {
        func path(_ a: Bool, _ c: Bool) throws -> [String] {
            let session = try c3proSession(
                fhirItem("a", "boolean", #""required": true"#), fhirItem("c", "boolean", #""required": true"#),
                fhirItem("g", "group", enableWhen: [stu3Condition("a", #""answerBoolean": true"#)], items: [
                    fhirItem("b", "boolean", enableWhen: [stu3Condition("c", #""answerBoolean": true"#)])
                ]),
                fhirItem("end", "display", #""text": "Bye""#))
            session.play(.answer("a", .bool(a)), .tapNext, .answer("c", .bool(c)), .tapNext)
            return session.visibleQuestions
        }
        #expect(try path(true, true) == ["a", "c", "b"])
        #expect(try path(true, false) == ["a", "c", "end"])
        #expect(try path(false, true) == ["a", "c", "end"])
    }

    // C3-PRO@e5790c52 ConditionalStep.swift:91, 107-110 (no result: the requirement is passed)
    @Test("a requirement whose question has no result yet counts as satisfied: a chain a → b → c shows c when b was passed over, where R4 hides it")
    func noResultSatisfied() throws {
        let items = [
            fhirItem("a", "boolean", #""required": true"#), fhirItem("b", "boolean", #""required": true"#, enableWhen: [stu3Condition("a", #""answerBoolean": true"#)]),
            fhirItem("c", "string", enableWhen: [stu3Condition("b", #""answerBoolean": true"#)]), fhirItem("end", "display", #""text": "Bye""#),
        ]
        let session = try c3proSession(items)
        session.play(.answer("a", false))
        let result = session.perform(.tapNext)
        #expect(session.visibleQuestions == ["a", "c"])
        #expect(result.events == [
            TraceEvent("skipped_by_enableWhen", detail: ["b"]),
            TraceEvent("enabled_without_result", detail: ["step": "c", "questions": ["b"]]),
        ])
        let checker = session.survey.makeStepChecker()
        #expect(checker.check(session, after: .tapNext, result: result).map(\.property) == ["c3pro-enabled-without-result"])
        let r4 = try #require(session.survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)
        r4.play(.answer("a", false))
        #expect(!r4.isVisible("c"))
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKQuestionStepViewController.m:466-473 (Skip saves a null answer); C3-PRO ConditionalStep.swift:92-102
    @Test("a skipped question has a result without an answer: a requirement on it fails")
    func skippedResultFails() throws {
        let session = try c3proSession(
            fhirItem("a", "boolean"), fhirItem("b", "string", enableWhen: [stu3Condition("a", #""answerBoolean": true"#)]), fhirItem("end", "display", #""text": "Bye""#))
        session.play(.skip(question: nil))
        #expect(session.visibleQuestions == ["a", "end"])
    }

    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:86-93 (the expected answer is [value]), ORKTaskResult+FHIR.swift:157-164 (isEqual)
    @Test("a multiple-choice result is compared as a whole array: the requirement holds only when that one option alone is chosen")
    func wholeArray() throws {
        let session = try c3proSession(
            fhirItem("s", "choice", #"\#(colorOptions), "repeats": true, "required": true"#),
            fhirItem("t", "boolean", enableWhen: [stu3Condition("s", #""answerCoding": {"system": "http://example.org/s", "code": "red"}"#)]),
            fhirItem("end", "display", #""text": "Bye""#))
        session.play(.answer("s", [coding("green"), coding("red")]), .tapNext)
        #expect(session.visibleQuestions == ["s", "end"])
        session.play(.back, .answer("s", [coding("red")]), .tapNext)
        #expect(session.visibleQuestions == ["s", "t"])
    }

    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:74-97 (answerBoolean, answerString, answerCoding with a code), ORKTaskResult+FHIR.swift:157-164
    @Test("equality of boolean, text and Coding (system and code, display ignored) only; a missing system is C3-PRO's default on both sides; a url answer is text")
    func equalityRules() throws {
        func when(_ type: FHIR.ValueType, _ json: JSONValue, _ op: FHIR.Operator = .equals) -> Result<FHIRC3PROTask.Expected, FHIRC3PROTask.Unreadable> {
            FHIRC3PROTask.expected(FHIR.EnableWhen(question: "q", op: op, answer: FHIR.Value(type, json), location: SourceLocation(position: SourcePosition(line: 1, column: 1), pointer: .root)))
        }
        func holds(_ expected: Result<FHIRC3PROTask.Expected, FHIRC3PROTask.Unreadable>, _ answers: [FHIR.Value]) throws -> Bool {
            FHIRC3PRORules.holds(try expected.get(), answers: answers)
        }
        #expect(try holds(when(.boolean, true), [FHIR.Value(.boolean, true)]))
        #expect(try !holds(when(.boolean, true), [FHIR.Value(.string, "true")]))
        #expect(try holds(when(.string, "a"), [FHIR.Value(.string, "a")]))
        #expect(try holds(when(.string, "https://x"), [FHIR.Value(.uri, "https://x")]))
        #expect(try holds(when(.coding, ["system": "http://s", "code": "1"]), [FHIR.Value(.coding, ["system": "http://s", "code": "1", "display": "One"])]))
        #expect(try !holds(when(.coding, ["system": "http://s", "code": "1"]), [FHIR.Value(.coding, ["system": "http://t", "code": "1"])]))
        #expect(try holds(when(.coding, ["code": "1"]), [FHIR.Value(.coding, ["system": .string(FHIRC3PROTask.defaultSystem), "code": "1"])]))
        #expect(try !holds(when(.boolean, true), []))
        for unreadable in [when(.integer, 3), when(.boolean, true, .notEquals), when(.boolean, true, .exists), when(.coding, ["display": "One"])] {
            #expect(throws: FHIRC3PROTask.Unreadable.self) { try unreadable.get() }
        }
    }

    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:86-93 (an answerCoding without system gets kORKTextChoiceDefaultSystem),
    // QuestionnaireItemPromise.swift:343-363 (a choice's value carries the ValueSet's system), ORKTaskResult+FHIR.swift:157-164 (isEqual)
    @Test("an answerCoding without system expects C3-PRO's default system: it never matches a choice from a ValueSet that names its system")
    func conditionWithoutSystem() throws {
        let session = try c3proSession(
            fhirItem("c", "choice", #"\#(colorOptions), "required": true"#),
            fhirItem("t", "boolean", enableWhen: [stu3Condition("c", #""answerCoding": {"code": "red"}"#)]), fhirItem("end", "display", #""text": "Bye""#))
        session.play(.answer("c", coding("red")), .tapNext)
        #expect(session.visibleQuestions == ["c", "end"])
    }

    // MARK: answer formats

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:259-273; ResearchKit@44c88877 ResearchKit/Common/ORKSurveyAnswerCellForScale.m:89-102
    @Test("an integer with minValue and maxValue is a slider: it starts at questionnaire-defaultValue, else the minimum; vertical past five steps; end labels from the string extensions")
    func scale() throws {
        let low = extensions([("minValue", #""valueInteger": 1"#), ("maxValue", #""valueInteger": 4"#)])
        let wide = extensions([
            ("minValue", #""valueInteger": 0"#), ("minValue", #""valueString": "Low""#), ("maxValue", #""valueInteger": 10"#),
            ("maxValue", #""valueString": "High""#), ("questionnaire-defaultValue", #""valueInteger": 8"#),
        ])
        let session = try c3proSession(fhirItem("q", "integer", low), fhirItem("r", "integer", wide), fhirItem("end", "display", #""text": "Bye""#))
        #expect(session.task.steps[0].format == .scale(FHIRC3PROTask.Scale(min: 1, max: 4, defaultValue: 1, minLabel: nil, maxLabel: nil)))
        #expect(session.answer(for: "q") == 1)
        let settings = SessionSettings(profile: "c3pro")
        #expect(session.survey.prompt(for: "q", settings: settings)?.kind == "scale 1…4, horizontal, starting at 1, optional (Skip)")
        let widePrompt = session.survey.prompt(for: "r", settings: settings)
        #expect(widePrompt?.kind == "scale 0…10, vertical, starting at 8, optional (Skip)" && widePrompt?.choices == ["0: Low", "10: High"])
        #expect(session.outcome(.answer("q", 5)).kind == .rejected)
        #expect(session.outcome(.answer("q", 2.5)).kind == .rejected)
        #expect(session.outcome(.clear(question: "q")) == .rejected("'q' is a slider: once set it keeps a value"))
        session.play(.answer("q", 3), .tapNext, .tapNext, .submit)
        #expect(session.responseItems == [["linkId": "q", "answer": [["valueDecimal": 3]]], ["linkId": "r", "answer": [["valueDecimal": 8]]]])
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:274-276 (integerAnswerFormat(withUnit: nil)); ResearchKit@44c88877 ResearchKit/Common/ORKAnswerFormat.m:342-343
    @Test("an integer without both bounds is an integer field without bounds: minValue alone, max not above min, a decimal bound make no slider and bound nothing")
    func integerField() throws {
        let session = try c3proSession(
            fhirItem("n", "integer", extensions([("minValue", #""valueInteger": 0"#)])),
            fhirItem("m", "integer", extensions([("minValue", #""valueInteger": 3"#), ("maxValue", #""valueInteger": 3"#)])),
            fhirItem("d", "integer", extensions([("minValue", #""valueDecimal": 1.0"#), ("maxValue", #""valueInteger": 5"#)])))
        #expect(session.task.steps.map(\.format) == [.integer, .integer, .integer])
        #expect(session.outcome(.answer("n", 1.5)).kind == .rejected)
        session.play(.answer("n", -7), .tapNext, .answer("m", 1000), .tapNext, .answer("d", 0), .submit)
        #expect(session.responseItems == [
            ["linkId": "n", "answer": [["valueInteger": -7]]], ["linkId": "m", "answer": [["valueInteger": 1000]]], ["linkId": "d", "answer": [["valueInteger": 0]]],
        ])
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKAnswerFormat.m:1700-1708 (no default answer off the scale), ORKSurveyAnswerCellForScale.m:89-102,
    // ORKQuestionStepViewController.m:507-513 (Continue needs an answer)
    @Test("a slider whose default is off the scale starts unset: Next stays disabled on a required one until it is moved, an optional one has Skip")
    func sliderDefaultOffScale() throws {
        let off = extensions([("minValue", #""valueInteger": 1"#), ("maxValue", #""valueInteger": 5"#), ("questionnaire-defaultValue", #""valueInteger": 0"#)])
        let session = try c3proSession(fhirItem("q", "integer", #"\#(off), "required": true"#), fhirItem("r", "integer", off), fhirItem("end", "display", #""text": "Bye""#))
        #expect(session.task.steps[0].format == .scale(FHIRC3PROTask.Scale(min: 1, max: 5, defaultValue: 0, minLabel: nil, maxLabel: nil)))
        #expect(session.answer(for: "q") == nil && !session.isSubmittable)
        #expect(session.outcome(.tapNext) == .rejected("'q' needs an answer before Next: its slider starts unset (its default 0 is off the scale 1…5)"))
        #expect(session.survey.prompt(for: "q", settings: c3proSettings())?.kind == "scale 1…5, horizontal, unset (its default 0 is off the scale)")
        session.play(.answer("q", 2), .tapNext)
        #expect(session.answer(for: "r") == nil && session.otherActions.contains(.skip(question: nil)))
        session.play(.skip(question: nil), .submit)
        #expect(session.responseItems == [["linkId": "q", "answer": [["valueDecimal": 2]]]])
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKQuestionStepViewController.m:466-473 (Skip saves a null answer), :112-125 (a revisit restores a
    // question result without an answer as the null answer), ORKSurveyAnswerCellForScale.m:89-102 (the default only for a missing answer)
    @Test("a skipped slider comes back unset: Back to it shows no value and Next stays disabled until it is moved, where a first visit starts at the preset")
    func skippedSliderComesBackUnset() throws {
        let scale = extensions([("minValue", #""valueInteger": 1"#), ("maxValue", #""valueInteger": 5"#), ("questionnaire-defaultValue", #""valueInteger": 3"#)])
        let session = try c3proSession(fhirItem("q", "integer", scale), fhirItem("r", "boolean", #""required": true"#))
        #expect(session.answer(for: "q") == 3)
        session.play(.skip(question: nil), .back)
        #expect(session.currentQuestion == "q" && session.answer(for: "q") == nil && !session.isSubmittable)
        #expect(session.outcome(.tapNext) == .rejected("'q' needs an answer before Next: it was skipped, so its slider shows no value until it is moved; it is optional: skip it instead"))
        #expect(session.otherActions.contains(.skip(question: nil)))
        session.play(.answer("q", 4), .tapNext, .answer("r", true), .submit)
        #expect(session.responseItems == [["linkId": "q", "answer": [["valueDecimal": 4]]], ["linkId": "r", "answer": [["valueBoolean": true]]]])
        // Moved once, it keeps its value on a revisit.
        let moved = try c3proSession(fhirItem("q", "integer", scale), fhirItem("r", "boolean", #""required": true"#))
        moved.play(.tapNext, .back)
        #expect(moved.answer(for: "q") == 3)
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:278-280 (no default date); ResearchKit@44c88877 ResearchKit/Common/ORKQuestionStepViewController.m:334-341
    // (the picker is loaded as the step appears), ORKSurveyAnswerCellForPicker.m:66-80, 113-129, ORKDateTimePicker.m:82-108 (the last answer, else the
    // default date), :193-212 (pickerWillAppear reports it as the answer), ORKAnswerFormat.m:1235-1248, 1378-1381 (the default: now)
    @Test("a date, date-and-time or time step is answered as it shows: the picker reports the device's clock (today 00:00 UTC here); Skip nulls it, a revisit answers again")
    func pickersAnswerAsTheyShow() throws {
        let session = try c3proSession(fhirItem("d", "date"), fhirItem("dt", "dateTime"), fhirItem("t", "time"), fhirItem("b", "boolean", #""required": true"#))
        #expect(session.answer(for: "d") == "2026-11-22")
        #expect(session.outcome(.clear(question: "d")) == .rejected("'d' is a picker: it always shows a value (skip it instead, if it is optional)"))
        #expect(!session.otherActions.contains(.clear(question: "d")))
        session.play(.tapNext)
        #expect(session.answer(for: "dt") == "2026-11-22T00:00:00Z")
        session.play(.answer("dt", "2026-11-20T08:15:00Z"), .tapNext)
        #expect(session.answer(for: "t") == "00:00:00")
        session.play(.skip(question: nil), .back)
        #expect(session.currentQuestion == "t" && session.answer(for: "t") == "00:00:00")
        session.play(.skip(question: nil), .answer("b", true), .submit)
        #expect(session.responseItems == [
            ["linkId": "d", "answer": [["valueDate": "2026-11-22"]]], ["linkId": "dt", "answer": [["valueDateTime": "2026-11-20T08:15:00Z"]]],
            ["linkId": "b", "answer": [["valueBoolean": true]]],
        ])
        #expect(session.survey.prompt(for: "d", settings: c3proSettings())?.kind == "date picker, starting at today, optional (Skip)")
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKQuestionStepViewController.m:466-473 (Skip nulls the answer the step shows),
    // ORKTaskViewController.m:1244-1258 (Skip on the last step ends the task)
    @Test("import passes a step the response leaves out but the engine answered itself (a slider preset, a picker) by Skip, the last one too")
    func importSkipsPresets() throws {
        let scale = extensions([("minValue", #""valueInteger": 1"#), ("maxValue", #""valueInteger": 5"#)])
        let survey = try loadQuestionnaire(c3proText([fhirItem("d", "date"), fhirItem("s", "integer", scale), fhirItem("b", "boolean", #""required": true"#), fhirItem("t", "time")]))
        let imported = PayloadImporter(survey: survey, settings: c3proSettings()).importAnswers([("b", true)])
        #expect(imported.problems.isEmpty, "\(imported.problems)")
        #expect(imported.actions == [.skip(question: nil), .skip(question: nil), .answer(question: "b", value: true), .next(question: nil), .skip(question: nil)])
        let session = survey.makeSession(c3proSettings())
        for action in imported.actions { _ = session.perform(action) }
        #expect(session.payload?.objectValue?["item"] == [["linkId": "b", "answer": [["valueBoolean": true]]]])
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:283-306, 389-392; ORKTaskResult+FHIR.swift:176-195
    @Test("choice and open-choice are single choice unless repeats is true and maxOccurs is absent or above 1; only ValueSet codes are taken")
    func choices() throws {
        let maxOne = extensions([("questionnaire-maxOccurs", #""valueInteger": 1"#)])
        let session = try c3proSession(
            fhirItem("one", "choice", colorOptions), fhirItem("many", "choice", #"\#(colorOptions), "repeats": true"#),
            fhirItem("capped", "choice", #"\#(colorOptions), "repeats": true, \#(maxOne)"#), fhirItem("open", "open-choice", colorOptions))
        #expect(session.task.steps.map(\.format) == [.choice(multiple: false), .choice(multiple: true), .choice(multiple: false), .choice(multiple: false)])
        #expect(session.outcome(.answer("one", [coding("red")])).kind == .rejected)
        #expect(session.outcome(.answer("one", coding("pink"))).kind == .rejected)
        session.play(.answer("one", coding("red")), .tapNext, .answer("many", [coding("blue"), coding("red")]))
        #expect(session.answer(for: "many") == [["system": "http://example.org/s", "code": "red", "display": "Red"], ["system": "http://example.org/s", "code": "blue", "display": "Blue"]])
        session.play(.tapNext, .answer("capped", coding("green")), .tapNext)
        #expect(session.outcome(.answer("open", "free text")).kind == .rejected)
        session.play(.answer("open", coding("blue")), .submit)
        let many = session.responseItems?.arrayValue?[1]
        #expect(many == ["linkId": "many", "answer": [["valueCoding": ["system": "http://example.org/s", "code": "red"]], ["valueCoding": ["system": "http://example.org/s", "code": "blue"]]]])
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:212-214, 389-392 (maxOccurs read only for the style); ResearchKit@44c88877
    // ResearchKit/Common/ORKTextChoiceCellGroup.m:104-128 (a multiple choice selects any number; only exclusive choices deselect others)
    @Test("questionnaire-maxOccurs above 1 bounds nothing: a multiple choice takes any number of its choices")
    func maxOccursBoundsNothing() throws {
        let maxTwo = extensions([("questionnaire-maxOccurs", #""valueInteger": 2"#)])
        let session = try c3proSession(fhirItem("many", "choice", #"\#(colorOptions), "repeats": true, \#(maxTwo)"#))
        #expect(session.task.steps[0].format == .choice(multiple: true))
        session.play(.answer("many", [coding("red"), coding("green"), coding("blue")]), .submit)
        #expect(session.responseItems?.arrayValue?.first?.objectValue?["answer"]?.arrayValue?.count == 3)
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:277-282 (formats), ORKTaskResult+FHIR.swift:199-248 (text and numbers), :298-305 (a time
    // without seconds), :331-362 (dates)
    @Test("a quantity is a decimal in the unit of questionnaire-units; dates, dates with times and times come from pickers, a time losing its seconds; url is text; a string takes any length")
    func valueFormats() throws {
        let session = try c3proSession(
            fhirItem("hours", "quantity", extensions([("questionnaire-units", #""valueString": "hours""#)])), fhirItem("day", "date"),
            fhirItem("moment", "dateTime"), fhirItem("wake", "time"), fhirItem("site", "url"), fhirItem("note", "string", #""maxLength": 3"#), fhirItem("ok", "boolean"),
            fhirItem("weight", "decimal"), fhirItem("dose", "quantity"))
        #expect(session.outcome(.answer("hours", ["value": 2, "unit": "kg"])) == .rejected("'hours' is measured in 'hours' (questionnaire-units), not 'kg'"))
        session.play(.answer("hours", 4.5), .tapNext)
        #expect(session.outcome(.answer("day", "2024-05")).kind == .rejected)
        session.play(.answer("day", "2024-05-01"), .tapNext)
        #expect(session.outcome(.answer("moment", "2024-05-01")).kind == .rejected)
        session.play(.answer("moment", "2024-05-01T10:00:00Z"), .tapNext)
        #expect(session.outcome(.answer("wake", "25:00:00")).kind == .rejected)
        session.play(.answer("wake", "07:30:45"), .tapNext, .answer("site", "https://example.org"), .tapNext, .answer("note", "fine, thanks"), .tapNext)
        #expect(session.answer(for: "wake") == "07:30:45")
        session.play(.answer("ok", true), .tapNext, .answer("weight", 70.5), .tapNext)
        #expect(session.outcome(.answer("dose", ["value": 2, "unit": "mg"])) == .rejected("'dose' has no unit (no questionnaire-units): the respondent types only the number, not 'mg'"))
        session.play(.answer("dose", 2), .submit)
        #expect(session.responseItems == [
            ["linkId": "hours", "answer": [["valueQuantity": ["value": 4.5, "unit": "hours"]]]], ["linkId": "day", "answer": [["valueDate": "2024-05-01"]]],
            ["linkId": "moment", "answer": [["valueDateTime": "2024-05-01T10:00:00Z"]]], ["linkId": "wake", "answer": [["valueTime": "07:30:00"]]],
            ["linkId": "site", "answer": [["valueUri": "https://example.org"]]], ["linkId": "note", "answer": [["valueString": "fine, thanks"]]],
            ["linkId": "ok", "answer": [["valueBoolean": true]]], ["linkId": "weight", "answer": [["valueDecimal": 70.5]]],
            ["linkId": "dose", "answer": [["valueQuantity": ["value": 2]]]],
        ])
    }

    // MARK: the response

    // C3-PRO@e5790c52 ORKTaskResult+FHIR.swift:71-105 (one item per answered question result, wrapped), :83-90 (popLast), QuestionnaireItemPromise.swift:159-167
    // (linkIds nearest first), Questionnaire+C3-PRO.swift:132-157 (deduplicated), ORKTaskResult+FHIR.swift:50-56 (completed, a Reference)
    @Test("the response: unanswered omitted, items two groups deep wrapped in reverse order, merged by linkId, a question's children beside its answer, completed, a Reference, no authored")
    func response() throws {
        let session = try c3proSession(
            fhirItem("o", "group", items: [fhirItem("q1", "string"), fhirItem("i", "group", items: [fhirItem("q2", "string"), fhirItem("q3", "string")])]),
            fhirItem("p", "boolean", items: [fhirItem("pc", "string")]))
        session.play(.answer("q1", "a"), .tapNext, .answer("q2", "b"), .tapNext, .skip(question: nil), .answer("p", true), .tapNext, .answer("pc", "c"))
        let result = session.perform(.submit)
        #expect(result.events == [TraceEvent("submitted", detail: ["status": "completed"])])
        let expected: JSONValue = [
            "resourceType": "QuestionnaireResponse", "status": "completed", "questionnaire": ["reference": "test"],
            "item": [
                ["linkId": "o", "item": [["linkId": "q1", "answer": [["valueString": "a"]]]]],
                ["linkId": "i", "item": [["linkId": "o", "item": [["linkId": "q2", "answer": [["valueString": "b"]]]]]]],
                ["linkId": "p", "answer": [["valueBoolean": true]], "item": [["linkId": "pc", "answer": [["valueString": "c"]]]]],
            ],
        ]
        #expect(session.payload == expected)
        let findings = session.survey.makeStepChecker().check(session, after: .submit, result: result)
        #expect(findings.map(\.property) == ["c3pro-answer-and-item"])
        #expect(findings.allSatisfy { $0.kind == .hazard })
    }

    // ResearchKit@44c88877 ResearchKit/Common/ORKQuestionStepViewController.m:496-501 (a multiple choice's missing or null answer reads as an empty
    // selection), :417-446 (so its result holds a choice result), ORKResult.m:1502-1512; C3-PRO@e5790c52 ORKTaskResult+FHIR.swift:77-91, 176-195
    // (a response item with no answers); smart-on-fhir/Swift-FHIR@3.1.1 Sources/Models/FHIRPrimitive.swift:68-74 (an empty list is written)
    @Test("a skipped multiple choice is submitted as an item with an empty answer list, wrapped like any answer; a skipped single choice gives none")
    func skippedMultipleChoice() throws {
        let session = try c3proSession(
            fhirItem("g", "group", items: [fhirItem("many", "choice", #"\#(colorOptions), "repeats": true"#), fhirItem("one", "choice", colorOptions)]),
            fhirItem("t", "boolean", #""required": true"#, enableWhen: [stu3Condition("many", #""answerCoding": {"system": "http://example.org/s", "code": "red"}"#)]),
            fhirItem("end", "display", #""text": "Bye""#))
        session.play(.skip(question: nil), .skip(question: nil))
        #expect(session.currentQuestion == "end" && session.answer(for: "many") == nil)
        let result = session.perform(.submit)
        #expect(session.responseItems == [["linkId": "g", "item": [["linkId": "many", "answer": []]]]])
        let findings = session.survey.makeStepChecker().check(session, after: .submit, result: result)
        #expect(findings.map(\.property) == ["c3pro-empty-answer"])
        // Import reads the empty answer list as no answer (the importer then passes the step by Skip).
        let submitted = CanonicalJSON.compact(try #require(session.payload))
        #expect(try session.survey.answers(inPayload: JSONCursor(node: JSONParser.parse(SourceFile(path: "r.json", text: submitted)))).isEmpty)
        // With one result a visit (ResearchKit 1.5), a skipped first entry is the one submitted, even after the choice is made on a later one.
        let items = [
            fhirItem("x", "boolean", #""required": true"#),
            fhirItem("many", "choice", #"\#(colorOptions), "repeats": true"#, enableWhen: [stu3Condition("c", #""answerBoolean": true"#)]),
            fhirItem("c", "boolean", #""required": true"#), fhirItem("end", "display", #""text": "Bye""#),
        ]
        for (options, submitted) in [([String: String](), [] as JSONValue), (["researchkit": "2.1+"], [["valueCoding": ["system": "http://example.org/s", "code": "red"]]])] {
            let revisited = try c3proSession(text: c3proText(items), options: options)
            revisited.play(.answer("x", true), .tapNext, .skip(question: nil), .answer("c", false), .back)
            #expect(revisited.visibleQuestions == ["x", "many", "x"], "\(options)")
            revisited.play(.tapNext, .answer("many", [coding("red")]), .tapNext, .answer("c", true), .tapNext)
            let done = revisited.perform(.submit)
            #expect(revisited.responseItems?.arrayValue?[1] == ["linkId": "many", "answer": submitted], "\(options)")
            let hazards = Set(revisited.survey.makeStepChecker().check(revisited, after: .submit, result: done).map(\.property))
            #expect(hazards == (options.isEmpty ? ["c3pro-empty-answer", "c3pro-first-visit-wins"] : []), "\(options)")
        }
    }

    // C3-PRO@e5790c52 QuestionnaireItemPromise.swift:357-361 (a concept without system gets the default one), ORKTaskResult+FHIR.swift:186-191
    // (String.split drops empty pieces: the system is the first, the code the rest joined by one space)
    @Test("a choice is written from its \"system code\" value: a ValueSet without system gives C3-PRO's default, and runs of spaces in a code become one")
    func choiceValueSplit() throws {
        let valueSet = #"{"resourceType": "ValueSet", "id": "odd", "compose": {"include": [{"concept": [{"code": "two  words"}, {"code": "plain"}]}]}}"#
        let text = questionnaireText([fhirItem("c", "choice", ##""options": {"reference": "#odd"}, "repeats": true"##)], extra: #""id": "test", "status": "draft", "contained": [\#(valueSet)]"#)
        let session = try c3proSession(text: text)
        session.play(.answer("c", [["code": "two  words"], ["code": "plain"]]), .submit)
        let system = JSONValue.string(FHIRC3PROTask.defaultSystem)
        #expect(session.responseItems == [["linkId": "c", "answer": [["valueCoding": ["system": system, "code": "two words"]], ["valueCoding": ["system": system, "code": "plain"]]]]])
    }

    // C3-PRO@e5790c52 Questionnaire+C3-PRO.swift:132-157 (the first item kept with its answers; later ones give their nested items)
    @Test("deduplicateItemsByLinkId keeps the first item of a linkId with its answers and appends the later ones' nested items")
    func deduplication() throws {
        let session = try c3proSession(fhirItem("g", "group", items: [fhirItem("a", "string"), fhirItem("b", "string")]))
        // The task result of a path a, b, a, each entry with its own visit's answer.
        let results: [(step: Int, answers: [FHIR.Value])] = [(0, [FHIR.Value(.string, "first")]), (1, [FHIR.Value(.string, "b")]), (0, [FHIR.Value(.string, "second")])]
        let response = FHIRC3PROResponse.response(of: session.task, survey: session.survey, results: results)
        #expect(response.objectValue?["item"] == [["linkId": "g", "item": [["linkId": "a", "answer": [["valueString": "first"]]], ["linkId": "b", "answer": [["valueString": "b"]]]]]])
    }

    // C3-PRO@e5790c52 QuestionnairePromise.swift:80, ORKTaskResult+FHIR.swift:50-54
    @Test("the response's questionnaire is the task identifier: the id, else the first identifier's value, else questionnaire-task, never the url")
    func taskIdentifier() throws {
        let byIdentifier = try loadQuestionnaire(
            questionnaireText([fhirItem("a", "boolean")], extra: #""status": "draft", "url": "http://example.org/q", "identifier": [{"value": "sleep-1"}, {"value": "x"}]"#))
        #expect(byIdentifier.taskIdentifier == "sleep-1")
        let byURL = try loadQuestionnaire(questionnaireText([fhirItem("a", "boolean")], extra: #""status": "draft", "url": "http://example.org/q""#))
        #expect(byURL.taskIdentifier == "questionnaire-task")
        // Only the first identifier is read: without a value, a later one's value is not taken.
        let firstWithoutValue = try loadQuestionnaire(
            questionnaireText([fhirItem("a", "boolean")], extra: #""status": "draft", "identifier": [{"system": "http://example.org"}, {"value": "later"}]"#))
        #expect(firstWithoutValue.taskIdentifier == "questionnaire-task")
        let session = try c3proSession(fhirItem("a", "boolean"))
        session.play(.answer("a", true), .submit)
        #expect(session.payload?.objectValue?["questionnaire"] == ["reference": "test"])
    }
}
