import SurveyCore
import Testing

@testable import SurveyFormats

/// The server's answers to a save, a fetch, a dismissal and a claim, in its own order
/// (owlmetry/owlmetry@e9b6cab6 `apps/server/src/routes/questionnaire-ingest.ts`, `routes/identity.ts`).
@Suite("Owlmetry server")
struct OwlmetryServerTests {
    static let now = "2026-11-22T00:00:00.000Z"

    static func server() throws -> OwlmetryServer {
        let survey = try #require(try loadSurvey(text: OwlmetryTests.schema) as? OwlmetrySurvey)
        return OwlmetryServer(validator: survey.validator, schema: survey.schema)
    }

    static func reason(_ response: OwlmetryServer.SaveResponse) -> String {
        "\(response.http) \(response.reason ?? response.error ?? "")"
    }

    /// Correction 17, `questionnaire-ingest.ts:315-317`: an inactive questionnaire refuses every save, draft
    /// or completion, before anything else is looked at (dismissal, submitted row, answers).
    @Test("inactive: 409 on every save, draft or completion, before any other check")
    func inactiveFirst() throws {
        var server = try Self.server()
        _ = server.save(userID: "u", answers: ["q_text": "hi"], isComplete: true, at: Self.now)
        _ = server.dismiss(userID: "u")
        server.isActive = false
        #expect(Self.reason(server.save(userID: "u", answers: ["q_nps": 99], isComplete: false, at: Self.now)) == "409 inactive")
        #expect(Self.reason(server.save(userID: "u", answers: ["q_nps": 99], isComplete: true, at: Self.now)) == "409 inactive")
        #expect(Self.reason(server.save(userID: nil, answers: ["q_text": "hi"], isComplete: false, at: Self.now)) == "409 inactive")
    }

    /// `questionnaire-ingest.ts:341-366`: the global dismissal is looked up on completion only, and only
    /// with a user id; drafts of a dismissed user are saved.
    @Test("globally_dismissed: only a completion is refused; drafts are saved")
    func dismissedOnCompletionOnly() throws {
        var server = try Self.server()
        _ = server.dismiss(userID: "u")
        #expect(Self.reason(server.save(userID: "u", answers: ["q_text": "hi"], isComplete: false, at: Self.now)) == "201 ")
        #expect(Self.reason(server.save(userID: "u", answers: ["q_text": "hi"], isComplete: true, at: Self.now)) == "409 globally_dismissed")
        #expect(server.rows[0].status == "draft")
    }

    /// `questionnaire-ingest.ts:364-379`: on a completion the dismissal (`:364`) comes before the submitted
    /// row (`:377`); on a draft only the submitted row is checked.
    @Test("a dismissed user who already responded: globally_dismissed on completion, already_responded on a draft")
    func dismissedBeforeResponded() throws {
        var server = try Self.server()
        _ = server.save(userID: "u", answers: ["q_text": "hi"], isComplete: true, at: Self.now)
        _ = server.dismiss(userID: "u")
        #expect(Self.reason(server.save(userID: "u", answers: ["q_text": "x"], isComplete: true, at: Self.now)) == "409 globally_dismissed")
        #expect(Self.reason(server.save(userID: "u", answers: ["q_text": "x"], isComplete: false, at: Self.now)) == "409 already_responded")
    }

    /// `questionnaire-ingest.ts:377-391`: a submitted row refuses a save before its answers are validated.
    @Test("already_responded comes before validation: invalid answers to a submitted row get 409, not 400")
    func respondedBeforeValidation() throws {
        var server = try Self.server()
        _ = server.save(userID: "u", answers: ["q_text": "hi"], isComplete: true, at: Self.now)
        #expect(Self.reason(server.save(userID: "u", answers: ["q_nps": 99, "nope": 1], isComplete: false, at: Self.now)) == "409 already_responded")
        #expect(Self.reason(server.save(userID: "u", answers: ["q_nps": 99], isComplete: true, at: Self.now)) == "409 already_responded")
    }

    /// `questionnaire-ingest.ts:388-413`: the incoming set is validated as partial even on completion (400),
    /// merged per key, then on completion pruned and validated in full (400); a refused save leaves the row.
    @Test("validation last: the incoming set as partial, then the merged set in full on completion; a 400 changes nothing")
    func validationLast() throws {
        var server = try Self.server()
        #expect(Self.reason(server.save(userID: "u", answers: ["q_nps": 11], isComplete: false, at: Self.now)) == #"400 "q_nps" must be an integer 0-10"#)
        #expect(server.rows.isEmpty)
        _ = server.save(userID: "u", answers: ["q_pick": "no"], isComplete: false, at: Self.now)
        #expect(Self.reason(server.save(userID: "u", answers: ["q_nps": 3], isComplete: true, at: Self.now)) == #"400 "q_text" is required"#)
        #expect(server.rows[0].answers == ["q_pick": "no"])
        #expect(server.rows[0].submittedAt == nil)
        let done = server.save(userID: "u", answers: ["q_text": " kept as sent "], isComplete: true, at: Self.now)
        #expect(done == OwlmetryServer.SaveResponse(http: 200, row: 0, wasSubmitted: true))
        #expect(server.rows[0].answers == ["q_pick": "no", "q_text": " kept as sent "])
    }

    /// `questionnaires.ts:301-305` under `allowPartial: true` (`questionnaire-ingest.ts:388-391`): partial
    /// relaxes only the required check, so an unknown key refuses a draft as well, and nothing is written.
    @Test("an unknown answer key is a 400 even on a draft, and the row is left as it was")
    func unknownKeyOnDraft() throws {
        var server = try Self.server()
        #expect(Self.reason(server.save(userID: "u", answers: ["q_text": "hi", "q_gone": "x"], isComplete: false, at: Self.now)) == #"400 unknown question id "q_gone""#)
        #expect(server.rows.isEmpty)
        _ = server.save(userID: "u", answers: ["q_text": "hi"], isComplete: false, at: Self.now)
        #expect(Self.reason(server.save(userID: "u", answers: ["q_gone": "x"], isComplete: false, at: Self.now)) == #"400 unknown question id "q_gone""#)
        #expect(server.rows[0].answers == ["q_text": "hi"])
    }

    /// `questionnaire-ingest.ts:377-378` (a submitted row is refused before any write), `:470, 478-481` (the
    /// update only where `submitted_at IS NULL`, else 409), `:539, 546-549` (the insert's conflict path
    /// likewise), `:558`: a completion answered 2xx always flipped `submitted_at`. So the SDK's success page
    /// on any 2xx, whatever `was_submitted` says (Flow@50bf137b `submit()`), never shows for a submit that
    /// newly submitted nothing.
    @Test("a completion answered 2xx always has was_submitted true: a new row, a draft, no user id; a submitted row is 409")
    func completionAlwaysFlips() throws {
        var server = try Self.server()
        #expect(server.save(userID: "a", answers: ["q_text": "x"], isComplete: true, at: Self.now) == OwlmetryServer.SaveResponse(http: 201, row: 0, wasSubmitted: true))
        _ = server.save(userID: "b", answers: ["q_text": "x"], isComplete: false, at: Self.now)
        #expect(server.save(userID: "b", answers: [:], isComplete: true, at: Self.now) == OwlmetryServer.SaveResponse(http: 200, row: 1, wasSubmitted: true))
        #expect(server.save(userID: nil, answers: ["q_text": "x"], isComplete: true, at: Self.now) == OwlmetryServer.SaveResponse(http: 201, row: 2, wasSubmitted: true))
        #expect(Self.reason(server.save(userID: "b", answers: [:], isComplete: true, at: Self.now)) == "409 already_responded")
        #expect(server.rows.allSatisfy { $0.submittedAt != nil })
    }

    /// `questionnaire-ingest.ts:329-342, 439-552`: without a user id nothing is looked up, so every save
    /// inserts a row (201) and a completion is never refused as dismissed; a fetch has no draft.
    @Test("a client without a user id: a new row with every save, and no draft at the fetch")
    func noUserID() throws {
        var server = try Self.server()
        #expect(server.save(userID: nil, answers: ["q_text": "a"], isComplete: false, at: Self.now).http == 201)
        #expect(server.save(userID: "", answers: ["q_text": "b"], isComplete: true, at: Self.now).http == 201)
        #expect(server.rows.count == 2)
        #expect(server.fetch(userID: nil) == .eligible(inProgress: nil))
        #expect(server.dismiss(userID: nil).http == 400)
    }

    /// `questionnaire-ingest.ts:142, 171-223`: `force=true` passes over the dismissal and a submitted row
    /// (returning no draft), never over `inactive`.
    @Test("a forced fetch ignores dismissed and responded, never inactive, and returns no draft of a submitted row")
    func forcedFetch() throws {
        var server = try Self.server()
        _ = server.save(userID: "u", answers: ["q_text": "hi"], isComplete: true, at: Self.now)
        _ = server.dismiss(userID: "u")
        #expect(server.fetch(userID: "u") == .ineligible("globally_dismissed"))
        #expect(server.fetch(userID: "u", force: true) == .eligible(inProgress: nil))
        server.isActive = false
        #expect(server.fetch(userID: "u", force: true) == .ineligible("inactive"))
    }

    /// `identity.ts:180-220` and `:249-272`: a claim moves the anonymous row to the user when the user has
    /// none, soft-deletes it otherwise, carries the anonymous properties (the dismissal) over, and later calls
    /// with the anonymous id resolve to the user (`claimed-identity.ts:20-63`).
    @Test("a claim moves the anonymous draft, or soft-deletes it when the account has a row; the dismissal carries over")
    func claims() throws {
        var moving = try Self.server()
        _ = moving.save(userID: "owl_anon_a", answers: ["q_text": "draft"], isComplete: false, at: Self.now)
        #expect(moving.claim(anonymousID: "owl_anon_a", userID: "u") == .moved)
        #expect(moving.fetch(userID: "u") == .eligible(inProgress: ["q_text": "draft"]))
        #expect(moving.save(userID: "owl_anon_a", answers: ["q_pick": "yes"], isComplete: false, at: Self.now).http == 200)
        #expect(moving.rows.map(\.userID) == ["u"])
        #expect(moving.claim(anonymousID: "owl_anon_a", userID: "u") == .noRow)

        var deleting = try Self.server()
        _ = deleting.save(userID: "u", answers: ["q_text": "done"], isComplete: true, at: Self.now)
        _ = deleting.save(userID: "owl_anon_b", answers: ["q_text": "draft"], isComplete: false, at: Self.now)
        _ = deleting.dismiss(userID: "owl_anon_b")
        #expect(deleting.claim(anonymousID: "owl_anon_b", userID: "u") == .softDeleted)
        #expect(deleting.rows.count == 1)
        #expect(deleting.isDismissed("u"))
        #expect(deleting.fetch(userID: "owl_anon_b") == .ineligible("globally_dismissed"))
    }
}
