import SurveyCore

/// The branches of a questionnaire's lifecycle (DESIGN §7, issue 8): the launch trigger and each condition
/// of the condition trigger, each consent outcome, each question shown and answered, each option picked,
/// and each way the questionnaire ends (submitted, refused, later, never, a failed dismissal, quit, each
/// ineligible reason, a failed fetch).
struct OwlmetryCoverageLayout: Sendable {
    let plan: CoveragePlan
    /// The index of each question's first option among the choices (after the three consent outcomes).
    let firstOption: [Int]

    static let launchTrigger = 0
    static let conditionTrigger = 1

    enum Terminal: Int {
        case submitted, submitRefused, later, dismissed, dismissFailed, quit, inactive, globallyDismissed, alreadyResponded, fetchFailed

        static func ineligible(_ reason: String) -> Int {
            switch reason {
            case "inactive": Terminal.inactive.rawValue
            case "globally_dismissed": Terminal.globallyDismissed.rawValue
            default: Terminal.alreadyResponded.rawValue
            }
        }

        var description: String {
            switch self {
            case .submitted: "submitted (was_submitted true)"
            case .submitRefused: "submission refused by the server"
            case .later: "consent answered later"
            case .dismissed: "consent answered never (globally dismissed)"
            case .dismissFailed: "consent answered never, the dismissal failed"
            case .quit: "quit before submitting"
            case .inactive: "fetch ineligible: inactive"
            case .globallyDismissed: "fetch ineligible: globally_dismissed"
            case .alreadyResponded: "fetch ineligible: already_responded"
            case .fetchFailed: "fetch failed (transport)"
            }
        }
    }

    func consentChoice(_ choice: AppEvent.Consent) -> Int {
        AppEvent.Consent.allCases.firstIndex(of: choice) ?? 0
    }

    func recordAnswer(_ value: JSONValue, at index: Int, survey: OwlmetrySurvey, _ recorder: CoverageRecorder) {
        recorder.answered(index)
        let options = survey.questions[index].options
        for picked in value.arrayValue ?? [value] {
            if let option = options.firstIndex(where: { .string($0.id) == picked }) { recorder.choice(firstOption[index] + option) }
        }
    }
}

extension OwlmetrySurvey {
    public func coveragePlan() -> CoveragePlan { layout().plan }

    func layout() -> OwlmetryCoverageLayout {
        coverageLayout.get(makeCoverageLayout)
    }

    private func makeCoverageLayout() -> OwlmetryCoverageLayout {
        var plan = CoveragePlan(file: file)
        plan.leaves = [
            CoveragePlan.Point(question: "trigger", description: "the launch count reaches the trigger's launch", location: location),
            CoveragePlan.Point(question: "trigger", description: "launches reach the launches option", location: location),
            CoveragePlan.Point(question: "trigger", description: "foregrounds reach the foregrounds option", location: location),
            CoveragePlan.Point(question: "trigger", description: "days since the first launch reach daysSinceFirstLaunch", location: location),
            CoveragePlan.Point(question: "trigger", description: "hours since the first launch reach hoursSinceFirstLaunch", location: location),
        ]
        plan.decisions = [
            CoveragePlan.Decision(question: "trigger", kind: "launch trigger (afterLaunch, afterLaunches)", location: location, tree: .leaf(0)),
            CoveragePlan.Decision(question: "trigger", kind: "condition trigger", location: location, tree: .all([.leaf(1), .leaf(2), .leaf(3), .leaf(4)])),
        ]
        plan.choices = AppEvent.Consent.allCases.map { choice in
            CoveragePlan.Point(question: "consent", description: "consent \(choice.rawValue)", location: location)
        }
        var firstOption: [Int] = []
        for question in questions {
            firstOption.append(plan.choices.count)
            for option in question.options {
                plan.choices.append(CoveragePlan.Point(question: question.id, description: "'\(question.id)' \(option.id)", location: option.location))
            }
            plan.questions.append(CoveragePlan.QuestionPoint(id: question.id, location: question.location, decisions: []))
        }
        let terminals: [OwlmetryCoverageLayout.Terminal] = [
            .submitted, .submitRefused, .later, .dismissed, .dismissFailed, .quit, .inactive, .globallyDismissed, .alreadyResponded, .fetchFailed,
        ]
        plan.terminals = terminals.map { CoveragePlan.Point(question: "questionnaire", description: $0.description, location: location) }
        return OwlmetryCoverageLayout(plan: plan, firstOption: firstOption)
    }
}
