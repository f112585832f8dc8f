import SurveyCore

/// A scenario replayed for the report: its trace, and at the start and after every step each visible
/// question as the respondent sees it (text, type, options) with its stored answer.
struct SessionRecord {
    struct ShownQuestion {
        let id: String
        let prompt: QuestionPrompt?
        let answer: JSONValue?
    }

    let scenario: Scenario
    let result: ScenarioResult
    /// `screens[0]` before the first action, `screens[n]` after step n.
    let screens: [[ShownQuestion]]

    /// Replays `scenario` on `survey`; with a recorder, coverage goes into it.
    static func replay(_ scenario: Scenario, survey: any Survey, coverage: CoverageRecorder? = nil) -> SessionRecord {
        var prompts: [String: QuestionPrompt?] = [:]
        var screens: [[ShownQuestion]] = []
        let settings = scenario.settings
        let result = ScenarioRunner().run(scenario, survey: survey, coverage: coverage) { session in
            screens.append(
                session.visibleQuestions.map { id in
                    let prompt = prompts[id] ?? survey.prompt(for: id, settings: settings)
                    prompts[id] = prompt
                    return ShownQuestion(id: id, prompt: prompt, answer: session.answer(for: id))
                })
        }
        return SessionRecord(scenario: scenario, result: result, screens: screens)
    }

    /// The comment lines at the top of the scenario: what it checks, in the author's words.
    var purpose: String? {
        var lines: [String] = []
        for line in scenario.lines {
            guard line.statement == nil, let comment = line.comment else { break }
            lines.append(comment.trimmingCharacters(in: " "))
        }
        return lines.isEmpty ? nil : lines.joined(separator: " ")
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
