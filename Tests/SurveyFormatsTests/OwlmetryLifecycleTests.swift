import SurveyCore
import Testing

@testable import SurveyFormats

/// The app with the Owlmetry Swift SDK around a questionnaire: when the gate presents it, the consent
/// detent, the flow's saves and errors, manual presentation and identity. SDK sources are cited as
/// owlmetry/owlmetry-swift@<revision> <path>:<lines> (see docs/owlmetry.md); `Gate` is
/// `Sources/Owlmetry/SwiftUI/Questionnaire/OwlQuestionnaireModifier.swift`, `Flow` is
/// `…/OwlQuestionnaireFlowContainer.swift`, `Store` is `…/OwlQuestionnaireAnswerStore.swift`.
@Suite("Owlmetry lifecycle")
struct OwlmetryLifecycleTests {
    static func session(_ options: [String: String] = [:]) throws -> OwlmetrySession {
        try OwlmetryTests.session(options)
    }

    static func names(_ result: StepResult) -> [String] { result.events.map(\.name) }

    static func detail(_ result: StepResult, _ name: String) -> [String: JSONValue]? {
        result.events.first { $0.name == name }?.detail?.objectValue
    }

    /// Gate@17d5bac0:50-54 (`.task` when the gate appears, `evaluate(force: true)` on willEnterForeground),
    /// `OwlQuestionnaireTrigger.swift`@c0924803:43-52 (`afterLaunch` is `launches ≥ 1`).
    @Test("afterLaunch: the first launch fetches and shows the consent detent; accept opens page 1")
    func afterLaunch() throws {
        let session = try Self.session()
        #expect(session.perform(.answer("q_text", "x")).outcome.kind == .rejected)
        #expect(Self.names(session.perform(.app(.launch))) == ["fetched", "consent_shown"])
        #expect(session.screen == .consent)
        session.play(.app(.consent(.accept)))
        #expect(session.visibleQuestions == ["q_text"])
    }

    /// Correction 19, Gate@17d5bac0:50-54 and `OwlQuestionnaireState.swift`@c0924803:76-91: the conditions are
    /// read only when the gate is evaluated (it appears, or willEnterForeground); there is no timer.
    @Test("a time condition that comes true in the foreground presents nothing until the next foreground")
    func noTimer() throws {
        let session = try Self.session(["trigger": "conditions", "foregrounds": "2", "hoursSinceFirstLaunch": "12"])
        session.play(.app(.launch), .app(.foreground), .app(.foreground))
        #expect(session.screen == .closed)
        #expect(session.perform(.app(.wait(seconds: 13 * 3600))).events.isEmpty)
        #expect(session.screen == .closed)
        #expect(Self.names(session.perform(.app(.foreground))) == ["fetched", "consent_shown"])
        #expect(session.screen == .consent)
    }

    /// `Owl.swift`@50bf137b `configureWith` creates the `LifecycleObserver` only `if config.flushOnBackground`;
    /// its willEnterForeground observer (Lifecycle@c0924803:33-41) is the only caller of `incrementForeground`.
    /// The gate observes the notification itself (Gate@17d5bac0:51-53), so it still evaluates on foreground.
    @Test("flushOnBackground false: foregrounds are never counted, so a foregrounds condition never holds; the gate still evaluates")
    func foregroundsNeedTheLifecycleObserver() throws {
        let counted = try Self.session(["trigger": "conditions", "foregrounds": "2"])
        counted.play(.app(.launch), .app(.foreground))
        #expect(Self.names(counted.perform(.app(.foreground))) == ["fetched", "consent_shown"])
        let uncounted = try Self.session(["trigger": "conditions", "foregrounds": "2", "flushOnBackground": "false"])
        uncounted.play(.app(.launch))
        for _ in 0..<5 { #expect(uncounted.perform(.app(.foreground)).events.isEmpty) }
        #expect(uncounted.foregrounds == 0)
        #expect(uncounted.screen == .closed)
        let evaluated = try Self.session(["flushOnBackground": "false", "server": "responded"])
        evaluated.play(.app(.launch))
        #expect(Self.detail(evaluated.perform(.app(.foreground)), "fetched")?["reason"] == "already_responded")
        let launches = try Self.session(["trigger": "afterLaunches(2)", "flushOnBackground": "false"])
        launches.play(.app(.launch))
        #expect(Self.names(launches.perform(.app(.launch))) == ["fetched", "consent_shown"])
    }

    /// `OwlQuestionnaireTrigger.swift`@c0924803:49-52, Gate@17d5bac0:50: `afterLaunches(3)` is `launches ≥ 3`,
    /// read when the gate appears in each process; a foreground before the third launch presents nothing.
    @Test("afterLaunches(3) presents at the third launch, not on a foreground before it")
    func thirdLaunch() throws {
        let session = try Self.session(["trigger": "afterLaunches(3)"])
        session.play(.app(.launch), .app(.launch), .app(.foreground))
        #expect(session.screen == .closed)
        session.play(.app(.launch))
        #expect(session.screen == .consent)
    }

    /// Correction 19, Gate@17d5bac0:96, 104-109 and `Owl.swift`@50bf137b `questionnaireWasShownThisProcess`,
    /// `markQuestionnaireShown`: once presented, later evaluations of the process return at once; a new
    /// process (launch) forgets it.
    @Test("a slug is presented at most once per process: later, then foregrounds, present nothing until the next launch")
    func oncePerProcess() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.later)))
        #expect(session.perform(.app(.foreground)).events.isEmpty)
        #expect(session.screen == .closed)
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .app(.quit))
        #expect(session.perform(.app(.foreground)).events.isEmpty)
        #expect(session.shownThisProcess)
        session.play(.app(.launch))
        #expect(session.currentQuestion == "q_pick")
        #expect(session.gatePresentationsThisProcess == 1)
    }

    /// Gate@17d5bac0:102-117: an ineligible answer or a failed fetch marks nothing, so the next foreground
    /// fetches again.
    @Test("an ineligible fetch marks nothing: every foreground fetches again")
    func ineligibleRetries() throws {
        let session = try Self.session(["server": "responded"])
        #expect(Self.detail(session.perform(.app(.launch)), "fetched") == ["eligible": false, "reason": "already_responded"])
        #expect(Self.names(session.perform(.app(.foreground))) == ["fetched"])
        #expect(!session.shownThisProcess)
        #expect(session.hasEnded)
    }

    /// Gate@17d5bac0:100: `isEligible` false stops the evaluation before the fetch; manual presentation does
    /// not go through the gate.
    @Test("isEligible false: the gate never fetches; the app can still present it by hand")
    func notEligible() throws {
        let session = try Self.session(["isEligible": "false"])
        #expect(session.perform(.app(.launch)).events.isEmpty)
        #expect(session.perform(.app(.foreground)).events.isEmpty)
        #expect(Self.names(session.perform(.app(.resume))) == ["fetched", "page"])
    }

    /// Gate@17d5bac0:91-109, 167-171: `forceShow` skips the per-process mark, `.manual`, the conditions and
    /// `isEligible`, fetches with `force=true` and does not mark the slug shown.
    @Test("forceShow: every local gate skipped, a forced fetch, no shown mark, so a foreground after Cancel presents it again")
    func forceShow() throws {
        let session = try Self.session(["forceShow": "true", "trigger": "manual", "isEligible": "false", "server": "dismissed"])
        #expect(Self.detail(session.perform(.app(.launch)), "fetched") == ["eligible": true, "force": true])
        session.play(.app(.consent(.accept)), .app(.quit))
        #expect(Self.names(session.perform(.app(.foreground))) == ["fetched", "consent_shown"])
        #expect(!session.shownThisProcess)
        let inactive = try Self.session(["forceShow": "true", "questionnaire": "inactive"])
        #expect(Self.detail(inactive.perform(.app(.launch)), "fetched") == ["eligible": false, "force": true, "reason": "inactive"])
    }

    /// Correction 19, `OwlQuestionnaireView.swift`@50bf137b:37-40: manual presentation defaults
    /// `showsConsent: false` and `inProgress: nil`; Flow@50bf137b:81-86: with a draft passed it resumes at
    /// the first unanswered question, consent skipped.
    @Test("manual presentation opens on question 1 without consent, and drops the draft unless the app passes it")
    func manualPresentation() throws {
        let manual = try Self.session(["trigger": "manual"])
        #expect(manual.perform(.app(.launch)).events.isEmpty)
        manual.play(.app(.resume), .answer("q_text", "hi"), .tapNext, .app(.quit))
        let again = manual.perform(.app(.resume))
        #expect(Self.detail(again, "fetched")?["in_progress"] == ["q_text": "hi"])
        #expect(manual.currentQuestion == "q_text")
        #expect(manual.answer(for: "q_text") == nil)

        let passed = try Self.session(["trigger": "manual", "manualDraft": "passed", "showsConsent": "true"])
        passed.play(.app(.launch), .app(.resume))
        #expect(passed.screen == .consent)
        passed.play(.app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .app(.quit), .app(.resume))
        #expect(passed.currentQuestion == "q_pick")
    }

    /// Only the gate reads and sets the per-process mark (Gate@17d5bac0:96, 105-107; `Owl.swift`@50bf137b
    /// `questionnaireWasShownThisProcess`, `markQuestionnaireShown`); `OwlQuestionnaireView` (View@50bf137b)
    /// touches neither.
    @Test("manual presentation ignores the per-process mark and sets none: the app presents it after the gate did, and the gate still presents after the app did")
    func manualIgnoresTheMark() throws {
        let afterGate = try Self.session()
        afterGate.play(.app(.launch), .app(.consent(.later)))
        #expect(afterGate.shownThisProcess)
        #expect(Self.names(afterGate.perform(.app(.resume))) == ["fetched", "page"])
        #expect(afterGate.gatePresentationsThisProcess == 1)
        let beforeGate = try Self.session(["trigger": "conditions", "foregrounds": "1"])
        beforeGate.play(.app(.launch))
        #expect(Self.names(beforeGate.perform(.app(.resume))) == ["fetched", "page"])
        beforeGate.play(.app(.quit))
        #expect(!beforeGate.shownThisProcess)
        #expect(Self.names(beforeGate.perform(.app(.foreground))) == ["fetched", "consent_shown"])
        #expect(beforeGate.shownThisProcess)
    }

    /// Gate@17d5bac0:69 and :168: the modifier shows consent by default, `showsConsent: false` opens page 1.
    @Test("the modifier with showsConsent false opens straight on page 1")
    func modifierWithoutConsent() throws {
        let session = try Self.session(["showsConsent": "false"])
        #expect(Self.names(session.perform(.app(.launch))) == ["fetched", "page"])
        #expect(session.currentQuestion == "q_text")
    }

    /// Flow@50bf137b:314-317 (later: dismiss, no server call), :398-411 (never: the dismissal, then close).
    @Test("consent later closes without a server write; never writes the global dismissal")
    func consentOutcomes() throws {
        let later = try Self.session()
        later.play(.app(.launch))
        #expect(later.perform(.app(.consent(.later))).events.isEmpty)
        #expect(later.server.rows.isEmpty)
        let never = try Self.session()
        never.play(.app(.launch))
        #expect(Self.names(never.perform(.app(.consent(.never)))) == ["dismissed"])
        #expect(never.hasEnded)
        #expect(Self.detail(never.perform(.app(.launch)), "fetched") == ["eligible": false, "reason": "globally_dismissed"])
    }

    /// Flow@50bf137b:398-411: a failed dismissal sets the error alert and the sheet stays on consent;
    /// `EventTransport.swift`@50bf137b `submitQuestionnaireDismiss` maps any refusal to `serverError`.
    @Test("a failed dismissal keeps the consent sheet up with its error")
    func failedDismissal() throws {
        let offline = try Self.session(["network": "offlineAfterFetch"])
        offline.play(.app(.launch))
        let result = offline.perform(.app(.consent(.never)))
        #expect(result.outcome.kind == .rejected)
        #expect(Self.names(result) == ["dismiss_failed", "alert"])
        #expect(offline.screen == .consent)
        let noUser = try Self.session(["user": "none"])
        noUser.play(.app(.launch))
        let refused = noUser.perform(.app(.consent(.never)))
        #expect(refused.events.last?.detail == .string(#"Server returned 400: {"error":"user_id is required to dismiss questionnaires"}"#))
        #expect(noUser.screen == .consent)
    }

    /// Flow@50bf137b:252-301 (Next disabled on an unanswered required question; Next saves then advances),
    /// :381-396 (the whole collected set, nothing when empty), `questionnaire-ingest.ts:395-397, 595`.
    @Test("Next saves the whole collected set as a draft, merged per key; required questions block Next")
    func draftsAndRequired() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)))
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.answer("q_text", "   "))
        #expect(session.perform(.tapNext).outcome.kind == .rejected)
        session.play(.answer("q_text", "hi"))
        let first = session.perform(.tapNext)
        #expect(Self.detail(first, "draft_saved")?["http"] == 201)
        let second = session.perform(.tapNext)
        #expect(Self.detail(second, "draft_saved")?["answers"] == ["q_text": "hi"])
        #expect(Self.detail(second, "draft_saved")?["http"] == 200)
        #expect(session.isSubmittable)
        session.play(.answer("q_nps", 10), .submit)
        #expect(session.payload?.objectValue?["answers"] == ["q_text": "hi", "q_nps": 10])
        #expect(session.payload?.objectValue?["schema_snapshot"]?.objectValue?["questions"]?.arrayValue?.count == 3)
    }

    /// Correction 16, Store@50bf137b:64-84: the SDK trims text before sending and leaves blank text out; the
    /// server stores what it receives (`questionnaires.ts:332`); the draft_saved event shows what was sent.
    @Test("the SDK sends text trimmed, and the server stores it as sent")
    func sdkTrims() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "  hi there \n"))
        let saved = Self.detail(session.perform(.tapNext), "draft_saved")
        #expect(saved?["answers"] == ["q_text": "hi there"])
        #expect(saved?["stored_answers"] == ["q_text": "hi there"])
        #expect(session.answer(for: "q_text") == "  hi there \n")
    }

    /// Store@50bf137b:64-84: a multiple choice is held as a set and sent as `Array(set).sorted()`, so by option
    /// id: neither the order of the taps nor the order of the options in the schema.
    @Test("a multiple choice is sent sorted by option id, not in tap order or schema order")
    func multipleChoiceSortedByID() throws {
        let schema = OwlmetryTests.question(#"""
            {"id": "q_many", "type": "multi_choice", "title": "Pick", "required": true, "options": [{"id": "zeta", "label": "Z"}, {"id": "mid", "label": "M"}, {"id": "alpha", "label": "A"}]},
            {"id": "q_nps", "type": "nps", "title": "Recommend?", "required": false}
            """#)
        let session = try OwlmetryTests.session(schema: schema)
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_many", ["zeta", "alpha", "mid"]))
        let saved = Self.detail(session.perform(.tapNext), "draft_saved")
        #expect(saved?["answers"] == ["q_many": ["alpha", "mid", "zeta"]])
        #expect(saved?["stored_answers"] == ["q_many": ["alpha", "mid", "zeta"]])
    }

    /// SinglePage@7e172549:27-30, RatingPage@7e172549:28-31, NpsPage@50cb154a:44-48 (a tap sets a value,
    /// nothing unsets it); MultiPage@7e172549:27-34 (a tap toggles); a text can be erased.
    @Test("a single choice, rating or score cannot be cleared; a text or a multiple choice can")
    func controlsThatClear() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"))
        #expect(session.perform(.clear(question: "q_text")).outcome.kind == .ok)
        session.play(.answer("q_text", "hi"), .tapNext, .answer("q_pick", "yes"))
        #expect(session.perform(.clear(question: "q_pick")).outcome.kind == .rejected)
        #expect(session.perform(.answer("q_pick", "  ")).outcome.kind == .rejected)
        #expect(session.perform(.answer("q_pick", "maybe")).outcome == .rejected(#""maybe" is not a valid option for "q_pick""#))
        #expect(session.answer(for: "q_pick") == "yes")
    }

    /// Flow@50bf137b:354-375: a refused completion puts the error in an alert and leaves the last page up;
    /// Cancel stays enabled once the request is over (:195-204); `EventTransport.swift`@50bf137b
    /// `saveQuestionnaireResponse` maps 400 to `invalidAnswers` and other statuses to `serverError`.
    @Test("a failed submit keeps the last page up with the error; the respondent can fix the answer and submit")
    func failedSubmit() throws {
        let session = try Self.session()
        let long = JSONValue.string(String(repeating: "😀", count: 2001))
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", long), .tapNext, .tapNext)
        let refused = session.perform(.submit)
        #expect(refused.outcome.kind == .rejected)
        #expect(refused.events.last?.detail == .string(#"Invalid answers: {"error":"\"q_text\" exceeds 4000 chars"}"#))
        #expect(session.currentQuestion == "q_nps")
        session.play(.back, .back, .answer("q_text", "short"), .tapNext, .tapNext, .submit)
        #expect(session.submissions == 1)
    }

    /// Correction 17 made reachable: `questionnaire inactiveAfterFetch`, `server respondedAfterFetch` and
    /// `server dismissedAfterFetch` change the server while the sheet is up (`questionnaire-ingest.ts:315-379`).
    @Test(
        "a server change while the sheet is up refuses the saves the server refuses",
        arguments: [
            (["questionnaire": "inactiveAfterFetch"], "409 inactive", "409 inactive"),
            (["server": "respondedAfterFetch"], "409 already_responded", "409 already_responded"),
            (["server": "dismissedAfterFetch"], "200 draft", "409 globally_dismissed"),
        ])
    func changesWhileOpen(options: [String: String], draft: String, completion: String) throws {
        let session = try Self.session(options)
        #expect(Self.names(session.perform(.app(.launch))) == ["fetched", "consent_shown", "server_changed"])
        session.play(.app(.consent(.accept)), .answer("q_text", "hi"))
        func summary(_ result: StepResult) -> String {
            guard let event = result.events.first, let detail = event.detail?.objectValue else { return "none" }
            return "\(detail["http"]?.numberValue.map { Int($0) } ?? 0) \(detail["reason"]?.stringValue ?? (event.name == "draft_saved" ? "draft" : event.name))"
        }
        #expect(summary(session.perform(.tapNext)).replacingOccurrences(of: "201", with: "200") == draft)
        session.play(.tapNext)
        #expect(summary(session.perform(.submit)) == completion)
        #expect(session.currentQuestion == "q_nps")
    }

    /// Correction 18, `Owl.swift`@50bf137b `configureWith` (saved user id, else the Keychain's anonymous id)
    /// and `transportSnapshot`; `IdentityManager.swift`@10085a09:5, 15-22: the SDK always sends a user id.
    @Test("never logged in, the SDK sends its anonymous id: drafts upsert one row and a relaunch resumes")
    func anonymousIDResumes() throws {
        let session = try Self.session(["user": "anonymous"])
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"))
        #expect(Self.detail(session.perform(.tapNext), "draft_saved")?["user_id"] == "owl_anon_device")
        session.play(.answer("q_pick", "no"))
        #expect(Self.detail(session.perform(.tapNext), "draft_saved")?["http"] == 200)
        #expect(session.server.rows.count == 1)
        session.play(.app(.quit), .app(.launch))
        #expect(session.currentQuestion == "q_nps")
        #expect(session.answer(for: "q_pick") == "no")
    }

    /// `Owl.swift`@50bf137b `setUser`/`clearUser` and `identity.ts:180-272`: a login claims the anonymous id
    /// (the draft moves to the account); after `clearUser()` the same anonymous id still resolves to the
    /// account (`claimed-identity.ts:20-63`).
    @Test("a login carries the anonymous draft to the account; after a logout the anonymous id still reaches the account")
    func claimedIdentities() throws {
        let login = try Self.session(["user": "loginAtLaunch(2)"])
        login.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .app(.quit))
        let second = login.perform(.app(.launch))
        #expect(Self.detail(second, "user_claimed")?["anonymous_row"] == "moved")
        #expect(login.currentQuestion == "q_pick")
        #expect(login.server.rows.map(\.userID) == ["user_1"])

        let responded = try Self.session(["user": "loginAtLaunch(2)", "server": "responded"])
        responded.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .app(.quit))
        let afterLogin = responded.perform(.app(.launch))
        #expect(Self.detail(afterLogin, "user_claimed")?["anonymous_row"] == "soft_deleted")
        #expect(Self.detail(afterLogin, "fetched") == ["eligible": false, "reason": "already_responded"])

        let loggedOut = try Self.session(["user": "loggedOut", "server": "dismissed"])
        #expect(Self.detail(loggedOut.perform(.app(.launch)), "fetched") == ["eligible": false, "reason": "globally_dismissed"])
    }

    /// `questionnaire-ingest.ts:439-552`: kept as a server option for other clients, never the SDK's.
    @Test("a client without a user id makes a new row with every save, and the step checker says so")
    func clientWithoutUserID() throws {
        let session = try Self.session(["user": "none"])
        let checker = session.survey.makeStepChecker()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext)
        let result = session.perform(.tapNext)
        #expect(Self.detail(result, "draft_saved")?["http"] == 201)
        #expect(Self.detail(result, "draft_saved")?["user_id"] == .null)
        #expect(checker.check(session, after: .tapNext, result: result).map(\.property) == ["anonymous-saves-create-rows"])
    }

    @Test("quit and relaunch: the draft comes back, consent is skipped, the first unanswered question is shown")
    func quitAndResume() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .answer("q_pick", "no"), .app(.quit))
        #expect(session.screen == .closed)
        let resumed = session.perform(.app(.launch))
        #expect(Self.detail(resumed, "fetched") == ["eligible": true, "in_progress": ["q_text": "hi"]])
        #expect(session.currentQuestion == "q_pick")
        #expect(session.answer(for: "q_pick") == nil)
    }

    @Test("submit flips submitted_at once; a later launch is told already_responded")
    func submitOnce() throws {
        let session = try Self.session()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("q_text", "hi"), .tapNext, .tapNext)
        let submit = session.perform(.submit)
        #expect(Self.detail(submit, "submitted")?["was_submitted"] == true)
        #expect(session.hasEnded)
        #expect(Self.detail(session.perform(.app(.launch)), "fetched") == ["eligible": false, "reason": "already_responded"])
        #expect(session.submissions == 1)
    }

    /// `questionnaire-ingest.ts:395-397`: the merge is per key, and Store@50bf137b:73-76 leaves an empty
    /// selection out of what is sent.
    @Test("a cleared answer survives the per-key merge and is submitted, and the step checker says so")
    func clearedAnswerSurvives() throws {
        let schema = OwlmetryTests.question(
            #"{"id": "m", "type": "multi_choice", "title": "M", "required": false, "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}, {"id": "n", "type": "nps", "title": "N", "required": false}"#)
        let session = try OwlmetryTests.session(schema: schema)
        let checker = session.survey.makeStepChecker()
        session.play(.app(.launch), .app(.consent(.accept)), .answer("m", ["a"]), .tapNext, .answer("n", 5), .back, .clear(question: "m"))
        let cleared = session.perform(.tapNext)
        #expect(Self.detail(cleared, "draft_saved")?["answers"] == ["n": 5])
        #expect(Self.detail(cleared, "draft_saved")?["stored_answers"] == ["m": ["a"], "n": 5])
        #expect(checker.check(session, after: .tapNext, result: cleared).map(\.property) == ["cleared-answer-survives-merge"])
        session.play(.submit)
        #expect(session.payload?.objectValue?["answers"] == ["m": ["a"], "n": 5])
    }

    @Test("verbs Owlmetry lacks do not fit; an unknown option value does not fit the survey")
    func verbs() throws {
        let session = try Self.session()
        #expect(session.perform(.skip(question: nil)).outcome.kind == .doesNotFit)
        #expect(session.perform(.goto(question: "q_text")).outcome.kind == .doesNotFit)
        let survey = try loadSurvey(text: OwlmetryTests.schema)
        #expect(survey.problem(with: SessionSettings(options: ["trigger": "afterLaunches(40)"])) != nil)
        #expect(survey.problem(with: SessionSettings(options: ["user": "loginAtLaunch(9)"])) != nil)
        #expect(survey.problem(with: SessionSettings(options: ["trigger": "afterLaunches(4)", "user": "anonymous", "network": "offlineAfterFetch"])) == nil)
    }
}
