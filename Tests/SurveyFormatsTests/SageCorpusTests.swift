import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// Every file of `shared/corpus/sage/`, loaded, its generation detected, and replayed.
@Suite("Sage corpus", .requires(.corpus))
struct SageCorpusTests {
    static let files: [(name: String, generation: Sage.Generation)] = [
        ("assessmentmodel_sample_assessment.json", .assessment),
        ("assessmentmodel_surveyA.json", .assessment),
        ("assessmentmodel_surveyB.json", .assessment),
        ("sageresearch_FactoryTest_StepTransform.json", .v3),
        ("sageresearch_FactoryTest_TaskFoo.json", .v3),
        ("sageresearch_v2_FormStep_List.json", .legacy),
        ("sageresearch_v2_FormStep_Picker.json", .legacy),
        ("sageresearch_v2_FormStep_Textfield.json", .legacy),
    ]

    static func session(_ name: String) throws -> SageSession {
        let survey = try #require(try loadCorpus("sage", name) as? SageSurvey)
        return try #require(survey.makeSession(SessionSettings(today: testToday)) as? SageSession)
    }

    @Test("each corpus file loads as its generation, lints clean of errors, and replays to a finished task", arguments: files.map(\.name))
    func loadsAndReplays(name: String) throws {
        let expected = try #require(Self.files.first { $0.name == name }?.generation)
        let survey = try #require(try loadCorpus("sage", name) as? SageSurvey)
        #expect(survey.generation == expected)
        #expect(survey.format == "sage-\(expected.rawValue)")
        let text = try String(contentsOf: corpusURL("sage", name), encoding: .utf8)
        #expect(FormatRegistry.standard.lint(SourceFile(path: name, text: text)).findings.filter { $0.severity == .error }.isEmpty)
        // A respondent who takes the last value each step accepts (the candidates end with the values no
        // rule compares with: the plain path) and taps Next.
        let session = try Self.session(name)
        for _ in 0..<(survey.steps.count * 3) where !session.hasEnded {
            if let id = session.currentQuestion {
                for value in survey.candidateValues(for: id, settings: session.settings).reversed() where session.perform(.answer(id, value)).outcome == .ok { break }
            }
            #expect(session.perform(.tapNext).outcome == .ok)
        }
        #expect(session.hasEnded)
        #expect(Self.leafResults(session.payload) == session.history.count)
    }

    /// The number of step results in a result, inside sections too.
    static func leafResults(_ result: JSONValue?) -> Int {
        (result?.objectValue?["stepHistory"]?.arrayValue ?? []).reduce(0) { count, step in
            count + (step.objectValue?["stepHistory"] != nil ? leafResults(step) : 1)
        }
    }

    @Test("surveyA: false on followupQ jumps back to choiceQ1, whose skip goes to followupQ; ne Pizza skips the pizza step")
    func surveyA() throws {
        let session = try Self.session("assessmentmodel_surveyA.json")
        session.play(.tapNext, .answer("choiceQ1", 2), .tapNext)
        #expect(session.currentQuestion == "simpleQ2")
        #expect(session.perform(.answer("simpleQ2", 2030)).outcome.kind == .validationFailed)
        session.play(.answer("simpleQ2", 1990), .tapNext, .answer("followupQ", false), .tapNext)
        #expect(session.visibleQuestions == ["overview", "choiceQ1"])
        session.play(.skip(question: nil))
        #expect(session.currentQuestion == "followupQ")
        session.play(.answer("followupQ", true), .tapNext, .answer("favoriteFood", "Sushi"), .tapNext)
        #expect(session.currentQuestion == "multipleChoice")
        session.play(.back, .answer("favoriteFood", "Pizza"), .tapNext)
        #expect(session.currentQuestion == "pizza")
        session.play(.tapNext, .answer("multipleChoice", ["Blue", "Green-ish"]), .tapNext, .submit)
        #expect(stepHistory(session.payload) == ["overview", "choiceQ1", "followupQ", "favoriteFood", "pizza", "multipleChoice", "completion"])
        let choice = session.payload?.objectValue?["stepHistory"]?.arrayValue?[1].objectValue
        #expect(choice?["value"] == nil)
        #expect(choice?["answerType"] == ["type": "integer"])
    }

    @Test("sample_assessment: favoriteColor 1 goes to checkboxQuestion (eq 1), 4 and up to stringQuestion (ge 4)")
    func sampleAssessment() throws {
        for (color, target) in [(1, "checkboxQuestion"), (4, "stringQuestion"), (6, "stringQuestion"), (2, "otherChoice")] {
            let session = try Self.session("assessmentmodel_sample_assessment.json")
            session.play(.tapNext, .tapNext, .answer("feeling", [1, 3]), .tapNext, .answer("favoriteColor", .number(Double(color))), .tapNext)
            #expect(session.currentQuestion == target, "favoriteColor \(color)")
        }
        let session = try Self.session("assessmentmodel_sample_assessment.json")
        session.play(.tapNext, .tapNext)
        #expect(session.perform(.answer("feeling", [1, 4])).outcome.kind == .rejected)
    }

    @Test("surveyB: steps in sections are named by their section, and the result groups them in section results")
    func surveyB() throws {
        let session = try Self.session("assessmentmodel_surveyB.json")
        #expect(session.survey.questionIDs == ["overview", "colors/choice1", "colors/choice2", "foods/choice1", "foods/choice2", "completion"])
        session.play(.tapNext, .answer("colors/choice1", "Blue"), .tapNext, .answer("colors/choice2", "Red"), .tapNext)
        session.play(.answer("foods/choice1", "Pizza"), .tapNext, .answer("foods/choice2", "Hamburger"), .tapNext, .submit)
        #expect(stepHistory(session.payload) == ["overview", "colors", "foods", "completion"])
        let colors = session.payload?.objectValue?["stepHistory"]?.arrayValue?[1].objectValue
        #expect(colors?["type"] == "section")
        #expect(stepHistory(colors.map(JSONValue.object)) == ["choice1", "choice2"])
    }

    @Test("TaskFoo and StepTransform: step3 answered 1900 matches the default eq rule, whose default target exit ends the task")
    func taskFoo() throws {
        let task = try Self.session("sageresearch_FactoryTest_TaskFoo.json")
        task.play(.tapNext, .tapNext)
        // step3 is not optional, but its skipCheckbox offers a skip; a skipped year matches no eq rule.
        #expect(task.perform(.skip(question: nil)).outcome == .ok)
        #expect(task.currentQuestion == "step4/step1")
        let exit = try Self.session("sageresearch_FactoryTest_TaskFoo.json")
        exit.play(.tapNext, .tapNext, .answer("step3", 1900), .tapNext)
        #expect(exit.ending == .exit)
        let goOn = try Self.session("sageresearch_FactoryTest_TaskFoo.json")
        goOn.play(.tapNext, .tapNext, .answer("step3", 1901), .tapNext)
        #expect(goOn.currentQuestion == "step4/step1")
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
