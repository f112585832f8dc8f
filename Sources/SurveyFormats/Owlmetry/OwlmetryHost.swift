import SurveyCore

/// What the schema does not say and the host app decides (reference §3 has no trigger API): read from the
/// scenario's `option` lines, each with its values listed in `OwlmetrySurvey.options` (the first is the
/// default).
///
/// - `trigger`: `afterLaunch` (presented at every launch), `afterLaunches(N)` (at launches from the Nth on),
///   `manual` (only when the app opens it: the `resume` step), or `conditions`: the ANDed
///   conditions `launches`, `foregrounds`, `daysSinceFirstLaunch`, `hoursSinceFirstLaunch` (each an option,
///   `0` meaning no requirement), checked at every `launch`, `foreground` and `wait`.
/// - `user`: `identified` (saves carry a user id) or `anonymous` (they do not: each creates a row).
/// - `questionnaire`: `active` or `inactive` on the server.
/// - `server`: what the server already holds for this user: `fresh`, `responded` or `dismissed`.
struct OwlmetryHost: Sendable, Equatable {
    enum Trigger: Sendable, Equatable {
        case afterLaunch
        case afterLaunches(Int)
        case manual
        case conditions
    }

    var trigger: Trigger = .afterLaunch
    var launches = 0
    var foregrounds = 0
    var daysSinceFirstLaunch = 0
    var hoursSinceFirstLaunch = 0
    var isAnonymous = false
    var isActive = true
    var server = "fresh"

    static let userID = "user_1"

    static let options: [String: [String]] = [
        "trigger": ["afterLaunch"] + (2...10).map { "afterLaunches(\($0))" } + ["manual", "conditions"],
        "launches": (0...10).map(String.init),
        "foregrounds": (0...10).map(String.init),
        "daysSinceFirstLaunch": (0...30).map(String.init),
        "hoursSinceFirstLaunch": (0...72).map(String.init),
        "user": ["identified", "anonymous"],
        "questionnaire": ["active", "inactive"],
        "server": ["fresh", "responded", "dismissed"],
    ]

    init(_ settings: SessionSettings) {
        let options = settings.options
        switch options["trigger"] {
        case "manual"?: trigger = .manual
        case "conditions"?: trigger = .conditions
        case let text? where text.hasPrefix("afterLaunches("):
            trigger = .afterLaunches(Int(text.dropFirst("afterLaunches(".count).dropLast()) ?? 1)
        default: trigger = .afterLaunch
        }
        launches = options["launches"].flatMap { Int($0) } ?? 0
        foregrounds = options["foregrounds"].flatMap { Int($0) } ?? 0
        daysSinceFirstLaunch = options["daysSinceFirstLaunch"].flatMap { Int($0) } ?? 0
        hoursSinceFirstLaunch = options["hoursSinceFirstLaunch"].flatMap { Int($0) } ?? 0
        isAnonymous = options["user"] == "anonymous"
        isActive = options["questionnaire"] != "inactive"
        server = options["server"] ?? "fresh"
    }

    var userID: String? { isAnonymous ? nil : Self.userID }
}
