import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// Owlmetry's schema validation (reference §3.1), answers (§3.2) and lifecycle (§3.3).
@Suite("Owlmetry")
struct OwlmetryTests {
    static let schema = #"""
        {"version": 1, "questions": [
          {"id": "q_text", "type": "text", "title": "Tell us", "required": true},
          {"id": "q_pick", "type": "single_choice", "title": "Pick one", "required": false, "options": [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}]},
          {"id": "q_nps", "type": "nps", "title": "Recommend?", "required": false}
        ]}
        """#

    static func session(_ options: [String: String] = [:], schema: String = schema) throws -> OwlmetrySession {
        let survey = try #require(try loadSurvey(text: schema) as? OwlmetrySurvey)
        return try #require(survey.makeSession(SessionSettings(today: testToday, options: options)) as? OwlmetrySession)
    }

    static func question(_ members: String) -> String { #"{"version": 1, "questions": [\#(members)]}"# }

    @Test(
        "every schema violation is a located error",
        arguments: [
            (#"{"version": 2, "questions": [{"id": "q", "type": "nps", "title": "T", "required": true}]}"#, "/version"),
            (#"{"version": 1, "questions": []}"#, "/questions"),
            (question(#"{"id": "Q-1", "type": "nps", "title": "T", "required": true}"#), "/questions/0/id"),
            (question(#"{"id": "\#(String(repeating: "a", count: 33))", "type": "nps", "title": "T", "required": true}"#), "/questions/0/id"),
            (question(#"{"id": "q", "type": "nps", "title": "T", "required": true}, {"id": "q", "type": "nps", "title": "U", "required": true}"#), "/questions/1"),
            (question(#"{"id": "q", "type": "stars", "title": "T", "required": true}"#), "/questions/0/type"),
            (question(#"{"id": "q", "type": "nps", "title": "  ", "required": true}"#), "/questions/0/title"),
            (question(#"{"id": "q", "type": "nps", "title": "\#(String(repeating: "t", count: 201))", "required": true}"#), "/questions/0/title"),
            (question(#"{"id": "q", "type": "nps", "title": "T", "subtitle": "\#(String(repeating: "s", count: 501))", "required": true}"#), "/questions/0/subtitle"),
            (question(#"{"id": "q", "type": "nps", "title": "T"}"#), "/questions/0"),
            (question(#"{"id": "q", "type": "nps", "title": "T", "required": "yes"}"#), "/questions/0/required"),
            (question(#"{"id": "q", "type": "text", "title": "T", "required": true, "placeholder": "\#(String(repeating: "p", count: 201))"}"#), "/questions/0/placeholder"),
            (question(#"{"id": "q", "type": "single_choice", "title": "T", "required": true, "options": [{"id": "a", "label": "A"}]}"#), "/questions/0/options"),
            (question(#"{"id": "q", "type": "multi_choice", "title": "T", "required": true, "options": [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]}"#), "/questions/0/options/1"),
            (question(#"{"id": "q", "type": "multi_choice", "title": "T", "required": true, "options": [{"id": "a", "label": ""}, {"id": "b", "label": "B"}]}"#), "/questions/0/options/0/label"),
            (question(#"{"id": "q", "type": "rating", "title": "T", "required": true, "scale": 10}"#), "/questions/0/scale"),
        ])
    func schemaViolations(text: String, pointer: String) {
        let errors = loadErrors(text: text)
        #expect(errors.map(\.pointer) == [pointer])
        #expect(errors.allSatisfy { $0.position != nil && $0.rule == "owl-schema" })
    }

    @Test("1 to 30 questions; 2 to 20 options")
    func counts() {
        let one = #"{"id": "q%d", "type": "nps", "title": "T", "required": false}"#
        let thirty = (0..<30).map { String(format: one, $0) }.joined(separator: ", ")
        #expect(throws: Never.self) { try loadSurvey(text: Self.question(thirty)) }
        #expect(loadErrors(text: Self.question(thirty + ", " + String(format: one, 30))).map(\.pointer) == ["/questions/30"])
        let options = (0..<21).map { #"{"id": "o\#($0)", "label": "O"}"# }
        let many = Self.question(#"{"id": "q", "type": "multi_choice", "title": "T", "required": true, "options": [\#(options.joined(separator: ", "))]}"#)
        #expect(loadErrors(text: many).map(\.pointer) == ["/questions/0/options"])
    }

    @Test("the validator's messages, and empty values counted as unanswered", .requires(.corpus))
    func validatorMessages() throws {
        let survey = try #require(try loadCorpus("owlmetry", "owlmetry_shared_test_all_types_schema.json") as? OwlmetrySurvey)
        let validator = survey.validator
        func problem(_ answers: [String: JSONValue], partial: Bool = true) -> String? {
            if case .failure(let error) = validator.validate(answers, allowPartial: partial) { return error.message }
            return nil
        }
        #expect(problem(["nope": 1]) == #"unknown question id "nope""#)
        #expect(problem(["q_text": 3]) == #""q_text" must be a string"#)
        #expect(problem(["q_single": "c"]) == #""c" is not a valid option for "q_single""#)
        #expect(problem(["q_multi": ["x", "x"]]) == #""q_multi" has duplicate selection"#)
        #expect(problem(["q_rate": 6]) == #""q_rate" must be an integer 1-5"#)
        #expect(problem(["q_nps": 4.5]) == #""q_nps" must be an integer 0-10"#)
        #expect(problem(["q_text": .string(String(repeating: "a", count: 4001))]) == #""q_text" exceeds 4000 chars"#)
        #expect(problem(["q_text": "  ", "q_single": "a"], partial: false) == #""q_text" is required"#)
        #expect(problem(["q_multi": [], "q_nps": .null]) == nil)
        #expect(try validator.validate(["q_text": " hi "], allowPartial: true).get() == ["q_text": "hi"])
    }

    @Test("afterLaunch: the first launch fetches and shows the consent sheet; accept opens page 1")
    func afterLaunch() throws {
        let session = try Self.session()
        #expect(session.perform(.answer("q_text", "x")).outcome.kind == .rejected)
        let launch = session.perform(.app(.launch))
        #expect(launch.events.map(\.name) == ["fetched"])
        #expect(session.screen == .consent)
        session.play(.app(.consent(.accept)))
        #expect(session.visibleQuestions == ["q_text"])
    }

    @Test("afterLaunches(3) shows it at the third launch; manual only when the app opens it")
    func launchCountsAndManual() throws {
        let third = try Self.session(["trigger": "afterLaunches(3)"])
        third.play(.app(.launch), .app(.launch))
        #expect(third.screen == .closed)
        third.play(.app(.launch))
        #expect(third.screen == .consent)
        let manual = try Self.session(["trigger": "manual"])
        manual.play(.app(.launch))
        #expect(manual.screen == .closed)
        manual.play(.app(.resume))
        #expect(manual.screen == .consent)
    }

    @Test("condition triggers are ANDed and checked at launch, foreground and wait")
    func conditions() throws {
        let session = try Self.session(["trigger": "conditions", "foregrounds": "2", "hoursSinceFirstLaunch": "12"])
        session.play(.app(.launch), .app(.foreground), .app(.foreground))
        #expect(session.screen == .closed)
        session.play(.app(.wait(seconds: 11 * 3600)))
        #expect(session.screen == .closed)
        let result = session.perform(.app(.wait(seconds: 3600)))
        #expect(result.events.map(\.name) == ["fetched"])
        #expect(session.screen == .consent)
    }

    @Test("consent later closes until the next launch; never writes the global dismissal")
    func consentOutcomes() throws {
        let later = try Self.session()
        later.play(.app(.launch), .app(.consent(.later)), .app(.foreground))
        #expect(later.screen == .closed)
        later.play(.app(.launch))
        #expect(later.screen == .consent)
        let never = try Self.session()
        never.play(.app(.launch))
        #expect(never.perform(.app(.consent(.never))).events.map(\.name) == ["dismissed"])
        #expect(never.hasEnded)
        let relaunch = never.perform(.app(.launch))
        #expect(relaunch.events.first?.detail == ["eligible": false, "reason": "globally_dismissed"])
    }

    @Test("Next saves the whole accumulated set as a draft, merged per key; required questions block Next and Submit")
    func draftsAndRequired() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)))
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.answer("q_text", "   "))
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.answer("q_text", "hi"))
        let first = session.perform(.tapNext)
        #expect(first.events.first?.name == "draft_saved")
        #expect(first.events.first?.detail?.objectValue?["http"] == 201)
        let second = session.perform(.tapNext)
        #expect(second.events.first?.detail?.objectValue?["answers"] == ["q_text": "hi"])
        #expect(second.events.first?.detail?.objectValue?["http"] == 200)
        #expect(session.isSubmittable)
        session.play(.answer("q_nps", 10), .submit)
        #expect(session.payload?.objectValue?["answers"] == ["q_text": "hi", "q_nps": 10])
        #expect(session.payload?.objectValue?["schema_snapshot"]?.objectValue?["questions"]?.arrayValue?.count == 3)
    }

    @Test("quit and resume: the draft comes back, consent is skipped, the first unanswered question is shown")
    func quitAndResume() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .answer("q_pick", "no"), .app(.quit))
        #expect(session.screen == .closed)
        let resumed = session.perform(.app(.resume))
        #expect(resumed.events.first?.detail == ["eligible": true, "in_progress": ["q_text": "hi"]])
        #expect(session.currentQuestion == "q_pick")
        #expect(session.answer(for: "q_pick") == nil)
    }

    @Test("submit flips submitted_at once; a later launch is told already_responded")
    func submitOnce() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .tapNext)
        let submit = session.perform(.submit)
        #expect(submit.events.first?.name == "submitted")
        #expect(submit.events.first?.detail?.objectValue?["was_submitted"] == true)
        #expect(session.hasEnded)
        #expect(session.perform(.app(.launch)).events.first?.detail == ["eligible": false, "reason": "already_responded"])
        #expect(session.submissions == 1)
    }

    @Test("a cleared answer survives the per-key merge, and the step checker says so")
    func clearedAnswerSurvives() throws {
        let session = try Self.session()
        let checker = session.survey.makeStepChecker()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .answer("q_pick", "yes"), .tapNext, .back, .clear(question: "q_pick"))
        let result = session.perform(.tapNext)
        #expect(result.events.first?.detail?.objectValue?["stored_answers"] == ["q_text": "hi", "q_pick": "yes"])
        #expect(checker.check(session, after: .tapNext, result: result).map(\.property) == ["cleared-answer-survives-merge"])
        session.play(.submit)
        #expect(session.payload?.objectValue?["answers"]?.objectValue?["q_pick"] == "yes")
    }

    @Test("anonymous saves create a new row each time, and the step checker says so")
    func anonymousRows() throws {
        let session = try Self.session(["user": "anonymous"])
        let checker = session.survey.makeStepChecker()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext)
        let result = session.perform(.tapNext)
        #expect(result.events.first?.detail?.objectValue?["http"] == 201)
        #expect(result.events.first?.detail?.objectValue?["user_id"] == .null)
        #expect(checker.check(session, after: .tapNext, result: result).map(\.property) == ["anonymous-saves-create-rows"])
        #expect(session.server.rows.count == 2)
    }

    @Test("server options: inactive, already responded and dismissed are ineligible at the fetch")
    func serverOptions() throws {
        for (options, reason) in [(["questionnaire": "inactive"], "inactive"), (["server": "responded"], "already_responded"), (["server": "dismissed"], "globally_dismissed")] {
            let session = try Self.session(options)
            #expect(session.perform(.app(.launch)).events.first?.detail == ["eligible": false, "reason": .string(reason)])
            #expect(session.screen == .closed)
        }
    }

    @Test("verbs Owlmetry lacks do not fit; an unknown option does not fit the survey")
    func verbs() throws {
        let session = try Self.session()
        #expect(session.perform(.skip(question: nil)).outcome.kind == .doesNotFit)
        #expect(session.perform(.goto(question: "q_text")).outcome.kind == .doesNotFit)
        let survey = try loadSurvey(text: Self.schema)
        #expect(survey.problem(with: SessionSettings(options: ["trigger": "afterLaunches(40)"])) != nil)
        #expect(survey.problem(with: SessionSettings(options: ["trigger": "afterLaunches(4)", "user": "anonymous"])) == nil)
    }
}
