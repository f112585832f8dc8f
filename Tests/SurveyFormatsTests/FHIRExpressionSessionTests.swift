import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// A calculatedExpression extension.
func calculated(_ expression: String) -> String { sdcExtension("sdc-questionnaire-calculatedExpression", expression) }

/// `%resource.item.where(linkId='id').answer.value`, as forms read an answer.
func answerOf(_ id: String) -> String { "%resource.item.where(linkId='\(id)').answer.value" }

extension FHIRSession {
    /// Plays the actions; the expressions evaluated, the responses built for them, and the results worked out
    /// rather than found kept with a response, meanwhile.
    func work(_ actions: Action...) -> (evaluations: Int, responses: Int, computed: Int) { work(actions) }

    func work(_ actions: [Action]) -> (evaluations: Int, responses: Int, computed: Int) {
        let before = state.expressions
        play(actions)
        let after = state.expressions
        return (after.evaluations - before.evaluations, after.responsesBuilt - before.responsesBuilt, after.resultsComputed - before.resultsComputed)
    }
}

/// A session of a Questionnaire with these items and root members (extensions), under an engine.
func sdcSession(_ items: [String], root: String = "", engine: FHIREngine = .lhcForms, launchContext: [String: JSONValue] = [:]) throws -> FHIRSession {
    let extra = #""status": "active""# + (root.isEmpty ? "" : ", " + root)
    let survey = try loadQuestionnaire(questionnaireText(items, extra: extra))
    let settings = SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: engine.rawValue], launchContext: launchContext)
    return try #require(survey.makeSession(settings) as? FHIRSession)
}

@Suite("FHIR SDC expressions in a session")
struct FHIRExpressionSessionTests {
    static let chain = [
        fhirItem("a", "integer"), fhirItem("b", "integer"),
        fhirItem("total", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("subtotal")) * 10"))),
        fhirItem("subtotal", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("a")) + \(answerOf("b"))"))),
    ]

    @Test("LHC-Forms recomputes calculated values in dependency order after each change, a value read by a later one first; the trace shows them")
    func dependencyOrder() throws {
        let session = try sdcSession(Self.chain)
        session.play(.answer("a", 1))
        let result = session.perform(.answer("b", 2))
        #expect(session.answer(for: "subtotal") == 3)
        #expect(session.answer(for: "total") == 30)
        #expect(result.events.first { $0.name == "computed" }?.detail == ["subtotal": 3, "total": 30])
        #expect(session.perform(.answer("subtotal", 9)).outcome.kind == .rejected)
    }

    @Test("android-fhir computes every affected calculated value from the response before writing any: a value from another calculated value lags one change")
    func androidLags() throws {
        let session = try sdcSession(Self.chain, engine: .androidFHIR)
        session.play(.answer("a", 1), .answer("b", 2))
        #expect(session.answer(for: "subtotal") == 3)
        // total was computed from the subtotal before this change: none yet.
        #expect(session.answer(for: "total") == nil)
        session.play(.answer("a", 2))
        #expect(session.answer(for: "subtotal") == 4)
        #expect(session.answer(for: "total") == 30)
    }

    @Test("a pass evaluates only the expressions reading what changed (counted)")
    func onlyAffected() throws {
        let session = try sdcSession([
            fhirItem("a", "integer"), fhirItem("b", "integer"),
            fhirItem("da", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("a")) * 2"))),
            fhirItem("db", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("b")) * 2"))),
        ])
        let start = session.state.expressions.evaluations
        session.play(.answer("a", 4))
        #expect(session.answer(for: "da") == 8)
        // da once, as a changed; db never (its new value is read by nothing, so nothing more runs).
        #expect(session.state.expressions.evaluations - start == 1)
        // A variable is kept until what it reads changes: the total evaluates again with one variable.
        let sum = try sdcSession([
            fhirItem("a", "integer"), fhirItem("b", "integer"),
            fhirItem("total", "integer", #""readOnly": true, "# + extensions(
                sdcExtension("variable", answerOf("a"), name: "va"), sdcExtension("variable", answerOf("b"), name: "vb"), calculated("%va + %vb"))),
        ])
        sum.play(.answer("a", 1))
        let work = sum.work(.answer("b", 2))
        #expect(sum.answer(for: "total") == 3)
        #expect(work.evaluations == 2)
        #expect(work.responses == 1)
    }

    @Test("LHC-Forms: a pass that could evaluate nothing is left out, and a change that an expression reads still runs one (counted)")
    func idlePassesLeftOut() throws {
        let items = [
            fhirItem("a", "integer"), fhirItem("note", "string"),
            fhirItem("double", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("a")) * 2"))),
        ]
        let session = try sdcSession(items)
        // The note is read by no expression: its change leaves the pass out.
        var idle = session.idlePasses
        var work = session.work(.answer("note", "x"))
        #expect(session.idlePasses - idle == 1)
        #expect(work.evaluations == 0)
        // What a left-out pass would not have read is not kept for the next one: the list stays short.
        session.play(.answer("note", "y"), .answer("note", "z"))
        #expect(session.state.expressions.changedSince.isEmpty)
        // a is read: its pass evaluates the double, and the pass that follows the double's new value (read by
        // nothing) is left out.
        idle = session.idlePasses
        work = session.work(.answer("a", 4))
        #expect(session.answer(for: "double") == 8)
        #expect(work.evaluations == 1)
        #expect(session.idlePasses - idle == 1)
        // Under android-fhir every pass runs (it evaluates its enableWhenExpressions and options each time).
        let android = try sdcSession(items, engine: .androidFHIR)
        android.play(.answer("note", "x"), .answer("a", 4))
        #expect(android.idlePasses == 0)
        #expect(android.answer(for: "double") == 8)
        // An expression reading every answer (no linkId named) makes a pass after any change run.
        let everyAnswer = try sdcSession([
            fhirItem("a", "integer"), fhirItem("note", "string"),
            fhirItem("count", "integer", #""readOnly": true, "# + extensions(calculated("%resource.item.answer.count()"))),
        ])
        idle = everyAnswer.idlePasses
        work = everyAnswer.work(.answer("note", "x"))
        #expect(work.evaluations >= 1)
        // The count's own new value is an answer it reads, so the pass after it runs too.
        #expect(everyAnswer.idlePasses == idle)
    }

    @Test("a pass compares only the instances changed since the pass before, not every answer of the form (counted), and finds the same changes")
    func changesFoundWithoutComparingAll() throws {
        let questions = (0..<200).map { fhirItem("q\($0)", "integer") }
        let items = questions + [fhirItem("sum", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("q0")) + \(answerOf("q199"))")))]
        for engine in [FHIREngine.lhcForms, .androidFHIR] {
            let session = try sdcSession(items, engine: engine)
            session.play(.answer("q0", 1))
            let before = session.state.expressions.instancesCompared
            session.play(.answer("q199", 2))
            #expect(session.answer(for: "sum") == 3, "\(engine)")
            // The answer, then the sum the pass wrote: a couple of instances, not the form's 201.
            let compared = session.state.expressions.instancesCompared - before
            #expect(compared >= 1 && compared <= 4, "\(engine): \(compared) instances compared")
            // A change back is found as well, and what it reads is evaluated again.
            session.play(.answer("q199", 5), .answer("q0", 7))
            #expect(session.answer(for: "sum") == 12, "\(engine)")
        }
    }

    @Test("sessions of one survey share the responses expressions read: a response written again from the same answers is not built again (counted)")
    func responsesShared() throws {
        let items = [
            fhirItem("a", "integer"), fhirItem("b", "integer"),
            fhirItem("double", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("a")) * 2"))),
        ]
        let survey = try loadQuestionnaire(questionnaireText(items, extra: #""status": "active""#))
        // The responses a session built since it started (it starts from the form's opening, built once).
        func built(_ actions: Action..., today: CalendarDate = testToday) throws -> (FHIRSession, Int) {
            let settings = SessionSettings(today: today)
            let session = try #require(survey.makeSession(settings) as? FHIRSession)
            return (session, session.work(actions).responses)
        }
        let (first, firstBuilt) = try built(.answer("a", 4), .answer("b", 1))
        #expect(first.answer(for: "double") == 8)
        #expect(firstBuilt == 1)
        // The same answer: the response is found, and the value is the same.
        let (second, secondBuilt) = try built(.answer("a", 4))
        #expect(second.answer(for: "double") == 8)
        #expect(secondBuilt == 0)
        // Another answer, or other settings, write another response.
        #expect(try built(.answer("a", 5)).1 == 1)
        #expect(try built(.answer("a", 4), today: CalendarDate(year: 2031, month: 1, day: 1)).1 == 1)
    }

    @Test("the response is built for the expressions that read it, not for those that read only variables (counted)")
    func responseOnlyForReaders() throws {
        let session = try sdcSession(
            [
                fhirItem("a", "integer"), fhirItem("b", "integer"),
                fhirItem("total", "integer", #""readOnly": true, "# + extensions(calculated("%va + %vb"))),
                fhirItem("double", "integer", #""readOnly": true, "# + extensions(calculated("%vb * 2"))),
            ],
            root: extensions(sdcExtension("variable", answerOf("a"), name: "va"), sdcExtension("variable", answerOf("b"), name: "vb")))
        session.play(.answer("a", 1))
        let work = session.work(.answer("b", 2))
        #expect(session.answer(for: "total") == 3)
        #expect(session.answer(for: "double") == 4)
        // %vb, the total and the double are evaluated; only %vb reads the response. Storing the total makes
        // the response out of date, and the double, reading only %vb, does not need it built again.
        #expect(work.evaluations == 3)
        #expect(work.responses == 1)
    }

    @Test("an enableWhenExpression enables and disables its item: LHC-Forms with its enableWhen, android-fhir alone")
    func enableWhenExpression() throws {
        let items = [
            fhirItem("age", "integer"), fhirItem("gate", "boolean"),
            fhirItem("adult", "string", extensions(sdcExtension("sdc-questionnaire-enableWhenExpression", "\(answerOf("age")) >= 18")), enableWhen: [condition("gate", "=", #""answerBoolean": true"#)]),
        ]
        let lhc = try sdcSession(items)
        lhc.play(.answer("age", 30))
        #expect(!lhc.isVisible("adult"))
        lhc.play(.answer("gate", true))
        #expect(lhc.isVisible("adult"))
        lhc.play(.answer("age", 10))
        #expect(!lhc.isVisible("adult"))
        let android = try sdcSession(items, engine: .androidFHIR)
        android.play(.answer("age", 30))
        #expect(android.isVisible("adult"))
    }

    @Test("an action is undone when an expression breaks the form; the state is kept for that only where one can: LHC-Forms' enableWhenExpression, android-fhir's every expression but a variable")
    func undoWhereExpressionsThrow() throws {
        // `+` on two answers fails: LHC-Forms reads the failed enableWhenExpression and throws a TypeError.
        let failing = [
            fhirItem("a", "integer", #""repeats": true"#),
            fhirItem("b", "string", extensions(sdcExtension("sdc-questionnaire-enableWhenExpression", "(\(answerOf("a")) + 1) > 2"))),
        ]
        let session = try sdcSession(failing)
        session.play(.answer("a", [5]))
        #expect(session.isVisible("b"))
        let outcome = session.perform(.answer("a", [1, 2])).outcome
        #expect(outcome.kind == .rejected && outcome.message?.contains("TypeError") == true)
        #expect(session.answer(for: "a") == [5] && session.isVisible("b"))
        func mayThrow(_ items: [String], _ engine: FHIREngine) throws -> Bool {
            let survey = try loadQuestionnaire(questionnaireText(items, extra: #""status": "active""#))
            return FHIRProfile.standard(SessionSettings(options: [FHIRSurvey.engineOption: engine.rawValue])).mayThrow(survey)
        }
        let variableOnly = [fhirItem("n", "integer", extensions(sdcExtension("variable", answerOf("n"), name: "v")))]
        #expect(try mayThrow(failing, .lhcForms) && mayThrow(failing, .androidFHIR))
        #expect(try !mayThrow(Self.chain, .lhcForms) && mayThrow(Self.chain, .androidFHIR))
        #expect(try !mayThrow(variableOnly, .lhcForms) && !mayThrow(variableOnly, .androidFHIR))
    }

    @Test("truthiness of an enableWhenExpression's result: LHC-Forms its first item, android-fhir HAPI's convertToBoolean")
    func truthiness() throws {
        for (expression, lhc, android) in [("0", false, true), ("'x'", true, true), ("false | true", false, true), ("{}", false, false), ("true", true, true)] {
            let items = [fhirItem("x", "string", extensions(sdcExtension("sdc-questionnaire-enableWhenExpression", expression)))]
            #expect(try sdcSession(items).isVisible("x") == lhc, "\(expression)")
            #expect(try sdcSession(items, engine: .androidFHIR).isVisible("x") == android, "\(expression)")
        }
    }

    @Test("a calculated item that is not read-only takes answers: LHC-Forms stops calculating once the value differs from the last calculated one, android-fhir at any edit")
    func overridden() throws {
        let items = [fhirItem("a", "integer"), fhirItem("double", "integer", extensions(calculated("\(answerOf("a")) * 2")))]
        let session = try sdcSession(items)
        session.play(.answer("a", 2))
        #expect(session.answer(for: "double") == 4)
        session.play(.answer("double", 4), .answer("a", 3))
        #expect(session.answer(for: "double") == 6)
        session.play(.answer("double", 7), .answer("a", 5))
        #expect(session.answer(for: "double") == 7)
    }

    @Test("variables follow SDC's scoping: an item's variable is read by its descendants; a variable of android-fhir keeps its first item")
    func variables() throws {
        let items = [
            fhirItem("n", "integer", #""repeats": true"#),
            fhirItem("g", "group", extensions(sdcExtension("variable", answerOf("n"), name: "ns")), items: [
                fhirItem("count", "integer", #""readOnly": true, "# + extensions(calculated("%ns.count()"))),
            ]),
        ]
        let lhc = try sdcSession(items)
        lhc.play(.answer("n", [1, 2, 3]))
        #expect(lhc.answer(for: "count") == 3)
        let android = try sdcSession(items, engine: .androidFHIR)
        android.play(.answer("n", [1, 2, 3]))
        #expect(android.answer(for: "count") == 1)
    }

    @Test("LHC-Forms: a variable of a repeating group has a value for each instance, found again by each as instances come and go")
    func variablesOfInstances() throws {
        let items = [
            fhirItem("visit", "group", #""repeats": true, "# + extensions(sdcExtension("variable", "%context.item.where(linkId='n').answer.value", name: "v")), items: [
                fhirItem("n", "integer"),
                fhirItem("double", "integer", #""readOnly": true, "# + extensions(calculated("%v * 2"))),
            ]),
        ]
        let session = try sdcSession(items)
        func doubles() -> [JSONValue?] { ["visit#1/double", "visit#2/double", "visit#3/double"].map { session.answer(for: $0) } }
        session.play(.answer("visit#1/n", 1))
        #expect(doubles() == [2, nil, nil])
        session.play(.add(group: "visit"), .answer("visit#2/n", 5))
        #expect(doubles() == [2, 10, nil])
        session.play(.answer("visit#1/n", 3))
        #expect(doubles() == [6, 10, nil])
        // The second visit becomes the first: its value goes with it.
        session.play(.remove(instance: "visit#1"))
        #expect(doubles() == [10, nil, nil])
        session.play(.answer("visit#1/n", 7), .add(group: "visit"), .answer("visit#2/n", 4), .add(group: "visit"), .answer("visit#3/n", 0))
        #expect(doubles() == [14, 8, 0])
        session.play(.answer("visit#2/n", 6))
        #expect(doubles() == [14, 12, 0])
    }

    @Test("a %name nothing defines: LHC-Forms' fhirpath.js throws (here in an enableWhenExpression: the form breaks as it opens), android-fhir reads it empty")
    func undefinedVariable() throws {
        let items = [fhirItem("x", "string", extensions(sdcExtension("sdc-questionnaire-enableWhenExpression", "%missing.exists().not()")))]
        let lhc = try sdcSession(items)
        #expect(lhc.openingFailure?.contains("TypeError") == true)
        #expect(lhc.openingFailure?.contains("%missing is not defined") == true)
        #expect(try sdcSession(items, engine: .androidFHIR).isVisible("x"))
    }

    @Test("initialExpression with a launch context: LHC-Forms evaluates it with every variable as the form opens; android-fhir's population sees the launch contexts only")
    func initialFromPatient() throws {
        let root = extensions(launchContext("patient", "Patient"), sdcExtension("variable", "%patient.name.first().family", name: "family"))
        let items = [
            fhirItem("family", "string", extensions(sdcExtension("sdc-questionnaire-initialExpression", "%family"))),
            fhirItem("gender", "string", extensions(sdcExtension("sdc-questionnaire-initialExpression", "%patient.gender"))),
        ]
        let patient: JSONValue = ["resourceType": "Patient", "gender": "female", "name": [["family": "Ng"]]]
        let lhc = try sdcSession(items, root: root, launchContext: ["patient": patient])
        #expect(lhc.answer(for: "family") == "Ng")
        #expect(lhc.answer(for: "gender") == "female")
        #expect(lhc.startEvents.first?.name == "computed")
        let android = try sdcSession(items, root: root, engine: .androidFHIR, launchContext: ["patient": patient])
        #expect(android.answer(for: "family") == nil)
        #expect(android.answer(for: "gender") == "female")
        // A resource of another type than the launch context names is not bound by LHC-Forms.
        let wrong = try sdcSession(items, root: root, launchContext: ["patient": ["resourceType": "Practitioner", "gender": "male"]])
        #expect(wrong.openingFailure == nil && wrong.answer(for: "gender") == nil)
    }

    @Test("android-fhir refuses two calculated items naming each other as the form opens; LHC-Forms recomputes until its bound and reports no fixpoint")
    func cycles() throws {
        let items = [
            fhirItem("a", "integer", extensions(calculated("iif(\(answerOf("b")).exists(), \(answerOf("b")) + 1, 1)"))),
            fhirItem("b", "integer", extensions(calculated("\(answerOf("a")) + 1"))),
        ]
        #expect(try sdcSession(items, engine: .androidFHIR).openingFailure?.contains("cyclic dependency") == true)
        let lhc = try sdcSession(items)
        #expect(!lhc.settled)
    }

    @Test("answerExpression computes the options: answers outside them are refused, and LHC-Forms drops an answer the new list lacks")
    func answerExpression() throws {
        let items = [
            fhirItem("kind", "choice", #""answerOption": [{"valueString": "fruit"}, {"valueString": "veg"}]"#),
            fhirItem("pick", "choice", extensions(sdcExtension("sdc-questionnaire-answerExpression", "iif(\(answerOf("kind")) = 'fruit', 'apple' | 'pear', 'leek')"))),
        ]
        let session = try sdcSession(items)
        session.play(.answer("kind", "fruit"), .answer("pick", "pear"))
        #expect(session.perform(.answer("pick", "leek")).outcome.kind == .rejected)
        session.play(.answer("kind", "veg"))
        #expect(session.answer(for: "pick") == nil)
        session.play(.answer("pick", "leek"))
    }

    @Test("answerOptionsToggleExpression: android-fhir offers the listed options only while it is true; LHC-Forms ignores it")
    func toggles() throws {
        let toggle = #"{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-answerOptionsToggleExpression", "extension": [{"url": "option", "valueString": "b"}, {"url": "expression", "valueExpression": {"language": "text/fhirpath", "expression": "\#(answerOf("gate")) = true"}}]}"#
        let items = [fhirItem("gate", "boolean"), fhirItem("c", "choice", #""answerOption": [{"valueString": "a"}, {"valueString": "b"}], "# + extensions(toggle))]
        let android = try sdcSession(items, engine: .androidFHIR)
        #expect(android.perform(.answer("c", "b")).outcome.kind == .rejected)
        android.play(.answer("gate", true), .answer("c", "b"), .answer("gate", false))
        #expect(android.answer(for: "c") == nil)
        let lhc = try sdcSession(items)
        lhc.play(.answer("c", "b"))
    }

    @Test("an x-fhir-query reads no data (no server); a failing calculatedExpression leaves the value under LHC-Forms and breaks the form under android-fhir")
    func serverAndFailures() throws {
        let query = [fhirItem("x", "string", extensions(sdcExtension("variable", "Patient?_id=1", name: "p", language: "application/x-fhir-query"), calculated("%p.count().toString()")))]
        #expect(try sdcSession(query).answer(for: "x") == "0")
        // Two answers where toInteger() takes one: an execution error once both are given.
        let failing = [fhirItem("a", "string"), fhirItem("b", "string"), fhirItem("x", "integer", extensions(calculated("(\(answerOf("a")) | \(answerOf("b"))).toInteger() + 1")))]
        let lhc = try sdcSession(failing)
        lhc.play(.answer("a", "5"))
        #expect(lhc.answer(for: "x") == 6)
        lhc.play(.answer("b", "7"))
        #expect(lhc.answer(for: "x") == 6)
        let android = try sdcSession(failing, engine: .androidFHIR)
        android.play(.answer("a", "5"))
        #expect(android.perform(.answer("b", "7")).outcome.message?.contains("android-fhir throws here") == true)
    }

    @Test("weight() reads the options' itemWeight under LHC-Forms (fhirpath.js has it); android-fhir's HAPI has no weight(), so the form throws as it opens")
    func weights() throws {
        let options = #""answerOption": [{"valueString": "low", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 1}]}, {"valueString": "high", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 5}]}]"#
        let items = [fhirItem("q1", "choice", options), fhirItem("q2", "choice", options), fhirItem("score", "decimal", #""readOnly": true, "# + extensions(calculated("%resource.item.answer.weight().sum()")))]
        let lhc = try sdcSession(items)
        lhc.play(.answer("q1", "high"), .answer("q2", "low"))
        #expect(lhc.answer(for: "score") == 6)
        #expect(try sdcSession(items, engine: .androidFHIR).openingFailure?.contains("HAPI's FHIRPath engine for R4 has no function") == true)
    }

    @Test("LHC-Forms' response holds a Coding as system, code and display with the option's score as an extension; android-fhir's the option as written")
    func codingsInTheResponse() throws {
        let option = #""answerOption": [{"valueCoding": {"system": "http://example.org/s", "code": "a", "display": "A", "userSelected": true}, "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 3}]}]"#
        let read = "%resource.item.where(linkId='c').answer.value"
        let items = [fhirItem("c", "choice", option), fhirItem("shape", "string", #""readOnly": true, "# + extensions(calculated("\(read).extension.value.toString() + '/' + \(read).userSelected.exists().toString()")))]
        let lhc = try sdcSession(items)
        lhc.play(.answer("c", ["code": "a"]))
        #expect(lhc.answer(for: "shape") == "3/false")
        let android = try sdcSession(items, engine: .androidFHIR)
        android.play(.answer("c", ["code": "a"]))
        #expect(android.answer(for: "shape") == nil)
        let plain = [fhirItem("c", "choice", option), fhirItem("shape", "string", #""readOnly": true, "# + extensions(calculated("\(read).userSelected.toString()")))]
        let written = try sdcSession(plain, engine: .androidFHIR)
        written.play(.answer("c", ["code": "a"]))
        #expect(written.answer(for: "shape") == "true")
    }

    @Test("coverage: an enableWhenExpression is a decision whose true and false are taken as the expression turns")
    func coverage() throws {
        let survey = try loadQuestionnaire(questionnaireText([
            fhirItem("age", "integer"), fhirItem("adult", "string", extensions(sdcExtension("sdc-questionnaire-enableWhenExpression", "\(answerOf("age")) >= 18"))),
        ]))
        let plan = survey.coveragePlan()
        let decision = try #require(plan.decisions.firstIndex { $0.kind == "enableWhenExpression" })
        #expect(plan.decisions[decision].impossible.isEmpty)
        let recorder = CoverageRecorder(plan: plan)
        let session = survey.makeSession(SessionSettings(today: testToday), coverage: recorder)
        session.play(.answer("age", 30), .answer("age", 3))
        #expect(recorder.counts.decisions[decision][0] > 0 && recorder.counts.decisions[decision][1] > 0)
        // Walks try the expression's literal and its neighbours on the item it reads.
        let candidates = survey.candidateValues(for: "age", settings: SessionSettings(today: testToday))
        #expect([17, 18, 19].allSatisfy { candidates.contains(.number($0)) })
    }

    /// The team's consent form (Scenarios/fhir-sdc/consent.json): an iif in a Questionnaire variable, one in a
    /// calculatedExpression and two, one inside the other, in an enableWhenExpression.
    static func consentForm(renaming: (String) -> String = { $0 }) throws -> FHIRSurvey {
        let path = Corpus.packageRoot + "/Scenarios/fhir-sdc/consent.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try #require(try FormatRegistry.standard.load(SourceFile(path: path, text: renaming(text))) as? FHIRSurvey)
    }

    @Test("coverage: each iif of the expressions is a decision located at its `iif` inside the JSON string, escapes counted, with its criterion as the leaf")
    func iifPlan() throws {
        let plan = try Self.consentForm().coveragePlan()
        let iifs = plan.decisions.filter { $0.kind == "iif" }
        #expect(
            iifs.map { "\($0.question) \($0.location)" } == [
                "(questionnaire) 9:23 (/extension/0)", "band 19:26 (/item/2/extension/0)", "guardian 25:26 (/item/3/extension/0)",
                // After two \u0027 escapes: the column counts the file's characters, not the expression's.
                "guardian 25:92 (/item/3/extension/0)",
            ])
        #expect(iifs.allSatisfy { $0.impossible.isEmpty && $0.leafIndices.count == 1 })
        #expect(
            plan.leaves[iifs[2].leafIndices[0]].description
                == "enableWhenExpression of 'guardian': iif(%resource.item.where(linkId='age').answer.exists(), …)")
        #expect(plan.leaves[iifs[0].leafIndices[0]].description.hasPrefix("variable 'adultAge' of the Questionnaire: iif("))
    }

    @Test("coverage: an iif is taken true when the engine takes its true-result and false for its otherwise-result, an empty criterion false; one branch, then the other")
    func iifBranches() throws {
        let survey = try Self.consentForm()
        let plan = survey.coveragePlan()
        let iifs = plan.decisions.indices.filter { plan.decisions[$0].kind == "iif" }
        let recorder = CoverageRecorder(plan: plan)
        let session = survey.makeSession(SessionSettings(today: testToday), coverage: recorder)
        // Per iif (adultAge, band, guardian's outer, guardian's inner): its otherwise-result (F) and true-result
        // (T) taken so far.
        func taken() -> [String] { iifs.map { (recorder.counts.decisions[$0][0] > 0 ? "F" : "-") + (recorder.counts.decisions[$0][1] > 0 ? "T" : "-") } }
        // band's iif is evaluated once as the form opens and once after each change of what it reads.
        var band: [Int] { recorder.counts.decisions[iifs[1]] }
        // As the form opens there is no age: band's criterion `{} >= 18` is empty, so band gets the otherwise-
        // result, 'minor'; guardian's outer iif is false and the inner one, in its true-result, is not evaluated.
        #expect(taken() == ["F-", "F-", "F-", "--"] && band == [1, 0])
        session.play(.answer("age", 30))
        #expect(taken() == ["F-", "FT", "FT", "F-"] && band == [1, 1])
        session.play(.answer("age", 10))
        #expect(taken() == ["F-", "FT", "FT", "FT"] && band == [2, 1])
        session.play(.answer("country", "US"))
        #expect(taken() == ["FT", "FT", "FT", "FT"] && band == [3, 1])
        let report = CoverageReport(recorder)
        let iifBranches = report.branches.filter { $0.id.hasPrefix("decision:") && plan.decisions[Int($0.id.split(separator: ":")[1])!].kind == "iif" }
        #expect(iifBranches.count == 8 && iifBranches.allSatisfy(\.status.isTaken))
        #expect(report.totals == (possible: 31, taken: 28, impossible: 1))
        #expect((report.percent * 10).rounded() / 10 == 90.3)
    }

    @Test("coverage: both engines' readings lay out the same iif decisions, though android-fhir's FHIRPath cannot read a name with _ (then its iifs are impossible there)")
    func iifPlanAcrossReadings() throws {
        let survey = try Self.consentForm { $0.replacingOccurrences(of: "adultAge", with: "adult_age") }
        let android = try survey.reading(for: .androidFHIR).get()
        let (lhcPlan, androidPlan) = (survey.coveragePlan(), android.coveragePlan())
        #expect(lhcPlan.decisions.map(\.kind) == androidPlan.decisions.map(\.kind))
        #expect(lhcPlan.decisions.map(\.location) == androidPlan.decisions.map(\.location))
        #expect(lhcPlan.decisions.allSatisfy { $0.impossible.isEmpty })
        let band = try #require(androidPlan.decisions.first { $0.kind == "iif" && $0.question == "band" })
        #expect(band.impossible[true]?.contains("does not compile for android-fhir") == true)
        // A session under android-fhir reports into the plan the survey gives (here: it throws as the form opens).
        let recorder = CoverageRecorder(plan: lhcPlan)
        let session = survey.makeSession(SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: "android-fhir"]), coverage: recorder)
        #expect(session.perform(.answer(question: "age", value: 30)).outcome != .ok)
        #expect(recorder.counts.decisions.allSatisfy { $0 == [0, 0] })
    }
}
