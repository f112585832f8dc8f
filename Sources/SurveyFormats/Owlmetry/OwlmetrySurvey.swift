import SurveyCore

/// A loaded questionnaire schema.
public struct OwlmetrySurvey: Survey {
    public let format = OwlmetryFormat.name
    public let file: String
    public let questions: [Owlmetry.Question]
    let indexByID: [String: Int]
    let location: SourceLocation
    let validator: OwlmetryValidator
    /// The normalised schema, what `schema_snapshot` copies at submit.
    let schema: JSONValue
    let coverageLayout = Lazy<OwlmetryCoverageLayout>()

    init(_ outline: OwlmetryDecoder.Outline) throws(InputError) {
        let errors = outline.problems.filter { $0.severity == .error }
        if !errors.isEmpty { throw InputError(errors) }
        file = outline.file
        questions = outline.questions
        location = outline.location
        indexByID = Dictionary(outline.questions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        validator = OwlmetryValidator(questions: outline.questions)
        schema = ["version": 1, "questions": .array(outline.questions.map(\.normalised))]
    }

    public var questionIDs: [String] { questions.map(\.id) }

    public func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession {
        OwlmetrySession(survey: self, settings: settings, coverage: coverage)
    }

    public var hostConditionKeys: [String] { [] }

    public var options: [String: [String]] { OwlmetryHost.options }

    public func makeStepChecker() -> any StepChecker {
        OwlmetryStepChecker(survey: self)
    }
}
