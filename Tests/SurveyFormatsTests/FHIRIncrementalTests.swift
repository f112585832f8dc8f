import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// The incremental R4 session against `FHIRReferenceSession`, which rebuilds its instances and evaluates
/// every instance after each change: the same seeded walks on both, and after every step the same outcome,
/// events, page, focus, other actions, answers, response and coverage counts; the incremental session's
/// own invariant (its page is the page worked out afresh) holds too.
@Suite("FHIR sessions evaluate only what a change affects, as a full evaluation does")
struct FHIRIncrementalTests {
    static let engines: [[String: String]] = [[:], ["engine": "android-fhir"], ["not-equals": "any-answer-differs"]]

    /// The first difference on any of `walks` seeded walks, described; nil when there is none.
    static func firstDifference(_ survey: FHIRSurvey, options: [String: String], walks: Int, maxSteps: Int = 60, seed: UInt64 = 1) -> String? {
        let settings = SessionSettings(today: testToday, options: options)
        guard survey.problem(with: settings) == nil else { return nil }
        let chooser = ActionChooser(survey: survey, settings: settings)
        for walk in 0..<walks {
            let plan = survey.coveragePlan()
            let (newCoverage, oldCoverage) = (CoverageRecorder(plan: plan), CoverageRecorder(plan: plan))
            guard let session = survey.makeSession(settings, coverage: walk % 4 == 0 ? newCoverage : nil) as? FHIRSession else { return "not an R4 session" }
            guard let reading = try? survey.reading(for: FHIREngine.of(settings)).get() else { return "no reading for \(options)" }
            let reference = FHIRReferenceSession(survey: reading, settings: settings, coverage: walk % 4 == 0 ? oldCoverage : nil)
            if let difference = compare(session, reference, step: "opening") { return "walk \(walk): \(difference)" }
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(seed, walk: walk)))
            for step in 0..<maxSteps {
                guard stream.beginStep() else { break }
                let action = chooser.choose(in: session, stream: &stream)
                let new = session.perform(action)
                let old = reference.perform(action)
                let place = "walk \(walk) step \(step) (\(action))"
                if new.outcome != old.outcome { return "\(place): outcome \(new.outcome) but the reference's \(old.outcome)" }
                if new.events != old.events { return "\(place): events \(new.events) but the reference's \(old.events)" }
                if let difference = compare(session, reference, step: place) { return difference }
                if let violation = session.invariantViolation() { return "\(place): \(violation)" }
                if action == .submit, new.outcome == .ok { break }
            }
            if newCoverage.counts != oldCoverage.counts { return "walk \(walk): coverage counts differ: \(describe(newCoverage.counts, oldCoverage.counts))" }
        }
        return nil
    }

    /// Which counts of two coverage runs differ.
    private static func describe(_ new: CoverageCounts, _ old: CoverageCounts) -> String {
        var parts: [String] = []
        for (index, pair) in zip(new.decisions, old.decisions).enumerated() where pair.0 != pair.1 { parts.append("decision \(index) \(pair.0) vs \(pair.1)") }
        for (index, pair) in zip(new.leaves, old.leaves).enumerated() where pair.0 != pair.1 { parts.append("leaf \(index) \(pair.0) vs \(pair.1)") }
        for (index, pair) in zip(new.questions, old.questions).enumerated() where pair.0 != pair.1 { parts.append("question \(index) \(pair.0) vs \(pair.1)") }
        if new.choices != old.choices { parts.append("choices") }
        if new.terminals != old.terminals { parts.append("terminals \(new.terminals) vs \(old.terminals)") }
        if new.rows != old.rows { parts.append("rows") }
        return parts.prefix(6).joined(separator: "; ")
    }

    private static func compare(_ session: FHIRSession, _ reference: FHIRReferenceSession, step: String) -> String? {
        let survey = session.survey
        if session.visibleQuestions != reference.visibleQuestions {
            return "\(step): shows \(session.visibleQuestions) but the reference \(reference.visibleQuestions)"
        }
        if session.currentQuestion != reference.currentQuestion {
            return "\(step): focus \(session.currentQuestion ?? "none") but the reference's \(reference.currentQuestion ?? "none")"
        }
        if session.visibleFingerprint != reference.visibleFingerprint { return "\(step): fingerprint differs" }
        if session.visibleCount != reference.visibleCount || session.currentVisiblePosition != reference.currentVisiblePosition {
            return "\(step): visible count or focus position differs"
        }
        if session.isSubmittable != reference.isSubmittable { return "\(step): Submit differs" }
        if session.otherActions != reference.otherActions { return "\(step): other actions \(session.otherActions) but the reference's \(reference.otherActions)" }
        if session.settled != reference.settled { return "\(step): settled differs" }
        for id in session.visibleQuestions + survey.questionIDs where session.answer(for: id) != reference.answer(for: id) {
            return "\(step): answer of '\(id)' is \(String(describing: session.answer(for: id))) but the reference's \(String(describing: reference.answer(for: id)))"
        }
        if session.payload != reference.payload { return "\(step): the responses differ" }
        return nil
    }

    static func check(_ survey: FHIRSurvey, walks: Int, _ name: String) {
        for options in engines {
            if let difference = firstDifference(survey, options: options, walks: walks) {
                Issue.record("\(name) \(options): \(difference)")
            }
        }
    }

    @Test("the project's own Questionnaires, under both engines")
    func projectSurveys() throws {
        let root = URL(fileURLWithPath: Corpus.packageRoot).appendingPathComponent("Scenarios")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
        var checked = 0
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            guard let survey = try? FormatRegistry.standard.load(SourceFile(path: file, text: text)) as? FHIRSurvey else { continue }
            Self.check(survey, walks: 30, file)
            checked += 1
        }
        #expect(checked >= 10)
    }

    @Test("the corpus Questionnaires, under both engines", .requires(.corpus))
    func corpusSurveys() throws {
        for name in FHIRCorpus.questionnaires {
            Self.check(try FHIRCorpus.load(name), walks: name.contains("Outpatient") ? 10 : 30, name)
        }
    }

    @Test("synthetic Questionnaires with nested and repeating groups, chains and forward references", arguments: [(40, 1), (60, 2), (90, 3), (120, 4), (160, 5)])
    func syntheticSurveys(size: Int, seed: UInt64) throws {
        let survey = try loadQuestionnaire(SyntheticFHIR().text(size: size, seed: seed))
        Self.check(survey, walks: 25, "synthetic \(size)/\(seed)")
    }

    @Test("repeating questions with nested items, nested repeating groups, shared linkIds, a cycle with two fixpoints and one with none")
    func structures() throws {
        let choice = codingOptions(["a", "b", "c"])
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("pets", "choice", #""repeats": true, "initial": [{"valueCoding": {"system": "http://example.org/s", "code": "a"}}], \#(choice)"#, items: [
                    fhirItem("name", "string"), fhirItem("age", "integer", enableWhen: [condition("name", "exists", #""answerBoolean": true"#)]),
                ]),
                fhirItem("owner", "boolean", items: [fhirItem("since", "integer", enableWhen: [condition("owner", "=", #""answerBoolean": true"#)])]),
                fhirItem("trip", "group", #""repeats": true, "maxOccurs": 3"#, items: [
                    fhirItem("stop", "group", #""repeats": true"#, items: [
                        fhirItem("city", "string"), fhirItem("nights", "integer", #""required": true"#, enableWhen: [condition("city", "exists", #""answerBoolean": true"#)]),
                    ]),
                    fhirItem("note", "string", enableWhen: [condition("since", ">", #""answerInteger": 2"#)]),
                ]),
                fhirItem("dup", "boolean"), fhirItem("dup", "boolean", enableWhen: [condition("owner", "exists", #""answerBoolean": true"#)]),
                fhirItem("x", "string", enableWhen: [condition("y", "exists", #""answerBoolean": false"#)]),
                fhirItem("y", "string", enableWhen: [condition("x", "exists", #""answerBoolean": false"#)]),
                // p and q flip for ever once both are answered: the passes up to the bound go round a cycle.
                fhirItem("p", "string", enableWhen: [condition("q", "exists", #""answerBoolean": false"#)]),
                fhirItem("q", "string", enableWhen: [condition("p", "exists", #""answerBoolean": true"#)]),
                fhirItem("hidden", "group", #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#, items: [fhirItem("inside", "string")]),
                fhirItem("last", "string", #""required": true"#, enableWhen: [condition("dup", "=", #""answerBoolean": true"#), condition("pets", "=", codingAnswer("b"))], behavior: "any"),
            ] + (0..<25).map { fhirItem("pad\($0)", "display", enableWhen: [condition("owner", "exists", #""answerBoolean": true"#)]) }))
        Self.check(survey, walks: 200, "structures")
    }
}
