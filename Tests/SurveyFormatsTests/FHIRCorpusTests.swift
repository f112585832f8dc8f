import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// The FHIR corpus (`shared/corpus/fhir/`, beside the clone). Without it the tests that read it are reported
/// as skipped, except under CI, where they fail.
enum FHIRCorpus {
    static let folder = Corpus.url("fhir")

    static let questionnaires = [
        "androidfhir-Questionnaire-OutpatientPriorAuthorizationRequest.json", "androidfhir-behavior_skip_logic.json",
        "androidfhir-paginated_questionnaire_with_dependent_answer.json", "androidfhir-questionnaire_with_enabled_display_items.json",
        "androidfhir-screener-questionnaire.json", "androidfhir-sdc-kmp-sample-questionnaire.json", "lforms-4712701.json",
        "lforms-enableWhenExpressionTest.json", "lforms-enableWhenOnCalculatedValueFromFHIRPath.json", "lforms-expression-on-data-from-prepopulation.json",
        "lforms-extractObs-test.json", "lforms-phq9.json", "lforms-q-items-under-repeating-choice-item.json", "lforms-tab-layout-nested-layout.json",
        "lforms-test-enablewhen.json", "uwcirg-CIRG-CNICS-AUDIT.json",
    ]

    static func file(_ name: String) throws -> SourceFile {
        SourceFile(path: name, text: try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
    }

    static func load(_ name: String) throws -> FHIRSurvey {
        try #require(try FormatRegistry.standard.load(file(name)) as? FHIRSurvey)
    }

    static func session(_ name: String, options: [String: String] = [:]) throws -> FHIRSession {
        try #require(try load(name).makeSession(SessionSettings(today: testToday, options: options)) as? FHIRSession)
    }
}

@Suite("FHIR corpus", .requires(.corpus))
struct FHIRCorpusTests {
    @Test("the corpus holds the files this suite names, and nothing else of the Questionnaire kind")
    func corpusListing() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: FHIRCorpus.folder.path).filter { $0.hasSuffix(".json") }
        let questionnaires = names.filter { !$0.hasPrefix("invalid-") && !$0.contains("QuestionnaireResponse") }
        #expect(Set(questionnaires) == Set(FHIRCorpus.questionnaires))
    }

    @Test("every Questionnaire loads, a generated walk replays through it, and submitting emits a response", arguments: FHIRCorpus.questionnaires)
    func loadsWalksAndResponds(name: String) throws {
        let survey = try FHIRCorpus.load(name)
        // Under the first engine that renders it (the AUDIT file: none, see its own test).
        let engines = FHIREngine.allCases.map { SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: $0.rawValue]) }
        guard let settings = engines.first(where: { survey.problem(with: $0) == nil }) else { return }
        #expect(walksSubmitted(survey, settings: settings, walks: 20, maxSteps: 60) > 0)
        let session = survey.makeSession(settings)
        session.play(.submit)
        let response = try #require(session.payload?.objectValue)
        #expect(response["resourceType"] == "QuestionnaireResponse")
        #expect(response["status"] != nil)
    }

    @Test("every Questionnaire of the corpus loads under the engine that renders it: both render every file but the two invalid ones; android-fhir renders the one naming a missing item", arguments: FHIRCorpus.questionnaires + ["invalid-lforms-enableWhen-missing-linkId.json"])
    func loadsUnderItsEngine(name: String) throws {
        let survey = try FHIRCorpus.load(name)
        let rendering = FHIREngine.allCases.filter { survey.problem(with: SessionSettings(options: [FHIRSurvey.engineOption: $0.rawValue])) == nil }
        // android-fhir's FHIRPath cannot lex the '_' in PHQ-9's variable names; both engines throw on the AUDIT file.
        let expected: [FHIREngine] =
            switch name {
            case _ where name.hasPrefix("invalid-"): [.androidFHIR]
            case "lforms-phq9.json", "lforms-enableWhenOnCalculatedValueFromFHIRPath.json": [.lhcForms]
            case "uwcirg-CIRG-CNICS-AUDIT.json": []
            default: [.lhcForms, .androidFHIR]
            }
        #expect(rendering == expected)
    }

    @Test("an enableWhen without question: neither engine renders it, so the file does not load; the error is located and names both")
    func invalidMissingQuestion() throws {
        let file = try FHIRCorpus.file("invalid-lforms-enableWhen-missing-question-field.json")
        do throws(InputError) {
            _ = try FormatRegistry.standard.load(file)
            Issue.record("expected it not to load")
        } catch {
            #expect(error.diagnostics.count == 1)
            let message = try #require(error.diagnostics.first?.message)
            #expect(message.contains("has no \"question\"") && message.contains("LHC-Forms refuses the file"))
            #expect(error.diagnostics.first?.position == SourcePosition(line: 27, column: 9))
        }
    }

    @Test("an enableWhen naming no item: LHC-Forms refuses the file (sdc-import.js:74-78), android-fhir renders it, the condition reading no answer")
    func invalidMissingLinkId() throws {
        let survey = try FHIRCorpus.load("invalid-lforms-enableWhen-missing-linkId.json")
        let refusal = try #require(survey.problem(with: SessionSettings(today: testToday)))
        #expect(refusal.contains("27:9") && refusal.contains("reads 'q11', which no item has") && refusal.contains("LHC-Forms refuses the file"))
        let android = SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: "android-fhir"])
        #expect(survey.problem(with: android) == nil)
        let session = survey.makeSession(android)
        #expect(session.visibleQuestions == ["q1"])
        session.play(.answer("q1", 5))
        #expect(session.visibleQuestions == ["q1", "q2"])
        let refused = survey.makeSession(SessionSettings(today: testToday))
        #expect(refused.visibleQuestions.isEmpty)
        #expect(refused.perform(.answer("q1", 5)).outcome.kind == .rejected)
    }

    @Test("lforms test-enablewhen: 4.3 (!= Diabetes) shows while 4.1 is unanswered, hides for Diabetes; android-fhir's reading hides it")
    func notEqualsOnUnanswered() throws {
        let session = try FHIRCorpus.session("lforms-test-enablewhen.json")
        #expect(session.visibleQuestions == ["4.1", "4.3", "4.5"])
        session.play(.answer("4.1", ["code": "Diabetes"]))
        #expect(session.visibleQuestions == ["4.1", "4.2", "4.5"])
        let android = try FHIRCorpus.session("lforms-test-enablewhen.json", options: [FHIRSurvey.notEqualsOption: "any-answer-differs"])
        #expect(android.visibleQuestions == ["4.1", "4.5"])
    }

    @Test("android-fhir paginated: page 2 shows once 1.1 (initially false) is answered true")
    func paginatedDependentAnswer() throws {
        let session = try FHIRCorpus.session("androidfhir-paginated_questionnaire_with_dependent_answer.json")
        #expect(session.answer(for: "1.1") == false)
        #expect(!session.isVisible("2"))
        session.play(.answer("1.1", true))
        #expect(session.isVisible("2"))
    }

    @Test("lforms extractObs: initial values apply (que-11 notwithstanding) and enable the chain of choices")
    func extractObsInitials() throws {
        let session = try FHIRCorpus.session("lforms-extractObs-test.json")
        #expect(session.visibleQuestions == ["blItem1", "choiceItem1", "choiceItem2", "blItem2", "blItem3"])
        session.play(.answer("blItem1", false))
        #expect(session.visibleQuestions == ["blItem1", "blItem2", "blItem3"])
    }

    @Test("uwcirg AUDIT: LHC-Forms throws as it opens (%patient is no declared launch context: fhirpath.js throws, and the undefined result is indexed); android-fhir too (an iif() of five arguments)")
    func auditThrowsAsItOpens() throws {
        let survey = try FHIRCorpus.load("uwcirg-CIRG-CNICS-AUDIT.json")
        let lhc = try #require(survey.problem(with: SessionSettings(today: testToday)))
        #expect(lhc.contains("TypeError") && lhc.contains("'AUDIT-2-not-male'") && lhc.contains("%patient is not defined"))
        let android = try #require(survey.problem(with: SessionSettings(today: testToday, options: [FHIRSurvey.engineOption: "android-fhir"])))
        #expect(android.contains("'AUDIT-1'") == false && android.contains("iif() takes 2 to 3 arguments"))
        // A patient given to the host changes nothing: the file declares no launch context.
        let patient: JSONValue = ["resourceType": "Patient", "gender": "male"]
        #expect(survey.problem(with: SessionSettings(today: testToday, launchContext: ["patient": patient])) == lhc)
    }

    @Test("generate covers what it can of the screener and names the rest")
    func generateScreener() throws {
        let survey = try FHIRCorpus.load("androidfhir-screener-questionnaire.json")
        let result = ScenarioGenerator(survey: survey, configuration: .init(walks: 3_000, patience: 600, settings: SessionSettings(today: testToday))).run()
        #expect(!result.scenarios.isEmpty)
        let decisions = result.report.branches.filter { $0.info.kind == .decision }
        #expect(decisions.count == 30)
        #expect(decisions.allSatisfy { $0.status.isTaken || $0.status.isImpossible })
    }
}
