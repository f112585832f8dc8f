import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// Every file of `shared/corpus/owlmetry/`: the four schemas loaded and replayed through a whole
/// lifecycle, and the wire examples of the server's ingest tests replayed against the server model.
@Suite("Owlmetry corpus", .requires(.corpus))
struct OwlmetryCorpusTests {
    static let schemas = [
        "owlmetry_cli_minimal_schema.json", "owlmetry_docs_text_questions_schema.json", "owlmetry_server_ingest_test_schema.json",
        "owlmetry_shared_test_all_types_schema.json",
    ]

    /// Under the SDK's identities (an account, or the persistent anonymous id) a respondent answers the first
    /// question, cancels, is resumed by the next launch at the second question, and submits once.
    @Test(
        "each schema loads; a respondent with an account or the anonymous id answers, cancels, resumes at the next launch and submits once",
        arguments: schemas, ["identified", "anonymous"])
    func schemaReplays(name: String, user: String) throws {
        let survey = try #require(try loadCorpus("owlmetry", name) as? OwlmetrySurvey)
        let settings = SessionSettings(today: testToday, options: ["user": user])
        let session = try #require(survey.makeSession(settings) as? OwlmetrySession)
        session.play(.app(.launch), .app(.consent(.accept)))
        for (index, question) in survey.questions.enumerated() {
            #expect(session.currentQuestion == question.id)
            session.play(.answer(question.id, survey.candidateValues(for: question.id, settings: settings)[0]))
            session.play(index + 1 < survey.questions.count ? .tapNext : .submit)
            if index == 0, survey.questions.count > 1 { session.play(.app(.quit), .app(.launch)) }
        }
        #expect(session.submissions == 1)
        #expect(session.server.rows.count == 1)
        #expect(session.payload?.objectValue?["answers"]?.objectValue?.count == survey.questions.count)
    }

    /// The lint findings of each corpus schema: none are errors; the docs' multiline question with a
    /// placeholder is the one the SDK draws without it.
    @Test("the corpus schemas lint without errors; the docs' multiline placeholder is reported as hidden")
    func corpusLint() throws {
        for name in Self.schemas {
            let text = try String(contentsOf: corpusURL("owlmetry", name), encoding: .utf8)
            let findings = FormatRegistry.standard.lint(SourceFile(path: name, text: text)).findings
            #expect(!findings.contains { $0.severity == .error }, Comment(rawValue: name))
            let expected = name == "owlmetry_docs_text_questions_schema.json" ? ["owl-optional-only", "owl-placeholder-hidden"] : []
            #expect(findings.compactMap(\.rule).filter { $0 != "owl-resume-on-skipped" } == expected, Comment(rawValue: name))
        }
    }

    /// The wire examples file: request and expected-result sequences.
    static func wireExamples() throws -> JSONValue {
        let text = try String(contentsOf: corpusURL("owlmetry", "owlmetry_wire_examples_from_tests.json"), encoding: .utf8)
        return try JSONParser.parse(SourceFile(path: "wire.json", text: text)).plain
    }

    static func server() throws -> OwlmetryServer {
        let survey = try #require(try loadCorpus("owlmetry", "owlmetry_server_ingest_test_schema.json") as? OwlmetrySurvey)
        return OwlmetryServer(validator: survey.validator, schema: survey.schema)
    }

    @Test(
        "each recorded sequence of saves gets the recorded server results",
        arguments: ["sequence_partial_saves_then_complete", "overwrite_same_key", "complete_with_required_missing", "partial_save_out_of_range"])
    func wireSequence(name: String) throws {
        let steps = try #require(try Self.wireExamples().objectValue?[name]?.arrayValue)
        var server = try Self.server()
        for (number, step) in steps.enumerated() {
            let request = try #require(step.objectValue?["request"]?.objectValue)
            let expect = try #require(step.objectValue?["expect"]?.objectValue)
            let response = server.save(
                userID: request["user_id"]?.stringValue, answers: request["answers"]?.objectValue ?? [:],
                isComplete: request["is_complete"]?.boolValue ?? false, at: "2026-11-22T00:00:00.000Z")
            let context = Comment(rawValue: "\(name) step \(number + 1)")
            #expect(expect["http"]?.numberValue == Double(response.http), context)
            if let wasSubmitted = expect["was_submitted"]?.boolValue { #expect(response.wasSubmitted == wasSubmitted, context) }
            if let reason = expect["reason"]?.stringValue { #expect(response.reason == reason, context) }
            if let mention = expect["error_mentions"]?.stringValue { #expect(response.error?.contains(mention) == true, context) }
            let row = server.rowIndex(for: request["user_id"]?.stringValue).map { server.rows[$0] }
            if let stored = expect["stored_answers"]?.objectValue { #expect(row?.answers == stored, context) }
            if let status = expect["status"]?.stringValue { #expect(row?.status == status, context) }
            if expect["row_still_draft"] == true { #expect(row?.status == "draft", context) }
            if let count = expect["schema_snapshot_question_count"]?.numberValue {
                #expect(row?.schemaSnapshot?.objectValue?["questions"]?.arrayValue?.count == Int(count), context)
            }
        }
    }

    @Test("a fetch after a draft answers eligible with the draft in progress; the three ineligible shapes")
    func fetchShapes() throws {
        let examples = try Self.wireExamples().objectValue
        let draft = try #require(examples?["fetch_with_draft"]?.objectValue)
        let request = try #require(draft["after_draft_request"]?.objectValue)
        var server = try Self.server()
        let userID = request["user_id"]?.stringValue
        _ = server.save(userID: userID, answers: request["answers"]?.objectValue ?? [:], isComplete: false, at: "2026-11-22T00:00:00.000Z")
        let expected = draft["GET_response_shape"]?.objectValue?["in_progress"]?.objectValue?["answers"]?.objectValue
        #expect(server.fetch(userID: userID) == .eligible(inProgress: expected))
        let reasons = (examples?["ineligible_response_shapes"]?.arrayValue ?? []).compactMap { $0.objectValue?["reason"]?.stringValue }
        #expect(reasons == ["inactive", "globally_dismissed", "already_responded"])
        var inactive = try Self.server()
        inactive.isActive = false
        var dismissed = try Self.server()
        _ = dismissed.dismiss(userID: "u")
        var responded = try Self.server()
        _ = responded.save(userID: "u", answers: ["q_text": "a", "q_choice": "no"], isComplete: true, at: "2026-11-22T00:00:00.000Z")
        #expect([inactive, dismissed, responded].map { $0.fetch(userID: "u") } == reasons.map { .ineligible($0) })
    }

    @Test("the same sequence driven through a session: the device's saves get the recorded results")
    func wireSequenceThroughASession() throws {
        let survey = try #require(try loadCorpus("owlmetry", "owlmetry_server_ingest_test_schema.json") as? OwlmetrySurvey)
        let session = try #require(survey.makeSession(SessionSettings(today: testToday)) as? OwlmetrySession)
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"))
        let saves = [
            session.perform(.tapNext), { session.play(.answer("q_choice", "yes")); return session.perform(.tapNext) }(),
            { session.play(.answer("q_rating", 4)); return session.perform(.tapNext) }(),
            { session.play(.answer("q_nps", 9)); return session.perform(.submit) }(),
        ]
        #expect(saves.map { $0.events[0].detail?.objectValue?["http"] } == [201, 200, 200, 200])
        #expect(saves.last?.events[0].detail?.objectValue?["was_submitted"] == true)
        #expect(session.payload?.objectValue?["answers"] == ["q_text": "hi", "q_choice": "yes", "q_rating": 4, "q_nps": 9])
        #expect(session.perform(.app(.launch)).events[0].detail == ["eligible": false, "reason": "already_responded"])
    }
}
