import SurveyCore
import Testing

@testable import SurveyFormats

@Suite("FHIR sessions: enablement, repeats, answers and focus")
struct FHIRSessionTests {
    @Test("enableBehavior all needs every condition; any needs one")
    func enableBehavior() throws {
        let conditions = [condition("a", "=", #""answerBoolean": true"#), condition("b", "=", #""answerBoolean": true"#)]
        let session = try fhirSession(
            fhirItem("a", "boolean"), fhirItem("b", "boolean"),
            fhirItem("all", "string", enableWhen: conditions, behavior: "all"), fhirItem("any", "string", enableWhen: conditions, behavior: "any"))
        #expect(!session.isVisible("all") && !session.isVisible("any"))
        session.play(.answer("a", true))
        #expect(!session.isVisible("all") && session.isVisible("any"))
        session.play(.answer("b", true))
        #expect(session.isVisible("all") && session.isVisible("any"))
        session.play(.answer("a", false), .answer("b", false))
        #expect(!session.isVisible("all") && !session.isVisible("any"))
    }

    @Test("a disabled group disables its descendants whatever their own conditions say")
    func disabledAncestor() throws {
        let session = try fhirSession(
            fhirItem("gate", "boolean"),
            fhirItem("group", "group", enableWhen: [condition("gate", "=", #""answerBoolean": true"#)], items: [
                fhirItem("inner", "string", enableWhen: [condition("gate", "exists", #""answerBoolean": true"#)]), fhirItem("plain", "string"),
            ]))
        session.play(.answer("gate", false))
        #expect(session.visibleQuestions == ["gate"])
        #expect(session.perform(.answer("plain", "x")).outcome.message?.contains("disabled with 'group'") == true)
        session.play(.answer("gate", true))
        #expect(session.visibleQuestions == ["gate", "group", "inner", "plain"])
    }

    @Test("a cascade a → b → c: disabling a disables c because a disabled b counts as unanswered (android-fhir #1765)")
    func cascade() throws {
        let session = try fhirSession(
            fhirItem("a", "boolean"), fhirItem("b", "boolean", enableWhen: [condition("a", "=", #""answerBoolean": true"#)]),
            fhirItem("c", "string", enableWhen: [condition("b", "exists", #""answerBoolean": true"#)]))
        session.play(.answer("a", true), .answer("b", false), .answer("c", "x"))
        #expect(session.visibleQuestions == ["a", "b", "c"])
        session.play(.answer("a", false))
        #expect(session.visibleQuestions == ["a"])
        #expect(session.answer(for: "c") == "x")
        session.play(.answer("a", true))
        #expect(session.visibleQuestions == ["a", "b", "c"])
    }

    @Test("a forward reference settles in the same step: an earlier item enabled by a later answer")
    func forwardReference() throws {
        let session = try fhirSession(fhirItem("early", "string", enableWhen: [condition("late", "=", #""answerBoolean": true"#)]), fhirItem("late", "boolean"))
        #expect(session.visibleQuestions == ["late"])
        session.play(.answer("late", true))
        #expect(session.visibleQuestions == ["early", "late"])
    }

    @Test("a cycle without a fixpoint is reported as an event and leaves the last pass's enablement")
    func unsettledCycle() throws {
        // a shows while b is unanswered; b shows while a is answered: answering both makes them flip for ever.
        let session = try fhirSession(
            fhirItem("a", "string", enableWhen: [condition("b", "exists", #""answerBoolean": false"#)]),
            fhirItem("b", "string", enableWhen: [condition("a", "exists", #""answerBoolean": true"#)]))
        let result = session.perform(.answer("a", "x"))
        #expect(result.outcome == .ok)
        #expect(session.isVisible("b"))
        let second = session.perform(.answer("b", "y"))
        #expect(second.has(event: "enablement_unsettled"))
        #expect(!session.settled)
    }

    @Test("a cycle that settles is no problem: two items enabling each other stay disabled until one is answered")
    func settledCycle() throws {
        let session = try fhirSession(
            fhirItem("a", "string", enableWhen: [condition("b", "exists", #""answerBoolean": true"#)]),
            fhirItem("b", "string", enableWhen: [condition("a", "exists", #""answerBoolean": true"#)]))
        #expect(session.visibleQuestions.isEmpty)
        #expect(session.settled)
    }

    @Test("inside a repeating group, a condition reads its own instance's source: the preceding axis finds the sibling")
    func repeatResolutionOwnInstance() throws {
        let session = try fhirSession(
            fhirItem("visit", "group", #""repeats": true"#, items: [
                fhirItem("kind", "boolean"), fhirItem("detail", "string", enableWhen: [condition("kind", "=", #""answerBoolean": true"#)]),
            ]))
        session.play(.answer("visit#1/kind", true), .add(group: "visit"), .answer("visit#2/kind", false))
        #expect(session.isVisible("visit#1/detail"))
        #expect(!session.isVisible("visit#2/detail"))
    }

    @Test("the ancestor axis comes first: an item under a question reads that question, not a nearer instance")
    func repeatResolutionAncestor() throws {
        let session = try fhirSession(
            fhirItem("med", "group", #""repeats": true"#, items: [
                fhirItem("taking", "boolean", items: [fhirItem("dose", "string", enableWhen: [condition("taking", "=", #""answerBoolean": true"#)])])
            ]))
        session.play(.answer("med#1/taking", true), .add(group: "med"), .answer("med#2/taking", false))
        #expect(session.isVisible("med#1/dose"))
        #expect(!session.isVisible("med#2/dose"))
    }

    @Test("a source after the dependent in a repeating group: from the second instance on, the previous instance's copy is read")
    func repeatResolutionPrecedingPitfall() throws {
        let session = try fhirSession(
            fhirItem("visit", "group", #""repeats": true"#, items: [
                fhirItem("detail", "string", enableWhen: [condition("kind", "=", #""answerBoolean": true"#)]), fhirItem("kind", "boolean"),
            ]))
        session.play(.answer("visit#1/kind", true), .add(group: "visit"))
        // visit#1/detail has no preceding kind, so it reads the following one (its own); visit#2/detail reads visit#1/kind.
        #expect(session.isVisible("visit#1/detail"))
        #expect(session.isVisible("visit#2/detail"))
        session.play(.answer("visit#2/kind", false))
        #expect(session.isVisible("visit#2/detail"))
    }

    @Test("a condition outside a repeating group reads the last instance before it")
    func repeatResolutionFromOutside() throws {
        let session = try fhirSession(
            fhirItem("visit", "group", #""repeats": true"#, items: [fhirItem("kind", "boolean")]),
            fhirItem("after", "string", enableWhen: [condition("kind", "=", #""answerBoolean": true"#)]))
        session.play(.answer("visit#1/kind", true))
        #expect(session.isVisible("after"))
        session.play(.add(group: "visit"))
        #expect(!session.isVisible("after"))
        session.play(.answer("visit#2/kind", true))
        #expect(session.isVisible("after"))
    }

    @Test("initial values and initialSelected options start as answers; a new group instance gets its own")
    func initialValues() throws {
        let session = try fhirSession(
            fhirItem("flag", "boolean", #""initial": [{"valueBoolean": true}]"#),
            fhirItem("pick", "choice", #""answerOption": [{"valueString": "x"}, {"valueString": "y", "initialSelected": true}]"#),
            fhirItem("group", "group", #""repeats": true"#, items: [fhirItem("n", "integer", #""initial": [{"valueInteger": 3}]"#)]))
        #expect(session.answer(for: "flag") == true)
        #expect(session.answer(for: "pick") == "y")
        session.play(.answer("group#1/n", 4), .add(group: "group"))
        #expect(session.answer(for: "group#1/n") == 4)
        #expect(session.answer(for: "group#2/n") == 3)
    }

    @Test("removing an instance renumbers the later ones with their answers; the last one cannot be removed")
    func removeRenumbers() throws {
        let session = try fhirSession(fhirItem("g", "group", #""repeats": true"#, items: [fhirItem("n", "integer")]))
        session.play(.answer("g#1/n", 1), .add(group: "g"), .answer("g#2/n", 2), .add(group: "g"), .answer("g#3/n", 3))
        session.play(.remove(instance: "g#2"))
        #expect(session.answer(for: "g#2/n") == 3)
        #expect(session.answer(for: "g#3/n") == nil)
        session.play(.remove(instance: "g#1"))
        #expect(session.perform(.remove(instance: "g#1")).outcome.kind == .rejected)
        #expect(session.answer(for: "g#1/n") == 3)
    }

    @Test("maxOccurs limits instances and answers; minValue, maxValue and maxLength refuse values on input")
    func limits() throws {
        let session = try fhirSession(
            fhirItem("g", "group", #""repeats": true, "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 2}]"#, items: [fhirItem("x", "string")]),
            fhirItem("tags", "string", #""repeats": true, "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 2}]"#),
            fhirItem("n", "integer", #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueInteger": 1}, {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueInteger": 9}]"#),
            fhirItem("s", "string", #""maxLength": 3"#))
        session.play(.add(group: "g"))
        #expect(session.perform(.add(group: "g")).outcome.kind == .rejected)
        #expect(session.perform(.answer("tags", ["a", "b", "c"])).outcome.kind == .rejected)
        #expect(session.perform(.answer("n", 0)).outcome.kind == .validationFailed)
        #expect(session.perform(.answer("n", 10)).outcome.kind == .validationFailed)
        #expect(session.perform(.answer("n", 9)).outcome == .ok)
        #expect(session.perform(.answer("s", "abcd")).outcome.kind == .rejected)
        #expect(session.perform(.answer("s", "abc")).outcome == .ok)
    }

    @Test("read-only, hidden, display and group items refuse answers; a hidden item is not visible")
    func refusals() throws {
        let session = try fhirSession(
            fhirItem("ro", "string", #""readOnly": true"#), fhirItem("hid", "string", #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#),
            fhirItem("note", "display"), fhirItem("g", "group", items: [fhirItem("x", "string")]))
        #expect(session.visibleQuestions == ["ro", "note", "g", "x"])
        for id in ["ro", "hid", "note", "g"] { #expect(session.perform(.answer(id, "v")).outcome.kind == .rejected, "\(id)") }
        #expect(session.perform(.answer("nope", "v")).outcome.kind == .doesNotFit)
    }

    @Test("items under a question exist once per answer and follow their answer when the list changes")
    func itemsUnderAnswers() throws {
        let session = try fhirSession(fhirItem("sym", "choice", #""repeats": true, "answerOption": [{"valueString": "fever"}, {"valueString": "rash"}]"#, items: [fhirItem("days", "integer")]))
        #expect(session.visibleQuestions == ["sym"])
        session.play(.answer("sym", ["fever", "rash"]), .answer("sym#1/days", 2), .answer("sym#2/days", 5))
        session.play(.answer("sym", ["rash", "fever"]))
        #expect(session.answer(for: "sym#1/days") == 5)
        #expect(session.answer(for: "sym#2/days") == 2)
        session.play(.answer("sym", ["fever"]))
        #expect(session.answer(for: "sym#1/days") == 2)
        #expect(session.visibleQuestions == ["sym", "sym#1/days"])
    }

    @Test("the focus: answering moves it, next and back skip disabled items, and it moves on when its item is disabled")
    func focus() throws {
        let session = try fhirSession(
            fhirItem("a", "boolean"), fhirItem("b", "string", enableWhen: [condition("a", "=", #""answerBoolean": true"#)]), fhirItem("c", "string"))
        #expect(session.currentQuestion == "a")
        session.play(.next(question: nil))
        #expect(session.currentQuestion == "c")
        session.play(.back, .answer("a", true), .next(question: nil))
        #expect(session.currentQuestion == "b")
        session.play(.answer("a", false))
        #expect(session.currentQuestion == "a")
        session.play(.goto(question: "c"), .next(question: nil))
        #expect(session.currentQuestion == nil)
        session.play(.back)
        #expect(session.currentQuestion == "c")
    }

    @Test("answers are interpreted by the item type: Codings match options by code, lists only for repeating items")
    func answerShapes() throws {
        let session = try fhirSession(
            fhirItem("c", "choice", codingOptions(["a", "b"])), fhirItem("o", "open-choice", codingOptions(["a"])), fhirItem("d", "date"),
            fhirItem("t", "time"), fhirItem("q", "quantity"))
        session.play(.answer("c", ["code": "b"]))
        #expect(session.answer(for: "c") == ["system": "http://example.org/s", "code": "b", "display": "B"])
        #expect(session.perform(.answer("c", "b")).outcome.kind == .rejected)
        #expect(session.perform(.answer("c", [coding("a")])).outcome.kind == .rejected)
        session.play(.answer("o", "free text"))
        #expect(session.answer(for: "o") == "free text")
        #expect(session.perform(.answer("d", "2024-13-01")).outcome.kind == .rejected)
        session.play(.answer("d", "2024"), .answer("t", "23:59:59"))
        #expect(session.perform(.answer("q", 5)).outcome.kind == .rejected)
    }

    @Test("actions of other formats do not fit, and everything is refused after submit")
    func otherVerbs() throws {
        let session = try fhirSession(fhirItem("a", "string"))
        #expect(session.perform(.skip(question: nil)).outcome.kind == .doesNotFit)
        #expect(session.perform(.hostCondition(key: "k", outcome: true)).outcome.kind == .doesNotFit)
        #expect(session.perform(.app(.launch)).outcome.kind == .doesNotFit)
        session.play(.submit)
        #expect(session.perform(.answer("a", "x")).outcome.kind == .rejected)
        #expect(!session.isSubmittable)
    }

    @Test("other actions offer back, adding and removing instances, and clearing answered questions")
    func otherActions() throws {
        let session = try fhirSession(fhirItem("a", "string"), fhirItem("g", "group", #""repeats": true"#, items: [fhirItem("x", "string")]))
        session.play(.answer("a", "x"), .add(group: "g"))
        let actions = session.otherActions
        #expect(actions.contains(.back))
        #expect(actions.contains(.add(group: "g")))
        #expect(actions.contains(.remove(instance: "g#1")) && actions.contains(.remove(instance: "g#2")))
        #expect(actions.contains(.clear(question: "a")))
    }
}
