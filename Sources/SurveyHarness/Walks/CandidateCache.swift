import SurveyCore

/// The candidate values of each question of a survey (`Survey.candidateValues`), worked out when a question
/// is first asked about and kept with their stable hashes: walks and the Submit check ask about the same
/// questions step after step, and a walk hashes every answer it chooses. One cache serves a walker's chooser
/// and its Submit check, so it is shared by reference.
final class CandidateCache {
    let survey: any Survey
    let settings: SessionSettings
    private let questionIDs: [String]
    /// By index in `questionIDs`. One walker's (the cache is not Sendable): read at every step, so not
    /// checked for exclusive access at run time.
    @exclusivity(unchecked) private var known: [(values: [JSONValue], hashes: [UInt64])?]

    init(survey: any Survey, settings: SessionSettings) {
        self.survey = survey
        self.settings = settings
        self.questionIDs = survey.questionIDs
        self.known = Array(repeating: nil, count: questionIDs.count)
    }

    /// The candidate values of the question at `index` in the survey's `questionIDs`.
    func values(ofQuestionAt index: Int) -> [JSONValue] {
        entry(index).values
    }

    /// Those values with the stable hash of each (`StableHash.of(_: JSONValue)`).
    func entry(_ index: Int) -> (values: [JSONValue], hashes: [UInt64]) {
        if let entry = known[index] { return entry }
        let values = survey.candidateValues(for: questionIDs[index], settings: settings)
        let entry = (values, values.map(StableHash.of))
        known[index] = entry
        return entry
    }
}
