import SurveyCore

/// The candidate values of each question of a survey (`Survey.candidateValues`), worked out when a question
/// is first asked about and kept: walks and the Submit check ask about the same questions step after step.
final class CandidateCache {
    let survey: any Survey
    let settings: SessionSettings
    private let questionIDs: [String]
    /// By index in `questionIDs`.
    private var known: [[JSONValue]?]

    init(survey: any Survey, settings: SessionSettings) {
        self.survey = survey
        self.settings = settings
        self.questionIDs = survey.questionIDs
        self.known = Array(repeating: nil, count: questionIDs.count)
    }

    /// The candidate values of the question at `index` in the survey's `questionIDs`.
    func values(ofQuestionAt index: Int) -> [JSONValue] {
        if let values = known[index] { return values }
        let values = survey.candidateValues(for: questionIDs[index], settings: settings)
        known[index] = values
        return values
    }
}
