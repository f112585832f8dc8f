import SurveyCore

/// What the schema does not say and the host app or the server decides, read from the scenario's `option`
/// lines; each option's values are listed in `OwlmetryHost.options` (the first is the default). docs/owlmetry.md
/// cites the Swift SDK and server source behind each.
///
/// - `trigger`: the modifier's `OwlQuestionnaireTrigger`: `afterLaunch` (launches ≥ 1), `afterLaunches(N)`
///   (launches ≥ N), `manual` (never auto-presents), or `conditions`: `.when(…)` of the options `launches`,
///   `foregrounds`, `daysSinceFirstLaunch`, `hoursSinceFirstLaunch` (`0`: not among the conditions).
/// - `flushOnBackground`: the `Owl.configure` argument; `false` creates no `LifecycleObserver`, the only
///   counter of foregrounds, so a `foregrounds` condition never grows (the gate still evaluates on foreground).
/// - `isEligible`: what the host's `isEligible` closure answers; `forceShow`: the modifier's debug bypass.
/// - `showsConsent`: `default` (the modifier's `true`, manual presentation's `false`), `true`, `false`.
/// - `manualDraft`: whether the app passes the fetched draft to a manually presented view (`dropped`: the
///   view's default `inProgress: nil`).
/// - `user`: which user id the SDK sends, see `Identity`.
/// - `questionnaire`, `server`, `network`: the server's state, and changes that happen while the sheet is up
///   (`…AfterFetch`: right after the first fetch that presents the questionnaire), so that each refusal of a
///   save can be reached.
struct OwlmetryHost: Sendable, Equatable {
    enum Trigger: Sendable, Equatable {
        case afterLaunch
        case afterLaunches(Int)
        case manual
        case conditions
    }

    /// The user id on every questionnaire call (`Owl.configureWith`: saved user id, else the persistent
    /// anonymous id).
    enum Identity: Sendable, Equatable {
        /// `setUser` was called before the first launch; the device's anonymous id is claimed by the account.
        case identified
        /// Never logged in: the persistent anonymous id.
        case anonymous
        /// Logged in once (the claim is done), then `clearUser()` kept the same anonymous id: the SDK sends it
        /// and the server resolves it to the account.
        case loggedOut
        /// Anonymous until launch N, where the app calls `setUser` before the gate appears.
        case loginAtLaunch(Int)
        /// Not the Swift SDK: a client that sends no user id (the server's anonymous rows).
        case none
    }

    enum ServerState: String, Sendable {
        case fresh, responded, dismissed, respondedAfterFetch, dismissedAfterFetch
    }

    var trigger: Trigger = .afterLaunch
    var launches = 0
    var foregrounds = 0
    var daysSinceFirstLaunch = 0
    var hoursSinceFirstLaunch = 0
    /// `Owl.configure(flushOnBackground:)`: whether the SDK's `LifecycleObserver` exists to count foregrounds.
    var countsForegrounds = true
    var isEligible = true
    var forceShow = false
    /// nil: the default of whoever presents it.
    var showsConsent: Bool?
    var passesDraftWhenManual = false
    var identity = Identity.identified
    var isActive = true
    var deactivatesAfterFetch = false
    var server = ServerState.fresh
    var isOffline = false
    var goesOfflineAfterFetch = false

    static let accountID = "user_1"
    /// The Keychain's anonymous id (`IdentityManager`, prefix `owl_anon_`, which the server's claim
    /// resolution looks for).
    static let anonymousID = "owl_anon_device"

    static let options: [String: [String]] = [
        "trigger": ["afterLaunch"] + (2...10).map { "afterLaunches(\($0))" } + ["manual", "conditions"],
        "launches": (0...10).map(String.init),
        "foregrounds": (0...10).map(String.init),
        "daysSinceFirstLaunch": (0...30).map(String.init),
        "hoursSinceFirstLaunch": (0...72).map(String.init),
        "flushOnBackground": ["true", "false"],
        "isEligible": ["true", "false"],
        "forceShow": ["false", "true"],
        "showsConsent": ["default", "true", "false"],
        "manualDraft": ["dropped", "passed"],
        "user": ["identified", "anonymous", "loggedOut"] + (2...5).map { "loginAtLaunch(\($0))" } + ["none"],
        "questionnaire": ["active", "inactive", "inactiveAfterFetch"],
        "server": ["fresh", "responded", "dismissed", "respondedAfterFetch", "dismissedAfterFetch"],
        "network": ["online", "offline", "offlineAfterFetch"],
    ]

    init(_ settings: SessionSettings) {
        let options = settings.options
        func number(_ name: String) -> Int { options[name].flatMap { Int($0) } ?? 0 }
        func argument(_ text: String, after prefix: String) -> Int? {
            text.hasPrefix(prefix) ? Int(text.dropFirst(prefix.count).dropLast()) : nil
        }
        switch options["trigger"] {
        case "manual"?: trigger = .manual
        case "conditions"?: trigger = .conditions
        case let text?: trigger = argument(text, after: "afterLaunches(").map(Trigger.afterLaunches) ?? .afterLaunch
        case nil: trigger = .afterLaunch
        }
        launches = number("launches")
        foregrounds = number("foregrounds")
        daysSinceFirstLaunch = number("daysSinceFirstLaunch")
        hoursSinceFirstLaunch = number("hoursSinceFirstLaunch")
        countsForegrounds = options["flushOnBackground"] != "false"
        isEligible = options["isEligible"] != "false"
        forceShow = options["forceShow"] == "true"
        showsConsent = options["showsConsent"].flatMap { $0 == "default" ? nil : $0 == "true" }
        passesDraftWhenManual = options["manualDraft"] == "passed"
        switch options["user"] {
        case "anonymous"?: identity = .anonymous
        case "loggedOut"?: identity = .loggedOut
        case "none"?: identity = .none
        case let text?: identity = argument(text, after: "loginAtLaunch(").map(Identity.loginAtLaunch) ?? .identified
        case nil: identity = .identified
        }
        isActive = options["questionnaire"] != "inactive"
        deactivatesAfterFetch = options["questionnaire"] == "inactiveAfterFetch"
        server = options["server"].flatMap(ServerState.init(rawValue:)) ?? .fresh
        isOffline = options["network"] == "offline"
        goesOfflineAfterFetch = options["network"] == "offlineAfterFetch"
    }

    /// The id the SDK sends before any login in the scenario.
    var initialUserID: String? {
        switch identity {
        case .identified: Self.accountID
        case .anonymous, .loggedOut, .loginAtLaunch: Self.anonymousID
        case .none: nil
        }
    }

    /// Whose server state the `server` option describes: the account, or the anonymous device when it never
    /// logs in; nobody for a client without a user id (the server looks nothing up then).
    var respondentID: String? {
        switch identity {
        case .identified, .loggedOut, .loginAtLaunch: Self.accountID
        case .anonymous: Self.anonymousID
        case .none: nil
        }
    }
}
