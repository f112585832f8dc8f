import SurveyCore
import Testing

@testable import SurveyFormats

/// How each R4 engine reads a file that breaks R4 but that one of them renders (docs/fhir.md, "Engines"):
/// LHC-Forms (the default) works on the JSON as JavaScript values, android-fhir parses it with HAPI's lenient
/// parser, which throws on text its type cannot read. Every violation is a lint error at its location.
@Suite("FHIR engines' readings")
struct FHIREngineReadingTests {
    static let android = [FHIRSurvey.engineOption: FHIREngine.androidFHIR.rawValue]

    /// The survey as the engine reads it, or the engine's refusal.
    private func reading(_ items: [String], _ engine: FHIREngine) throws -> Result<FHIRSurvey, InputError> {
        try loadQuestionnaire(questionnaireText(items)).reading(for: engine)
    }

    private func item(_ linkId: String, in items: [String], _ engine: FHIREngine) throws -> FHIR.Item {
        try #require(try reading(items, engine).get().item(linkId))
    }

    @Test(
        "a flag written as a string: LHC-Forms reads JavaScript truthiness (\"false\" is true), android-fhir parses the text with HAPI (\"false\" is false, \"yes\" refused); lint errors at each")
    func stringFlags() throws {
        let items = [
            fhirItem("t", "string", #""repeats": "true""#), fhirItem("f", "string", #""repeats": "false""#), fhirItem("e", "string", #""repeats": """#),
            fhirItem("r", "string", #""required": "yes""#),
        ]
        // LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:241, 259, 269, 276 (`if (repeats)`, `if (required)`).
        #expect(try item("t", in: items, .lhcForms).repeats)
        #expect(try item("f", in: items, .lhcForms).repeats)
        #expect(try !item("e", in: items, .lhcForms).repeats)
        #expect(try item("r", in: items, .lhcForms).required)
        // BooleanType.parse (hapifhir/org.hl7.fhir.core@fb112b20 ...r4/model/BooleanType.java:95-104) throws on "yes".
        let refusal = try #require(try reading(items, .androidFHIR).failure)
        #expect(refusal.diagnostics.count == 1)
        #expect(refusal.diagnostics[0].message.hasPrefix("android-fhir refuses this Questionnaire: \"required\" is the string \"yes\""))
        #expect(refusal.diagnostics[0].pointer == "/item/3/required")
        let accepted = Array(items.prefix(3))
        #expect(try item("t", in: accepted, .androidFHIR).repeats)
        #expect(try !item("f", in: accepted, .androidFHIR).repeats)
        #expect(try !item("e", in: accepted, .androidFHIR).repeats)
        // "True" (BooleanType.parse is case-sensitive) and the number 1 (its text "1") are refused too; LHC-Forms reads both as true.
        for written in [#""True""#, "1"] {
            let flagged = [fhirItem("r", "string", "\"required\": \(written)")]
            #expect(try item("r", in: flagged, .lhcForms).required, "\(written)")
            #expect(try reading(flagged, .androidFHIR).failure != nil, "\(written)")
        }
        let lint = fhirLint(items).with(rule: "fhir-json-type")
        #expect(lint.map(\.pointer) == ["/item/0/repeats", "/item/1/repeats", "/item/2/repeats", "/item/3/required"])
        #expect(lint.allSatisfy { $0.severity == .error })
        #expect(lint[1].message.contains("LHC-Forms reads it as true") && lint[1].message.contains("android-fhir as false"))
    }

    @Test("a string repeats runs as each engine reads it: under LHC-Forms \"false\" makes a repeating question, under android-fhir a single one")
    func stringRepeatsInSessions() throws {
        let lhc = try fhirSession(fhirItem("q", "string", #""repeats": "false""#))
        #expect(lhc.perform(.answer("q", ["a", "b"])).outcome == .ok)
        let android = try fhirSession([fhirItem("q", "string", #""repeats": "false""#)], options: Self.android)
        #expect(android.perform(.answer("q", ["a", "b"])).outcome.kind == .rejected)
        #expect(android.perform(.answer("q", "a")).outcome == .ok)
    }

    @Test("questionnaire-hidden written as a string: LHC-Forms counts only \"true\" (sdc-import-common.js:965-971), HAPI only trimmed true or false")
    func hiddenString() throws {
        let hidden = { (value: String) in
            fhirItem("h", "string", #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": \#(value)}]"#)
        }
        #expect(try item("h", in: [hidden(#""true""#)], .lhcForms).hidden)
        #expect(try item("h", in: [hidden(#""true""#)], .androidFHIR).hidden)
        #expect(try !item("h", in: [hidden(#""True""#)], .lhcForms).hidden)
        #expect(try reading([hidden(#""True""#)], .androidFHIR).failure != nil)
    }

    @Test(
        "answerInteger written as a date on a date item with answerOption: LHC-Forms compares it as written and matches the option (its enableWhen-test.R4.json Q9c), android-fhir refuses (IntegerType.parse)")
    func answerIntegerAsDate() throws {
        let items = [
            fhirItem("d", "date", #""answerOption": [{"valueDate": "2022"}, {"valueDate": "2022-09"}]"#),
            fhirItem("eq", "string", enableWhen: [condition("d", "=", #""answerInteger": "2022-09""#)]),
            fhirItem("ne", "string", enableWhen: [condition("d", "!=", #""answerInteger": "2022-09""#)]),
        ]
        // LHNCBC/lforms@24c71875 test/playwright/integration/R4/enableWhen-test.spec.ts ("should work on date as
        // answerOption items"): "2022" shows the != item, "2022-09" the = item.
        let session = try fhirSession(items)
        #expect(session.visibleQuestions == ["d", "ne"])
        session.play(.answer("d", "2022"))
        #expect(session.visibleQuestions == ["d", "ne"])
        session.play(.answer("d", "2022-09"))
        #expect(session.visibleQuestions == ["d", "eq"])
        #expect(try reading(items, .androidFHIR).failure?.diagnostics.first?.message.contains("cannot read as integer") == true)
        let lint = try #require(fhirLint(items).with(rule: "fhir-json-type").first)
        #expect(lint.pointer == "/item/1/enableWhen/0/answerInteger")
    }

    @Test("answerInteger 2.5 against an integer question: LHC-Forms compares the numbers (3 > 2.5), android-fhir refuses the file")
    func answerIntegerFraction() throws {
        let items = [fhirItem("n", "integer"), fhirItem("big", "string", enableWhen: [condition("n", ">", #""answerInteger": 2.5"#)])]
        let session = try fhirSession(items)
        session.play(.answer("n", 3))
        #expect(session.isVisible("big"))
        session.play(.answer("n", 2))
        #expect(!session.isVisible("big"))
        #expect(try reading(items, .androidFHIR).failure != nil)
    }

    @Test("answerInteger \"5\" (a string): LHC-Forms compares the string with the number and never matches; HAPI parses the text, so android-fhir matches 5")
    func answerIntegerString() throws {
        let items = [fhirItem("n", "integer"), fhirItem("five", "string", enableWhen: [condition("n", "=", #""answerInteger": "5""#)])]
        let lhc = try fhirSession(items)
        lhc.play(.answer("n", 5))
        #expect(!lhc.isVisible("five"))
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("n", 5))
        #expect(android.isVisible("five"))
    }

    @Test(
        "answerInteger \"2\" (a string) on an integer item: LHC-Forms' = never matches (\"2\" === 2 is false), but its != is loose and its orderings coerce (lhc-form-data.ts:3931-3956, 3706-3750); android-fhir parses \"2\" as 2")
    func answerIntegerStringNotEqualsAndOrderings() throws {
        let items = comparedItems("n", "integer", answer: #""answerInteger": "2""#)
        let lhc = try fhirSession(items)
        #expect(lhc.visibleQuestions == ["n", "ne"], "!= with a value holds while n is unanswered")
        lhc.play(.answer("n", 2))
        #expect(lhc.visibleQuestions == ["n"])
        lhc.play(.answer("n", 3))
        #expect(lhc.visibleQuestions == ["n", "ne", "gt"])
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("n", 2))
        #expect(android.visibleQuestions == ["n", "eq"])
        android.play(.answer("n", 3))
        #expect(android.visibleQuestions == ["n", "ne", "gt"])
        #expect(fhirLint(items).with(rule: "fhir-json-type").count == 3)
    }

    @Test(
        "coverage claims = impossible for a value of another JavaScript type only: LHC-Forms' != is loose, its orderings coerce, and answerDate on a string item is a string it can equal")
    func coverageClaimsAcrossTypes() throws {
        let items =
            comparedItems("n", "integer", answer: #""answerString": "5""#)
            + [fhirItem("s", "string"), fhirItem("day", "string", enableWhen: [condition("s", "=", #""answerDate": "2024-01-01""#)])]
        let leaves = try loadQuestionnaire(questionnaireText(items)).coveragePlan().leaves
        #expect(leaves.map { Set($0.impossible.keys) } == [[true], [], [], []])
        let session = try fhirSession(items)
        session.play(.answer("s", "2024-01-01"))
        #expect(session.isVisible("day"))
    }

    @Test(
        "an integer or string enableWhen on a choice item: LHC-Forms makes its trigger null (_copyTriggerCoding keeps only a Coding's parts) and throws a TypeError once the item is answered, so that answer is refused; with an initialSelected option the form throws as it opens; android-fhir compares the values")
    func nonCodingTriggerOnChoice() throws {
        let choice = { (extra: String) in fhirItem("c", "choice", #""answerOption": [{"valueInteger": 1}, {"valueInteger": 2\#(extra)}]"#) }
        let items = [choice(""), fhirItem("t", "string", enableWhen: [condition("c", "=", #""answerInteger": 2"#)])]
        // LHNCBC/lforms@24c71875 src/fhir/common/sdc-common.js:153-160 (null for a number), src/lib/lforms/lhc-form-data.ts:3850 (null.system).
        let lhc = try fhirSession(items)
        #expect(lhc.visibleQuestions == ["c"])
        let outcome = lhc.perform(.answer("c", 2)).outcome
        #expect(outcome.kind == .rejected && outcome.message?.contains("TypeError") == true)
        #expect(lhc.answer(for: "c") == nil)
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("c", 2))
        #expect(android.visibleQuestions == ["c", "t"])
        let preselected = try loadQuestionnaire(questionnaireText([choice(#", "initialSelected": true"#), items[1]]))
        #expect(preselected.problem(with: SessionSettings())?.contains("LHC-Forms throws as the form opens: TypeError") == true)
        #expect(preselected.problem(with: SessionSettings(options: Self.android)) == nil)
        let lint = fhirLint(items).with(rule: "fhir-choice-trigger")
        #expect(lint.count == 1 && lint[0].severity == .warning && lint[0].pointer == "/item/1/enableWhen/0")
        // A string enableWhen on a choice item with string options is the same.
        let strings = try fhirSession(
            fhirItem("c", "choice", #""answerOption": [{"valueString": "a"}, {"valueString": "b"}]"#), fhirItem("t", "string", enableWhen: [condition("c", "=", #""answerString": "a""#)]))
        #expect(strings.perform(.answer("c", "a")).outcome.message?.contains("TypeError") == true)
    }

    @Test(
        "LHC-Forms converts a trigger by the data type of the last item with the linkId (_createLinkIdItemMap keeps the last, sdc-import-common.js:1239-1255): answerInteger 2 read against an integer item that shares its linkId with a later choice item is null, so it never equals 2, and read against the choice item it throws; android-fhir compares 2 with the nearest item's answers")
    func triggerTypedByLastDuplicate() throws {
        let items = [
            fhirItem("x", "integer"), fhirItem("before", "string", enableWhen: [condition("x", "=", #""answerInteger": 2"#)]),
            fhirItem("x", "choice", codingOptions(["a", "b"])), fhirItem("after", "string", enableWhen: [condition("x", "=", #""answerInteger": 2"#)]),
        ]
        let lhc = try fhirSession(items)
        lhc.play(.answer("x", 2))
        #expect(lhc.visibleQuestions == ["x", "x@2"])
        #expect(lhc.perform(.answer("x@2", coding("a"))).outcome.message?.contains("TypeError") == true)
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("x", 2), .answer("x@2", coding("a")))
        #expect(android.visibleQuestions == ["x", "before", "x@2"])
    }

    @Test(
        "LHC-Forms finds a duplicated item by its element id (linkId and instance numbers), the first with it, and looks for a source from there (lhc-form-data.ts:3790-3821): in two groups that repeat the same linkIds, the second group's dependent reads the first group's source; android-fhir reads the nearest response item")
    func duplicateTargetsReadFromTheFirstCopy() throws {
        let group = { (id: String) in
            fhirItem(id, "group", items: [fhirItem("x", "boolean"), fhirItem("t", "string", enableWhen: [condition("x", "=", #""answerBoolean": true"#)])])
        }
        let lhc = try fhirSession(group("g1"), group("g2"))
        lhc.play(.answer("x@2", true))
        #expect(!lhc.isVisible("t@2"))
        lhc.play(.answer("x", true))
        #expect(lhc.isVisible("t") && lhc.isVisible("t@2"))
        let android = try fhirSession([group("g1"), group("g2")], options: Self.android)
        android.play(.answer("x@2", true))
        #expect(android.visibleQuestions == ["g1", "x", "g2", "x@2", "t@2"])
    }

    @Test(
        "enableBehavior other than all and any: LHC-Forms upper-cases it, so \"ALL\" is all and \"some\" neither, which never enables the item (sdc-import.js:98-100, lhc-form-data.ts:3994-3999); android-fhir's HAPI parser refuses the code; a lint error at it")
    func enableBehaviorCase() throws {
        let conditions = [condition("a", "=", #""answerBoolean": true"#), condition("b", "=", #""answerBoolean": true"#)]
        let items = [
            fhirItem("a", "boolean"), fhirItem("b", "boolean"), fhirItem("all", "string", enableWhen: conditions, behavior: "ALL"),
            fhirItem("some", "string", enableWhen: conditions, behavior: "some"),
        ]
        let lhc = try fhirSession(items)
        lhc.play(.answer("a", true))
        #expect(lhc.visibleQuestions == ["a", "b"])
        lhc.play(.answer("b", true))
        #expect(lhc.visibleQuestions == ["a", "b", "all"])
        let survey = try loadQuestionnaire(questionnaireText(items))
        #expect(survey.problem(with: SessionSettings(options: Self.android))?.contains("\"ALL\", which HAPI's parser cannot read") == true)
        let lint = fhirLint(items).with(rule: "fhir-json-type")
        #expect(lint.map(\.pointer) == ["/item/2/enableBehavior", "/item/3/enableBehavior"])
        #expect(lint[1].message.contains("never enabled"))
    }

    @Test(
        "an item without a type, or with one LHC-Forms does not know (a reference item too), is a text box in LHC-Forms: text answers, none in the response, read by enableWhen only through exists (sdc-import.js:36-92, lhc-form-data.ts:3929-3976, sdc-export.js:66-146); android-fhir refuses an unknown code")
    func untypedItemsAreTextBoxes() throws {
        let items = [
            #"{"linkId": "free", "text": "Anything"}"#, fhirItem("slider", "slider"), fhirItem("ref", "reference"),
            fhirItem("ex", "string", enableWhen: [condition("free", "exists", #""answerBoolean": true"#)]),
            fhirItem("eq", "string", enableWhen: [condition("free", "=", #""answerString": "x""#)]),
            fhirItem("ne", "string", enableWhen: [condition("free", "!=", #""answerString": "x""#)]),
        ]
        let lhc = try fhirSession(items)
        #expect(lhc.visibleQuestions == ["free", "slider", "ref", "ne"])
        #expect(lhc.perform(.answer("ref", ["reference": "Patient/1"])).outcome.message?.contains("which LHC-Forms renders as a text box") == true)
        lhc.play(.answer("free", "x"), .answer("slider", "7"), .answer("ref", "Patient/1"), .submit)
        #expect(lhc.visibleQuestions == ["free", "slider", "ref", "ex"])
        #expect(lhc.payload?.objectValue?["item"] == nil, "no answer of a text box is exported")
        let survey = try loadQuestionnaire(questionnaireText(items))
        #expect(survey.problem(with: SessionSettings(options: Self.android))?.contains("\"slider\"") == true)
        // C3-PRO reads them as its text question (FHIRC3PROPreparationTests.untypedItemsInR4Files).
        #expect(survey.problem(with: SessionSettings(profile: FHIRSurvey.c3proProfile)) == nil)
        let lint = fhirLint(items).with(rule: "fhir-item-type")
        #expect(lint.map(\.severity) == [.error, .error, .warning])
    }

    @Test(
        "Codings: LHC-Forms reads an answer system \"LOINC\" as http://loinc.org and leaves the trigger's as written (lhc-form-data.ts:1549-1558), so only a trigger with http://loinc.org matches; android-fhir compares the systems as written")
    func loincSystem() throws {
        let items = [
            fhirItem("c", "choice", #""answerOption": [{"valueCoding": {"system": "LOINC", "code": "LA33-6"}}]"#),
            fhirItem("url", "string", enableWhen: [condition("c", "=", #""answerCoding": {"system": "http://loinc.org", "code": "LA33-6"}"#)]),
            fhirItem("name", "string", enableWhen: [condition("c", "=", #""answerCoding": {"system": "LOINC", "code": "LA33-6"}"#)]),
        ]
        let answer: JSONValue = ["system": "LOINC", "code": "LA33-6"]
        let lhc = try fhirSession(items)
        lhc.play(.answer("c", answer))
        #expect(lhc.visibleQuestions == ["c", "url"])
        let android = try fhirSession(items, options: Self.android)
        android.play(.answer("c", answer))
        #expect(android.visibleQuestions == ["c", "name"])
    }

    @Test("exists with answerBoolean \"false\" (a string): LHC-Forms reads its truthiness, so it tests that the source is answered; android-fhir reads false")
    func existsStringBoolean() throws {
        let items = [fhirItem("s", "string"), fhirItem("t", "string", enableWhen: [condition("s", "exists", #""answerBoolean": "false""#)])]
        let lhc = try fhirSession(items)
        #expect(!lhc.isVisible("t"))
        lhc.play(.answer("s", "x"))
        #expect(lhc.isVisible("t"))
        let android = try fhirSession(items, options: Self.android)
        #expect(android.isVisible("t"))
        android.play(.answer("s", "x"))
        #expect(!android.isVisible("t"))
    }

    @Test(
        "several enableWhen without enableBehavior (que-12): LHC-Forms renders them as any (lhc-form-data.ts:3998), android-fhir throws (EnablementEvaluator.kt:166-172); a lint error either way")
    func que12() throws {
        let items = [
            fhirItem("a", "boolean"), fhirItem("b", "boolean"),
            fhirItem("t", "string", enableWhen: [condition("a", "=", #""answerBoolean": true"#), condition("b", "=", #""answerBoolean": true"#)]),
        ]
        let session = try fhirSession(items)
        session.play(.answer("b", true))
        #expect(session.isVisible("t"))
        let survey = try loadQuestionnaire(questionnaireText(items))
        #expect(survey.problem(with: SessionSettings(options: Self.android))?.contains("IllegalStateException") == true)
        let lint = fhirLint(items).with(rule: "fhir-que-12")
        #expect(lint.count == 1 && lint[0].severity == .error && lint[0].message.contains("LHC-Forms reads them as any"))
    }

    @Test("an answerOption valueReference: android-fhir renders it, LHC-Forms throws on it (sdc-import.js:188-190)")
    func referenceOption() throws {
        let items = [fhirItem("r", "reference", #""answerOption": [{"valueReference": {"reference": "Patient/1"}}]"#)]
        let survey = try loadQuestionnaire(questionnaireText(items))
        #expect(survey.engine == .androidFHIR)
        #expect(survey.problem(with: SessionSettings())?.contains("Unable to handle data type in answerOption") == true)
        #expect(survey.problem(with: SessionSettings(options: Self.android)) == nil)
        #expect(fhirLint(items).contains { $0.rule == "fhir-engine-refuses" })
    }

    @Test(
        "two items sharing a linkId (que-2) both render: the later is named linkId@2, each takes its own answers, and an enableWhen reads the nearest (ancestor, preceding, following)")
    func duplicateLinkIds() throws {
        let items = [
            fhirItem("g1", "group", items: [fhirItem("x", "boolean"), fhirItem("a", "string", enableWhen: [condition("x", "=", #""answerBoolean": true"#)])]),
            fhirItem("g2", "group", items: [fhirItem("x", "boolean"), fhirItem("b", "string", enableWhen: [condition("x", "=", #""answerBoolean": true"#)])]),
        ]
        let session = try fhirSession(items)
        #expect(session.survey.questionIDs == ["g1", "x", "a", "g2", "x@2", "b"])
        session.play(.answer("x@2", true))
        #expect(session.visibleQuestions == ["g1", "x", "g2", "x@2", "b"])
        session.play(.answer("x", true), .answer("x@2", false))
        #expect(session.visibleQuestions == ["g1", "x", "a", "g2", "x@2"])
        session.play(.submit)
        let response = try #require(session.responseItems)
        #expect(response == [
            ["linkId": "g1", "item": [["linkId": "x", "answer": [["valueBoolean": true]]]]],
            ["linkId": "g2", "item": [["linkId": "x", "answer": [["valueBoolean": false]]]]],
        ])
        let lint = fhirLint(items).with(rule: "fhir-que-2")
        #expect(lint.count == 1 && lint[0].severity == .error && lint[0].message.contains("'x@2'"))
    }

    @Test("walks over a file with sibling items sharing a linkId and string flags find no engine error under either engine, and their responses read back", arguments: FHIREngine.allCases)
    func walksOverReadings(engine: FHIREngine) throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("g", "group", #""repeats": "true""#, items: [fhirItem("x", "boolean"), fhirItem("x", "string", enableWhen: [condition("x", "=", #""answerBoolean": true"#)])]),
                fhirItem("c", "choice", #""repeats": "true", "answerOption": [{"valueCoding": {"code": "a"}}, {"valueCoding": {"code": "b"}}]"#),
                fhirItem("t", "string", enableWhen: [condition("c", "=", #""answerCoding": {"code": "a"}"#), condition("x", "exists", #""answerBoolean": true"#)], behavior: "any"),
            ]))
        let settings = SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: engine.rawValue])
        #expect(survey.problem(with: settings) == nil)
        #expect(walksSubmitted(survey, settings: settings, walks: 30, maxSteps: 40) > 0)
    }

    @Test("the engine option is checked: its values are lhc-forms and android-fhir")
    func engineOption() throws {
        let survey = try loadQuestionnaire(questionnaireText([fhirItem("a", "string")]))
        #expect(survey.options[FHIRSurvey.engineOption] == ["lhc-forms", "android-fhir"])
        #expect(survey.problem(with: SessionSettings(options: [FHIRSurvey.engineOption: "lforms"]))?.contains("expected one of lhc-forms, android-fhir") == true)
    }
}

extension Result {
    /// The error, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
