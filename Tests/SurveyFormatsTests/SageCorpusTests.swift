import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// Every file of `shared/corpus/sage/`, loaded, its generation detected, and replayed under each profile
/// that renders it.
@Suite("Sage corpus", .requires(.corpus))
struct SageCorpusTests {
    static let files: [(name: String, generation: Sage.Generation, profiles: [String])] = [
        ("assessmentmodel_sample_assessment.json", .assessment, ["assessment"]),
        ("assessmentmodel_surveyA.json", .assessment, ["assessment"]),
        ("assessmentmodel_surveyB.json", .assessment, ["assessment"]),
        ("sageresearch_FactoryTest_StepTransform.json", .v3, ["sage-4", "sage-4.5", "sage-4.4", "sage-4.0", "sage-3.5", "sage-3.4", "sage-3.3"]),
        ("sageresearch_FactoryTest_TaskFoo.json", .v3, ["sage-4", "sage-4.5", "sage-4.4", "sage-4.0", "sage-3.5", "sage-3.4", "sage-3.3"]),
        ("sageresearch_v2_FormStep_List.json", .legacy, ["sage-3.5", "sage-3.4", "sage-3.3", "sage-2"]),
        ("sageresearch_v2_FormStep_Picker.json", .legacy, ["sage-3.5", "sage-3.4", "sage-3.3", "sage-2"]),
        ("sageresearch_v2_FormStep_Textfield.json", .legacy, ["sage-3.5", "sage-3.4", "sage-3.3", "sage-2"]),
    ]

    /// Each file under each profile and, for AssessmentModel, each implementation.
    static let runs: [(name: String, profile: String, options: [String: String])] = files.flatMap { file in
        file.profiles.flatMap { profile in
            file.generation == .assessment
                ? [(file.name, profile, ["implementation": "swift"]), (file.name, profile, ["implementation": "kotlin"])]
                : [(file.name, profile, [:])]
        }
    }

    static func session(_ name: String, profile: String? = nil, options: [String: String] = [:]) throws -> SageSession {
        let survey = try #require(try loadCorpus("sage", name) as? SageSurvey)
        let settings = SessionSettings(today: testToday, profile: profile, options: options)
        #expect(survey.problem(with: settings) == nil)
        return try #require(survey.makeSession(settings) as? SageSession)
    }

    @Test("each corpus file loads as its generation, offers exactly the profiles that render it, and lints clean of errors", arguments: files.map(\.name))
    func loads(name: String) throws {
        let file = try #require(Self.files.first { $0.name == name })
        let survey = try #require(try loadCorpus("sage", name) as? SageSurvey)
        #expect(survey.generation == file.generation)
        #expect(survey.profiles == file.profiles)
        let text = try String(contentsOf: corpusURL("sage", name), encoding: .utf8)
        #expect(FormatRegistry.standard.lint(SourceFile(path: name, text: text)).findings.filter { $0.severity == .error }.isEmpty)
    }

    @Test("each corpus file replays to a finished task with its result under each profile that renders it", arguments: runs.indices)
    func replays(run: Int) throws {
        let (name, profile, options) = Self.runs[run]
        let survey = try #require(try loadCorpus("sage", name) as? SageSurvey)
        let session = try Self.session(name, profile: profile, options: options)
        // A respondent who takes the last value each step accepts (the values no rule compares with: the
        // plain path) and taps Next, or Skip where Next is refused.
        for _ in 0..<(survey.steps.count * 4) where !session.hasEnded {
            if let id = session.currentQuestion {
                for value in survey.candidateValues(for: id, settings: session.settings).reversed() where session.perform(.answer(id, value)).outcome == .ok { break }
            }
            if session.perform(.tapNext).outcome != .ok { #expect(session.perform(.skip(question: nil)).outcome == .ok, "\(name) \(profile)") }
        }
        #expect(session.hasEnded, "\(name) \(profile)")
        #expect(session.payload?.objectValue?["stepHistory"] != nil, "\(name) \(profile)")
    }

    @Test("surveyA (Swift): false on followupQ goes to choiceQ1 again, its Skip matches the null rule, ne Pizza skips the pizza step; every visit stays in the result")
    func surveyA() throws {
        let session = try Self.session("assessmentmodel_surveyA.json")
        session.play(.tapNext, .answer("choiceQ1", 2), .tapNext)
        #expect(session.currentQuestion == "simpleQ2")
        #expect(session.perform(.answer("simpleQ2", 2030)).outcome.kind == .validationFailed)
        session.play(.answer("simpleQ2", 1990), .tapNext, .answer("followupQ", false), .tapNext)
        #expect(session.currentQuestion == "choiceQ1")
        #expect(session.answer(for: "choiceQ1") == 2)
        session.play(.skip(question: nil))
        #expect(session.currentQuestion == "followupQ")
        session.play(.answer("followupQ", true), .tapNext, .answer("favoriteFood", "Sushi"), .tapNext)
        #expect(session.currentQuestion == "multipleChoice")
        session.play(.back, .answer("favoriteFood", "Pizza"), .tapNext)
        #expect(session.currentQuestion == "pizza")
        session.play(.tapNext, .answer("multipleChoice", ["Blue"]), .tapNext, .submit)
        #expect(
            historyNames(session.payload) == [
                "overview", "choiceQ1", "simpleQ2", "followupQ", "choiceQ1", "followupQ", "favoriteFood", "multipleChoice", "favoriteFood", "pizza",
                "multipleChoice", "completion",
            ])
        let payload = try #require(session.payload?.objectValue)
        #expect(payload["type"] == "assessment")
        #expect(payload["versionString"] == "1.0.0")
        let skipped = payload["stepHistory"]?.arrayValue?[4].objectValue
        #expect(skipped?["value"] == nil)
        #expect(skipped?["answerType"] == ["type": "integer"])
    }

    @Test("sample_assessment: favoriteColor 1 goes to checkboxQuestion (eq 1), 4 and up to stringQuestion (ge 4); Back is hidden for the whole assessment")
    func sampleAssessment() throws {
        for (color, target) in [(1, "checkboxQuestion"), (4, "stringQuestion"), (6, "stringQuestion"), (2, "otherChoice")] {
            let session = try Self.session("assessmentmodel_sample_assessment.json")
            session.play(.tapNext, .tapNext, .answer("feeling", [1, 3]), .tapNext, .answer("favoriteColor", .number(Double(color))), .tapNext)
            #expect(session.currentQuestion == target, "favoriteColor \(color)")
            #expect(session.perform(.back).outcome.kind == .rejected)
        }
        let session = try Self.session("assessmentmodel_sample_assessment.json")
        session.play(.tapNext, .tapNext)
        #expect(session.perform(.answer("feeling", [1, 4])).outcome.kind == .rejected)
        // Skipping favoriteColor: Swift's ge 4 holds against the skipped answer, Kotlin's does not.
        let swift = try Self.session("assessmentmodel_sample_assessment.json")
        swift.play(.tapNext, .tapNext, .skip(question: nil), .skip(question: nil))
        #expect(swift.currentQuestion == "stringQuestion")
        let kotlin = try Self.session("assessmentmodel_sample_assessment.json", options: ["implementation": "kotlin"])
        kotlin.play(.tapNext, .tapNext, .skip(question: nil), .skip(question: nil))
        #expect(kotlin.currentQuestion == "otherChoice")
    }

    @Test("surveyB: steps in sections are named by their section; section results are appended when the section starts")
    func surveyB() throws {
        let session = try Self.session("assessmentmodel_surveyB.json")
        #expect(session.survey.questionIDs == ["overview", "colors/choice1", "colors/choice2", "foods/choice1", "foods/choice2", "completion"])
        session.play(.tapNext, .answer("colors/choice1", "Blue"), .tapNext, .answer("colors/choice2", "Red"), .tapNext)
        session.play(.answer("foods/choice1", "Pizza"), .tapNext, .answer("foods/choice2", "Hamburger"), .tapNext, .submit)
        #expect(historyNames(session.payload) == ["overview", "colors", "foods", "completion"])
        let colors = session.payload?.objectValue?["stepHistory"]?.arrayValue?[1]
        #expect(colors?.objectValue?["type"] == "section")
        #expect(historyNames(colors) == ["choice1", "choice2"])
        #expect(pathNames(colors) == ["choice1", "choice2"])
    }

    @Test("TaskFoo and StepTransform: step3 is required and its skip checkbox stores null; 1900 matches the default eq rule, whose default target exit ends the task")
    func taskFoo() throws {
        for profile in SageEngine.profiles(for: .v3) {
            let task = try Self.session("sageresearch_FactoryTest_TaskFoo.json", profile: profile)
            task.play(.tapNext, .tapNext)
            #expect(task.perform(.tapNext).outcome.kind == .rejected)
            #expect(task.perform(.skip(question: nil)).outcome.kind == .rejected)
            task.play(.answer("step3", .null), .tapNext)
            #expect(task.currentQuestion == "step4/step1", "\(profile)")
            let exit = try Self.session("sageresearch_FactoryTest_TaskFoo.json", profile: profile)
            exit.play(.tapNext, .tapNext, .answer("step3", 1900), .tapNext)
            #expect(exit.ending == .exit, "\(profile)")
        }
        let single = try Self.session("sageresearch_FactoryTest_StepTransform.json")
        #expect(single.survey.questionIDs == ["step3"])
        single.play(.answer("step3", 1900), .tapNext)
        #expect(single.ending == .exit)
    }

    @Test("the legacy catalog forms: a field without an identifier takes the step's; an exclusive choice stands alone")
    func legacyForms() throws {
        let list = try Self.session("sageresearch_v2_FormStep_List.json")
        #expect(list.survey.steps[0].fields.map(\.id) == ["selectOne"])
        #expect(list.survey.steps[1].fields[0].shape == Sage.ValueShape(base: .integer, isArray: true))
        #expect(list.perform(.tapNext).outcome.kind == .rejected)
        list.play(.answer("selectOne", "Bravo"), .tapNext)
        #expect(list.perform(.answer("selectMultiple", [1, 0])).outcome.kind == .rejected)
        list.play(.answer("selectMultiple", [0]), .tapNext)
        let picker = try Self.session("sageresearch_v2_FormStep_Picker.json")
        picker.play(.answer("selectOne", "Alfa"), .tapNext, .answer("imageList", 3), .tapNext)
        #expect(picker.perform(.answer("multipleInputs", ["number": 4])).outcome.kind == .validationFailed)
        #expect(picker.perform(.answer("multipleInputs", ["date": "2026-11-21"])).outcome.kind == .validationFailed)
        #expect(picker.perform(.answer("multipleInputs", ["multipleComponent": ["red", "cat"]])).outcome == .ok)
        let textfield = try Self.session("sageresearch_v2_FormStep_Textfield.json")
        textfield.play(.answer("step4", ["number": 3, "duration": 60]), .tapNext, .answer("postalCode", "981"), .tapNext)
        #expect(textfield.survey.steps[3].fields.map(\.id) == ["year"])
    }
}
