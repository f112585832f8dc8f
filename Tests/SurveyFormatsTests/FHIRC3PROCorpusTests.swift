import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// The C3-PRO sample data (`shared/corpus/c3pro/`, beside the clone). Without it the tests that read it are
/// reported as skipped, except under CI, where they fail.
enum C3PROCorpus {
    static let folder = Corpus.url("c3pro")

    static let questionnaires = ["Questionnaire-choices.json", "Questionnaire-dates.json", "Questionnaire-enableWhen.json", "Questionnaire-text-and-values.json"]
    /// Each sample response and the Questionnaire it answers (SOURCE.md).
    static let responses = [
        ("QuestionnaireResponse-choices.json", "Questionnaire-choices.json"), ("QuestionnaireResponse-dates.json", "Questionnaire-dates.json"),
        ("QuestionnaireResponse-textvalues.json", "Questionnaire-text-and-values.json"),
    ]
    static let settings = SessionSettings(today: testToday, profile: "c3pro")

    static func file(_ name: String) throws -> SourceFile {
        let url = folder.appendingPathComponent(name)
        return SourceFile(path: url.path, text: try String(contentsOf: url, encoding: .utf8))
    }

    static func load(_ name: String) throws -> FHIRSurvey {
        try #require(try FormatRegistry.standard.load(file(name)) as? FHIRSurvey)
    }

    /// The answers of a response, by id, as `import` reads them under the c3pro profile.
    static func answers(_ survey: FHIRSurvey, _ payload: SourceFile) throws -> [String: JSONValue] {
        let read = try survey.readPayload(JSONCursor(node: JSONParser.parse(payload)), settings: settings).answers
        return Dictionary(read.map { ($0.question, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

@Suite("FHIR c3pro corpus: C3-PRO's sample questionnaires and responses", .requires(.corpus))
struct FHIRC3PROCorpusTests {
    @Test("the corpus holds the files this suite names")
    func corpusListing() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: C3PROCorpus.folder.path).filter { $0.hasSuffix(".json") }
        #expect(Set(names) == Set(C3PROCorpus.questionnaires + C3PROCorpus.responses.map(\.0) + ["ValueSet-SF36.json"]))
    }

    @Test("each sample questionnaire loads, generated walks replay through it under c3pro, and Done emits C3-PRO's response", arguments: C3PROCorpus.questionnaires)
    func walks(name: String) throws {
        let survey = try C3PROCorpus.load(name)
        #expect(survey.task().reports.isEmpty && survey.task().buildFailure == nil)
        #expect(survey.problem(with: C3PROCorpus.settings) == nil && survey.problem(with: SessionSettings(profile: "r4")) == nil)
        var walker = Walker(survey: survey, settings: C3PROCorpus.settings, maxSteps: 60, builtInProperties: true, properties: nil)
        var submitted: [[Action]] = []
        for seed in 0..<20 {
            var stream = ChoiceStream(generator: SplitMix64(seed: UInt64(seed)))
            let outcome = walker.walk(&stream)
            #expect(outcome.findings.filter { $0.finding.kind == .engineError }.isEmpty, "\(outcome.findings.map(\.finding.message))")
            if outcome.submitted { submitted.append(outcome.actions) }
        }
        let walk = try #require(submitted.first)
        let session = survey.makeSession(C3PROCorpus.settings)
        for action in walk { _ = session.perform(action) }
        let response = try #require(session.payload?.objectValue)
        #expect(response["resourceType"] == "QuestionnaireResponse" && response["status"] == "completed" && response["authored"] == nil)
        #expect(response["questionnaire"] == ["reference": .string(survey.taskIdentifier)])
    }

    @Test("each sample response imports under c3pro, replays to Done without a problem, and the response built holds the same answers", arguments: C3PROCorpus.responses)
    func roundTrip(response: String, questionnaire: String) throws {
        let survey = try C3PROCorpus.load(questionnaire)
        let sample = try C3PROCorpus.answers(survey, C3PROCorpus.file(response))
        #expect(!sample.isEmpty)
        let imported = PayloadImporter(survey: survey, settings: C3PROCorpus.settings).importAnswers(sample.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        #expect(imported.problems.isEmpty, "\(imported.problems)")
        #expect(imported.actions.last == .submit)
        let session = survey.makeSession(C3PROCorpus.settings)
        for action in imported.actions { #expect(session.perform(action).outcome == .ok, "\(action)") }
        let payload = try #require(session.payload)
        #expect(payload.objectValue?["status"] == "completed" && payload.objectValue?["authored"] == nil)
        #expect(payload.objectValue?["questionnaire"] == ["reference": .string(survey.taskIdentifier)])
        let rebuilt = try C3PROCorpus.answers(survey, SourceFile(path: "response.json", text: CanonicalJSON.compact(payload)))
        #expect(rebuilt == sample)
    }

    @Test("the choices sample: the picker is skipped, and answering the first boolean true passes over the second")
    func choicesPath() throws {
        let survey = try C3PROCorpus.load("Questionnaire-choices.json")
        let sample = try C3PROCorpus.answers(survey, C3PROCorpus.file("QuestionnaireResponse-choices.json"))
        let imported = PayloadImporter(survey: survey, settings: C3PROCorpus.settings).importAnswers(sample.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let session = survey.makeSession(C3PROCorpus.settings)
        for action in imported.actions { _ = session.perform(action) }
        #expect(imported.actions.contains(.skip(question: nil)))
        #expect(session.visibleQuestions == ["choice-valueSet", "choice-valueSet-multi", "choice-picker", "choice-boolean-1", "final"])
    }

    @Test("the text-and-values sample: sliders 1…4 and 0…10, the second starting at 8 and vertical, answered as valueDecimal")
    func sliders() throws {
        let task = try C3PROCorpus.load("Questionnaire-text-and-values.json").task()
        let formats = task.steps.filter { $0.id.hasPrefix("intSlider") }.map(\.format)
        #expect(formats == [
            .scale(FHIRC3PROTask.Scale(min: 1, max: 4, defaultValue: 1, minLabel: "The label describing the minumum value on the left label. Long text is wrapping", maxLabel: "The right label")),
            .scale(FHIRC3PROTask.Scale(min: 0, max: 10, defaultValue: 8, minLabel: "The minimum", maxLabel: "A long label explaining what the maximum value means and why you might choose a high value")),
        ])
        #expect(task.steps.map(\.id) == ["valText", "valInteger", "valDecimal", "valQuantity", "group-1", "intSlider1", "intSlider2", "final"])
        #expect(task.steps[3].format == .quantity(unit: "hours"))
    }

    @Test("an options reference naming the ValueSet file beside the Questionnaire resolves to ValueSet-SF36.json")
    func valueSetBeside() throws {
        let text = #"{"resourceType": "Questionnaire", "id": "beside", "status": "draft", "item": [{"linkId": "q", "type": "choice", "options": {"reference": "ValueSet/SF36Answers3"}}]}"#
        let path = C3PROCorpus.folder.appendingPathComponent("Questionnaire-beside.json").path
        let survey = try #require(try FormatRegistry.standard.load(SourceFile(path: path, text: text)) as? FHIRSurvey)
        #expect(survey.item("q")?.options.map { $0.value.json.objectValue?["code"] } == ["1", "2", "3"])
        #expect(survey.task().reports.isEmpty)
    }
}
