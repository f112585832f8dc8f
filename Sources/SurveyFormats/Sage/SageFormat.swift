import SurveyCore

/// SageResearch and its successor AssessmentModel (reference §1): a task object with `steps`, or a file
/// that is a single question step. Which of the three generations a file is shows in the format name of
/// its traces (`sage-legacy`, `sage-v3`, `sage-assessment`).
public struct SageFormat: SurveyFormat {
    public static let name = "sage"
    public var name: String { Self.name }
    public var signature: String { "a SageResearch / AssessmentModel task: an object with \"steps\", or one question step" }

    public init() {}

    public func recognizes(_ root: JSONNode) -> Bool {
        SageDecoder.recognizes(root)
    }

    public func load(_ root: JSONCursor) throws(InputError) -> any Survey {
        try SageSurvey(SageDecoder.read(root))
    }

    public func lint(_ root: JSONCursor) -> [Diagnostic] {
        SageLint.findings(SageDecoder.read(root))
    }
}
