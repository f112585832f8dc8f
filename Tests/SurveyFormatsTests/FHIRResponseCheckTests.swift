import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// The step checker reads a submitted response back once per response key (`FHIRResponseKey`): what makes
/// that exact is that two sessions with the same key submit the same response, with the same required items
/// missing and the same instances enabled, and so get the same findings.
@Suite("FHIR step checks: a response is checked once per key")
struct FHIRResponseCheckTests {
    /// What a submitted session's findings are worked out from, as text to compare.
    private struct Submitted: Equatable {
        let response: String
        let unansweredRequired: [String]
        let enabledIDs: [String]
        let findings: [Finding]
    }

    /// Submitted walks on a survey: same key, same response, findings the same with and without the memo;
    /// the memo worked out one check a distinct key. Returns the number of submits and of distinct keys.
    private func check(_ survey: FHIRSurvey, options: [String: String], walks: Int, _ label: String) -> (submits: Int, keys: Int) {
        let settings = SessionSettings(today: testToday, options: options)
        var walker = Walker(survey: survey, settings: settings, maxSteps: 40, builtInProperties: false, properties: nil)
        let memoized = FHIRStepChecker(survey: survey)
        let direct = FHIRStepChecker(survey: survey, memoizes: false)
        var byKey: [FHIRResponseKey: Submitted] = [:]
        var submits = 0
        let computedBefore = survey.submittedChecks.computedCount
        for walk in 0..<walks {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(7, walk: walk)))
            let outcome = walker.walk(&stream)
            guard outcome.submitted, outcome.actions.last == .submit,
                let session = survey.makeSession(settings) as? FHIRSession
            else { continue }
            for action in outcome.actions.dropLast() { _ = session.perform(action) }
            let result = session.perform(.submit)
            guard result.outcome == .ok, let key = session.responseKey, let payload = session.payload else {
                Issue.record("\(label) walk \(walk): a submit the walk took is not taken again")
                continue
            }
            submits += 1
            // The key hashes each answer as `StableHash.of` its JSON (`FHIR.Value.stableHash`), and holds where
            // the instances are as worked out afresh, though the shape it read was worked out when first asked
            // for and shared since.
            for slot in session.state.instances.order.elements where session.state.slots[Int(slot)].isAnswered {
                #expect(session.answers(slot).map(\.stableHash) == session.answers(slot).map { StableHash.of($0.json) }, "\(label) walk \(walk)")
            }
            let shared = session.state.instances.shape
            let afresh = FHIRInstanceShape(session.state.instances)
            #expect(shared.slots == afresh.slots && shared.words == afresh.words && shared.digest == afresh.digest, "\(label) walk \(walk)")
            let findings = memoized.check(session, after: .submit, result: result)
            #expect(findings == direct.check(session, after: .submit, result: result), "\(label) walk \(walk)")
            // The invariant's fresh page kept for the key (worked out by the first session with it) is this
            // session's own.
            #expect(session.keptFreshPage == session.freshPage(), "\(label) walk \(walk): the fresh page kept for the key is not the session's")
            let input = session.submittedInput
            let submitted = Submitted(
                response: CanonicalJSON.pretty(payload), unansweredRequired: input.unansweredRequired,
                enabledIDs: input.tree.instances.indices.filter { input.enablement[$0] }.map { input.tree.instances[$0].id }, findings: findings)
            if let earlier = byKey[key] {
                #expect(earlier == submitted, "\(label) walk \(walk): two sessions with one key submit differently")
            } else {
                byKey[key] = submitted
            }
        }
        #expect(survey.submittedChecks.computedCount - computedBefore == byKey.count, "\(label): one check a distinct key")
        return (submits, byKey.count)
    }

    /// The top-level items of these responses, as text: what the checker reads back once each.
    private func distinctTopLevelItems(_ survey: FHIRSurvey, options: [String: String], walks: Int) -> Int {
        let settings = SessionSettings(today: testToday, options: options)
        var walker = Walker(survey: survey, settings: settings, maxSteps: 40, builtInProperties: false, properties: nil)
        var items = Set<String>()
        for walk in 0..<walks {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(7, walk: walk)))
            let outcome = walker.walk(&stream)
            guard outcome.submitted, let session = survey.makeSession(settings) as? FHIRSession else { continue }
            for action in outcome.actions { _ = session.perform(action) }
            for item in session.payload?.objectValue?["item"]?.arrayValue ?? [] { items.insert(CanonicalJSON.compact(item)) }
        }
        return items.count
    }

    @Test("the screener: walks that submit the same answers share a key, and one response a key", .requires(.corpus))
    func screener() throws {
        for options in [[:], ["engine": "android-fhir"]] {
            let survey = try FHIRCorpus.load("androidfhir-screener-questionnaire.json")
            let piecesBefore = survey.responsePieceChecks.computedCount
            let (submits, keys) = check(survey, options: options, walks: 300, "screener \(options)")
            #expect(submits > 200 && keys < submits, "the walks repeat responses: \(keys) keys for \(submits) submits")
            // A new key is read back top-level item by top-level item, each item read once: the pieces read
            // are at most the distinct items written (and the items left out, which are not read).
            let pieces = survey.responsePieceChecks.computedCount - piecesBefore
            let items = distinctTopLevelItems(survey, options: options, walks: 300)
            #expect(pieces < keys, "\(pieces) top-level items read for \(keys) new responses")
            #expect(pieces >= items, "\(pieces) top-level items read for \(items) distinct ones written")
        }
    }

    @Test("the project's Questionnaires and synthetic ones with nested and repeating groups: one check a key, and the same for every session with it")
    func projectAndSynthetic() throws {
        let root = URL(fileURLWithPath: Corpus.packageRoot).appendingPathComponent("Scenarios")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
        var surveys: [(String, FHIRSurvey)] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            // Forms with SDC expressions are checked without a key: what Submit evaluates reads more.
            if let survey = try? FormatRegistry.standard.load(SourceFile(path: file, text: text)) as? FHIRSurvey,
                (survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)?.expressions == nil
            {
                surveys.append((file, survey))
            }
        }
        for (size, seed) in [(60, 2 as UInt64), (120, 4)] {
            surveys.append(("synthetic \(size)/\(seed)", try loadQuestionnaire(SyntheticFHIR().text(size: size, seed: seed))))
        }
        var submits = 0
        for (label, survey) in surveys {
            for options in [[:], ["engine": "android-fhir"]] { submits += check(survey, options: options, walks: 80, "\(label) \(options)").submits }
        }
        #expect(surveys.count >= 8 && submits > 1000, "\(surveys.count) forms, \(submits) submits")
    }

    /// A repeating group whose repeats each hold a choice and a question it enables.
    private func trips() throws -> FHIRSurvey {
        try loadQuestionnaire(
            questionnaireText([
                fhirItem(
                    "trip", "group", #""repeats": true"#,
                    items: [
                        fhirItem("country", "choice", codingOptions(["br", "ke"])),
                        fhirItem("malaria", "boolean", enableWhen: [condition("country", "=", codingAnswer("ke"))]),
                    ])
            ]))
    }

    @Test(
        "a repeat left out of the response (nothing answered in it) moves those after it: their answers read under earlier numbers, and are judged by the instance that wrote them",
        arguments: [[:], ["engine": "android-fhir"]])
    func repeatLeftOut(options: [String: String]) throws {
        let survey = try trips()
        let session = try #require(survey.makeSession(SessionSettings(today: testToday, options: options)) as? FHIRSession)
        for action: Action in [.add(group: "trip"), .answer(question: "trip#2/country", value: coding("ke")), .answer(question: "trip#2/malaria", value: true)] {
            #expect(session.perform(action).outcome == .ok, "\(action)")
        }
        let result = session.perform(.submit)
        #expect(result.outcome == .ok)
        // The response holds one trip, trip #2's: read back, its answers are trip #1's.
        let payload = try #require(session.payload)
        #expect(payload.objectValue?["item"]?.arrayValue?.count == 1)
        let readBack = survey.readBack(response: payload, settings: session.settings)
        #expect(readBack.answered == ["trip#1/country", "trip#1/malaria"])
        let input = session.submittedInput
        let positions = FHIRStandardResponse().positionsAsRead(input)
        #expect(positions["trip#1/malaria"] == input.tree.indexByID["trip#2/malaria"])
        for checker in [FHIRStepChecker(survey: survey), FHIRStepChecker(survey: survey, memoizes: false)] {
            #expect(checker.check(session, after: .submit, result: result).isEmpty)
        }
        // An answer read on an instance that is disabled, written by none, is still found.
        let checker = FHIRStepChecker(survey: survey)
        let twoTrips = try #require(survey.makeSession(SessionSettings(today: testToday, options: options)) as? FHIRSession)
        for action: Action in [
            .add(group: "trip"), .answer(question: "trip#1/country", value: coding("br")), .answer(question: "trip#2/country", value: coding("ke")),
            .answer(question: "trip#2/malaria", value: true), .submit,
        ] {
            #expect(twoTrips.perform(action).outcome == .ok, "\(action)")
        }
        let claimed = FHIRReadBack(answered: ["trip#1/malaria"])
        #expect(checker.findings(claimed, completed: true, twoTrips).map(\.property) == ["disabled-item-answered"])
        #expect(checker.findings(FHIRReadBack(answered: ["trip#2/malaria"]), completed: true, twoTrips).isEmpty)
    }

    /// The corpus screener, the settings its walks run under, and seeded walks on it (their actions and
    /// whether they submitted).
    private func screenerWalks(seed: UInt64, count: Int, maxSteps: Int) throws -> (FHIRSurvey, SessionSettings, [(actions: [Action], submitted: Bool)]) {
        let survey = try FHIRCorpus.load("androidfhir-screener-questionnaire.json")
        let settings = SessionSettings(today: testToday)
        var walker = Walker(survey: survey, settings: settings, maxSteps: maxSteps, builtInProperties: false, properties: nil)
        let walks = (0..<count).map { walk in
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(seed, walk: walk)))
            let outcome = walker.walk(&stream)
            return (outcome.actions, outcome.submitted)
        }
        return (survey, settings, walks)
    }

    @Test("a fresh page kept for a response key still finds a session whose own page drifted", .requires(.corpus))
    func keptFreshPageStillChecks() throws {
        let (survey, settings, walks) = try screenerWalks(seed: 3, count: 40, maxSteps: 40)
        let checker = FHIRStepChecker(survey: survey)
        var checked = 0
        for (walk, outcome) in walks.enumerated() {
            guard outcome.submitted, outcome.actions.last == .submit, let session = survey.makeSession(settings) as? FHIRSession else { continue }
            for action in outcome.actions.dropLast() { _ = session.perform(action) }
            let result = session.perform(.submit)
            _ = checker.check(session, after: .submit, result: result)
            #expect(session.keptFreshPage != nil, "walk \(walk): the checker keeps the fresh page on the submitted session")
            #expect(checker.finish(session).isEmpty, "walk \(walk)")
            // Drifted counts: each is found against the kept page, as the page worked out afresh finds it.
            session.state.fingerprint &+= 1
            #expect(checker.finish(session).map(\.message) == ["the page's fingerprint is not the sum of its instances' ids"], "walk \(walk)")
            session.state.fingerprint &-= 1
            session.state.missingRequired += 1
            #expect(checker.finish(session).first?.property == "enablement-matches-answers", "walk \(walk)")
            session.state.missingRequired -= 1
            // An instance on the page taken off it without its enablement changing.
            let order = session.state.instances.order.elements
            let shown = try #require(order.first { session.isShown($0) })
            session.state.slots[Int(shown)].flags.remove(.shown)
            #expect(
                checker.finish(session).map(\.message) == ["'\(session.state.instances.id(shown))' is off the page though its enablement and its parent's say otherwise"],
                "walk \(walk)")
            session.state.slots[Int(shown)].flags.insert(.shown)
            #expect(checker.finish(session).isEmpty, "walk \(walk)")
            checked += 1
        }
        #expect(checked > 20, "\(checked) walks submitted")
    }

    @Test("a focus taken off the page is found at the step, named by its id; a focus on it and the end of a submitted walk are not", .requires(.corpus))
    func focusOffThePage() throws {
        let (survey, settings, walks) = try screenerWalks(seed: 5, count: 30, maxSteps: 12)
        let checker = FHIRStepChecker(survey: survey)
        var tampered = 0
        for (walk, outcome) in walks.enumerated() {
            let session = try #require(survey.makeSession(settings) as? FHIRSession)
            for action in outcome.actions {
                let result = session.perform(action)
                #expect(!checker.check(session, after: action, result: result).contains { $0.property == "focus-is-visible" }, "walk \(walk) after \(action)")
                let focus = session.state.focus
                guard !session.state.submitted, focus >= 0, session.isShown(focus) else { continue }
                session.state.slots[Int(focus)].flags.remove(.shown)
                let found = checker.check(session, after: action, result: result).filter { $0.property == "focus-is-visible" }
                #expect(found.map(\.message) == ["the focus '\(session.state.instances.id(focus))' is not on screen"], "walk \(walk) after \(action)")
                session.state.slots[Int(focus)].flags.insert(.shown)
                tampered += 1
            }
        }
        #expect(tampered > 100, "\(tampered) steps tampered")
    }

    @Test("reading a response's top-level items one by one, each after those reading as the same item, reads the response")
    func topLevelItemsReadAsTheirList() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("visit", "group", #""repeats": true"#, items: [fhirItem("when", "date"), fhirItem("why", "string")]),
                fhirItem("dup", "boolean"), fhirItem("dup", "boolean"),
                fhirItem("once", "integer"),
                fhirItem("many", "string", #""repeats": true"#),
            ]))
        func item(_ linkId: String?, _ body: String) -> String {
            (linkId.map { #"{"linkId": "\#($0)", "#} ?? "{") + body + "}"
        }
        let items = [
            item("visit", #""item": [{"linkId": "when", "answer": [{"valueDate": "2026-01-02"}]}]"#),
            item("dup", #""answer": [{"valueBoolean": true}]"#),
            item("once", #""answer": [{"valueInteger": 1}, {"valueInteger": 2}]"#),
            item("visit", #""item": [{"linkId": "why", "answer": [{"valueString": "check"}]}, {"linkId": "nope", "answer": [{"valueString": "x"}]}]"#),
            item("dup", #""answer": [{"valueBoolean": false}]"#),
            item(nil, #""answer": [{"valueString": "no linkId"}]"#),
            item("dup", #""answer": [{"valueString": "third, and a string"}]"#),
            item("unknown", #""answer": [{"valueString": "u"}]"#),
            item("once", #""answer": [{"valueInteger": 3}]"#),
            item("many", #""answer": [{"valueString": "a"}, {"valueString": "b"}], "item": [{"linkId": "when"}]"#),
            item("visit", #""answer": [{"valueString": "a group answered"}]"#),
        ]
        let text = #"{"resourceType": "QuestionnaireResponse", "status": "completed", "item": [\#(items.joined(separator: ", "))]}"#
        let response = try JSONParser.parse(SourceFile(path: "r.json", text: text)).plain
        let whole = survey.readBack(response: response, settings: SessionSettings())
        #expect(!whole.unreadable && whole.problems.count >= 6 && whole.answered.count >= 5, "the response reads with problems: \(whole)")

        var envelope = try #require(response.objectValue)
        envelope["item"] = nil
        var pieces = survey.readBack(response: .object(envelope), settings: SessionSettings())
        let places = FHIRResponsePlaces(survey)
        var counted: [Int: Int] = [:]
        for entry in try #require(response.objectValue?["item"]?.arrayValue) {
            let first = entry.objectValue?["linkId"]?.stringValue.flatMap { places.items($0, under: nil).first } ?? -1
            pieces.append(survey.readBack(topLevel: entry, earlier: counted[first] ?? 0))
            counted[first, default: 0] += 1
        }
        #expect(pieces.answered == whole.answered)
        #expect(pieces.problems == whole.problems)
        #expect(pieces.structure == whole.structure)
        #expect(pieces.unreadable == whole.unreadable)
    }

    @Test("repeating questions with nested items, nested repeating groups, shared linkIds, a hidden group")
    func structures() throws {
        let choice = codingOptions(["a", "b", "c"])
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("pets", "choice", #""repeats": true, \#(choice)"#, items: [
                    fhirItem("name", "string"), fhirItem("age", "integer", enableWhen: [condition("name", "exists", #""answerBoolean": true"#)]),
                ]),
                fhirItem("trip", "group", #""repeats": true, "maxOccurs": 3"#, items: [
                    fhirItem("stop", "group", #""repeats": true"#, items: [
                        fhirItem("city", "string"), fhirItem("nights", "integer", #""required": true"#, enableWhen: [condition("city", "exists", #""answerBoolean": true"#)]),
                    ])
                ]),
                fhirItem("dup", "boolean"), fhirItem("dup", "boolean", enableWhen: [condition("pets", "=", codingAnswer("b"))]),
                fhirItem("hidden", "group", #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#, items: [fhirItem("inside", "string", #""initial": [{"valueString": "kept"}]"#)]),
                fhirItem("last", "string", #""required": true"#, enableWhen: [condition("dup", "=", #""answerBoolean": true"#)]),
            ]))
        for options in [[:], ["engine": "android-fhir"]] {
            let (submits, _) = check(survey, options: options, walks: 300, "structures \(options)")
            #expect(submits > 100)
        }
    }

    @Test("where sibling groups share a linkId and the first is left out, the misplaced read-back is the form's hazard, not an engine error")
    func sharedLinkIdsMakeTheResponseAmbiguous() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("g", "group", items: [fhirItem("a", "string")]),
                fhirItem("g", "group", items: [fhirItem("b", "integer")]),
            ]))
        for memoizes in [true, false] {
            let session = try #require(survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)
            session.play(.answer("b", 3))
            let result = session.perform(.submit)
            #expect(result.outcome == .ok)
            let findings = FHIRStepChecker(survey: survey, memoizes: memoizes).check(session, after: .submit, result: result)
            #expect(!findings.contains { $0.kind == .engineError }, "\(findings)")
            let hazard = try #require(findings.first { $0.property == "response-ambiguous" }, "\(findings)")
            #expect(hazard.kind == .hazard)
            #expect(hazard.message.contains("no item 'b' under 'g'") && hazard.message.contains("share the linkId 'g'"), "\(hazard.message)")
        }
        // Answered in the first group, the response reads back where it was written: nothing to report.
        let session = try #require(survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)
        session.play(.answer("a", "x"))
        let result = session.perform(.submit)
        #expect(FHIRStepChecker(survey: survey).check(session, after: .submit, result: result).isEmpty)
    }

    @Test("a Questionnaire with SDC expressions has no key: its responses are checked every time")
    func expressionsHaveNoKey() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("a", "integer"),
                fhirItem("b", "integer", #""extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression", "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.where(linkId = 'a').answer.value + 1"}}]"#),
            ]))
        let session = try #require(survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)
        session.play(.answer("a", 2), .submit)
        #expect(session.responseKey == nil)
    }

    @Test("an initial value, whose hash the opening keeps, keys a response as the same value given by an answer does")
    func openingAnswersHashAsGivenOnes() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("unit", "string", #""initial": [{"valueString": "kg"}]"#),
                fhirItem("code", "choice", #"\#(codingOptions(["a", "b"])), "initial": [{"valueCoding": {"system": "http://example.org/s", "code": "b", "display": "B"}}]"#),
                fhirItem("weight", "decimal"),
            ]))
        let settings = SessionSettings(today: testToday)
        let opened = try #require(survey.makeSession(settings) as? FHIRSession)
        opened.play(.answer("weight", 70), .submit)
        let retyped = try #require(survey.makeSession(settings) as? FHIRSession)
        retyped.play(
            .clear(question: "unit"), .clear(question: "code"), .answer("unit", "kg"), .answer("code", ["system": "http://example.org/s", "code": "b", "display": "B"]), .answer("weight", 70), .submit)
        let (kept, given) = (try #require(opened.responseKey), try #require(retyped.responseKey))
        #expect(kept == given)
        #expect(kept.hashValue == given.hashValue)
        let other = try #require(survey.makeSession(settings) as? FHIRSession)
        other.play(.clear(question: "unit"), .answer("unit", "lb"), .answer("weight", 70), .submit)
        #expect(try #require(other.responseKey) != kept)
    }

    @Test("every value type is written under value<Type>")
    func memberKeys() {
        for type in FHIR.ValueType.allCases { #expect(type.memberKey == "value" + type.rawValue) }
    }
}
