import SurveyCore

/// The app around the sheet: processes (`launch`), foregrounds, time, the `.owlQuestionnaire` gate that
/// decides when to present it (`OwlQuestionnaireGate.evaluate`), and the app presenting it by hand (`resume`).
/// docs/owlmetry.md cites the SDK source for each rule.
extension OwlmetrySession {
    enum Occasion { case appear, foreground }

    func perform(_ event: AppEvent) -> StepResult {
        switch event {
        case .launch:
            // A new process: the sheet and its unsaved answers are gone, `Owl.configure` bumps the launch
            // count once, and the per-process "shown" mark is forgotten.
            close()
            isRunning = true
            launches += 1
            firstLaunch = firstLaunch ?? clock.elapsed
            shownThisProcess = false
            gatePresentationsThisProcess = 0
            let events = logInIfDue()
            return StepResult(.ok, events: events + evaluate(on: .appear))
        case .foreground:
            guard isRunning else { return StepResult(.rejected("the app has not been launched")) }
            // The SDK's `LifecycleObserver` counts it; `Owl.configure(flushOnBackground: false)` creates none,
            // and the gate, which observes the notification itself, evaluates all the same.
            if host.countsForegrounds { foregrounds += 1 }
            return StepResult(.ok, events: evaluate(on: .foreground))
        case .wait(let seconds):
            // No timer: time passing presents nothing until the gate is evaluated again.
            clock.advance(seconds: seconds)
            return StepResult(.ok)
        case .consent(let choice):
            return consent(choice)
        case .quit:
            return cancel()
        case .resume:
            guard isRunning else { return StepResult(.rejected("the app has not been launched")) }
            guard !isSheetShown else { return StepResult(.rejected("the questionnaire is already presented (\(screenName))")) }
            return StepResult(.ok, events: presentManually())
        }
    }

    /// `loginAtLaunch(N)`: at launch N the app calls `Owl.setUser` before the gate appears; the claim of the
    /// device's anonymous id is taken to land before the gate's fetch.
    private func logInIfDue() -> [TraceEvent] {
        guard case .loginAtLaunch(let launch) = host.identity, launch == launches else { return [] }
        userID = OwlmetryHost.accountID
        let outcome = server.claim(anonymousID: OwlmetryHost.anonymousID, userID: OwlmetryHost.accountID)
        return [
            TraceEvent(
                "user_claimed",
                detail: ["anonymous_id": .string(OwlmetryHost.anonymousID), "user_id": .string(OwlmetryHost.accountID), "anonymous_row": .string(outcome.rawValue)])
        ]
    }

    /// `OwlQuestionnaireGate.evaluate`, run when the gate first appears in a process and on every
    /// `willEnterForeground`: without `forceShow`, the per-process mark, `.manual`, the trigger's conditions
    /// and `isEligible` may each stop it before the fetch; a fetch that returns the questionnaire marks it
    /// shown (not under `forceShow`) and presents it.
    private func evaluate(on occasion: Occasion) -> [TraceEvent] {
        if !host.forceShow {
            if shownThisProcess { return [] }
            guard triggerHolds() else { return [] }
            if !host.isEligible { return [] }
        }
        return fetch(force: host.forceShow) { draft in
            if !self.host.forceShow { self.shownThisProcess = true }
            self.gatePresentationsThisProcess += 1
            // Under forceShow a foreground fetches again while the sheet is up: the same questionnaire id keeps
            // the sheet as it is.
            guard !self.isSheetShown else { return [] }
            return self.open(draft: draft, showsConsent: self.host.showsConsent ?? true)
        }
    }

    /// The app's own presentation: `Owl.fetchQuestionnaire` and `OwlQuestionnaireView` with its defaults
    /// (`showsConsent: false`, `inProgress: nil` unless `manualDraft passed`); no gate, no per-process mark.
    private func presentManually() -> [TraceEvent] {
        fetch(force: false) { draft in
            self.open(draft: self.host.passesDraftWhenManual ? draft : nil, showsConsent: self.host.showsConsent ?? false)
        }
    }

    /// The trigger's conditions, ANDed, read from the persistent counters and the clock; `.manual` never holds.
    private func triggerHolds() -> Bool {
        switch host.trigger {
        case .manual:
            return false
        case .afterLaunch, .afterLaunches:
            let needed = if case .afterLaunches(let count) = host.trigger { count } else { 1 }
            let holds = launches >= needed
            coverage.map { $0.recorder.decision(OwlmetryCoverageLayout.launchTrigger, outcome: holds, leaves: [holds ? .true : .false]) }
            return holds
        case .conditions:
            let elapsed = clock.elapsed - (firstLaunch ?? clock.elapsed)
            let leaves = [
                launches >= host.launches, foregrounds >= host.foregrounds,
                elapsed >= host.daysSinceFirstLaunch * 86_400, elapsed >= host.hoursSinceFirstLaunch * 3600,
            ]
            let holds = leaves.allSatisfy { $0 }
            coverage.map { $0.recorder.decision(OwlmetryCoverageLayout.conditionTrigger, outcome: holds, leaves: leaves.map { $0 ? .true : .false }) }
            return holds
        }
    }

    /// `GET /v1/questionnaires/:slug`: a transport failure or an ineligible answer presents nothing and marks
    /// nothing; an eligible one runs `present` with the draft, then the changes `…AfterFetch` options make.
    private func fetch(force: Bool, present: ([String: JSONValue]?) -> [TraceEvent]) -> [TraceEvent] {
        guard !isOffline else {
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.fetchFailed.rawValue) }
            return [TraceEvent("fetch_failed", detail: ["error": .string(Self.offlineMessage)])]
        }
        var detail: [String: JSONValue] = [:]
        if force { detail["force"] = true }
        switch server.fetch(userID: userID, force: force) {
        case .ineligible(let reason):
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.ineligible(reason)) }
            detail["eligible"] = false
            detail["reason"] = .string(reason)
            return [TraceEvent("fetched", detail: .object(detail))]
        case .eligible(let draft):
            detail["eligible"] = true
            if let draft { detail["in_progress"] = .object(draft) }
            return [TraceEvent("fetched", detail: .object(detail))] + present(draft) + applyChangesAfterFetch()
        }
    }

    /// The flow container's start: a draft is loaded and the first unanswered question shown, consent
    /// skipped; otherwise the consent detent when asked for, or page 1.
    private func open(draft: [String: JSONValue]?, showsConsent: Bool) -> [TraceEvent] {
        close()
        if let draft {
            store = draft
            return show(page: firstUnanswered).events
        }
        if showsConsent { return showConsent() }
        return show(page: 0).events
    }

    /// What changes on the server (or the network) while the sheet is up, once.
    private func applyChangesAfterFetch() -> [TraceEvent] {
        guard changesAfterFetchPending else { return [] }
        changesAfterFetchPending = false
        var changes: [String: JSONValue] = [:]
        if host.deactivatesAfterFetch {
            server.isActive = false
            changes["questionnaire"] = "inactive"
        }
        switch host.server {
        case .respondedAfterFetch:
            server.markResponded(userID: host.respondentID, at: clock.timestamp())
            changes["responded"] = "on another device"
        case .dismissedAfterFetch:
            _ = server.dismiss(userID: host.respondentID)
            changes["dismissed"] = "on another device"
        case .fresh, .responded, .dismissed: break
        }
        if host.goesOfflineAfterFetch {
            isOffline = true
            changes["network"] = "offline"
        }
        return changes.isEmpty ? [] : [TraceEvent("server_changed", detail: .object(changes))]
    }
}
