import SurveyCore

/// SurveyNative's JSON (recoveryrecord/SurveyNative): an object with `questions` and `submit`.
public struct SurveyNativeFormat: SurveyFormat {
    public static let name = "surveynative"
    public var name: String { Self.name }
    public var signature: String { "a SurveyNative survey: an object with \"questions\" and \"submit\"" }

    public init() {}

    public func recognizes(_ root: JSONNode) -> Bool {
        root["questions"] != nil && root["submit"] != nil
    }

    public func load(_ root: JSONCursor) throws(InputError) -> any Survey {
        try loadSurvey(root).survey
    }

    public func lint(_ root: JSONCursor) -> [Diagnostic] {
        SurveyNativeLint.findings(root)
    }

    /// The survey and what reading it found (keys the engine ignores, inputs that crash it when shown).
    public func loadSurvey(_ root: JSONCursor) throws(InputError) -> (survey: SurveyNativeSurvey, findings: [Diagnostic]) {
        let (survey, findings) = try SurveyNativeDecoder.decode(root)
        if let crash = SurveyNativeSession(survey: survey, settings: SessionSettings()).openingCrash {
            throw InputError(
                Diagnostic(
                    file: survey.file, location: survey.questions[survey.topLevel[0]].location,
                    message: "the real engine would crash opening this survey: \(crash); expected a first screen it can show ('survey-replay lint' names the fix)"))
        }
        return (survey, findings)
    }
}
