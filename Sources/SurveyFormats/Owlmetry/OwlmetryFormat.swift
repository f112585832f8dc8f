import SurveyCore

/// Owlmetry questionnaire schemas (reference §3): `{"version": 1, "questions": [...]}`. A SurveyNative file
/// has `questions` and `submit`; an Owlmetry schema has `version` and no `submit`, so the two never overlap.
public struct OwlmetryFormat: SurveyFormat {
    public static let name = "owlmetry"
    public var name: String { Self.name }
    public var signature: String { "an Owlmetry questionnaire schema: an object with \"version\" and \"questions\" (no \"submit\")" }

    public init() {}

    public func recognizes(_ root: JSONNode) -> Bool {
        OwlmetryDecoder.recognizes(root)
    }

    public func load(_ root: JSONCursor) throws(InputError) -> any Survey {
        try OwlmetrySurvey(OwlmetryDecoder.read(root))
    }

    /// The validator's errors and the unknown keys it drops; then what a valid schema does at run time that
    /// its author may not mean (`owl-optional-only`: nothing required, so an empty submission is accepted;
    /// `owl-resume-on-skipped`: a resume lands on a skipped optional question before answered ones;
    /// `owl-placeholder-hidden`: the SDK's multiline editor has no placeholder).
    public func lint(_ root: JSONCursor) -> [Diagnostic] {
        let outline = OwlmetryDecoder.read(root)
        var findings = outline.problems
        guard !findings.contains(where: { $0.severity == .error }) else { return findings }
        let questions = outline.questions
        if !questions.isEmpty, questions.allSatisfy({ !$0.isRequired }) {
            findings.append(
                Diagnostic(
                    .warning, file: outline.file, location: outline.location,
                    message: "no question is required: Submit is enabled on the last page with nothing answered, and the server accepts an empty submission",
                    hint: "make at least one question required", rule: "owl-optional-only"))
        }
        if let firstOptional = questions.firstIndex(where: { !$0.isRequired }), let laterRequired = questions[(firstOptional + 1)...].first(where: \.isRequired) {
            findings.append(
                Diagnostic(
                    .note, file: outline.file, location: questions[firstOptional].location,
                    message: "optional '\(questions[firstOptional].id)' comes before required '\(laterRequired.id)': a respondent who skips it and quits resumes on it, not where they left (firstUnansweredIndex)",
                    hint: "put optional questions after the required ones", rule: "owl-resume-on-skipped"))
        }
        for question in questions where question.isMultiline && question.placeholder != nil {
            findings.append(
                Diagnostic(
                    .note, file: outline.file, location: question.location,
                    message: "'\(question.id)' is multiline with a placeholder: the Swift SDK draws a multiline text as a TextEditor, which shows no placeholder (only the single-line TextField does)",
                    hint: "put the hint in the subtitle, or make the question single-line", rule: "owl-placeholder-hidden"))
        }
        return findings
    }
}
