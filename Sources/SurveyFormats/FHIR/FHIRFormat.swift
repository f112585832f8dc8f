import SurveyCore

/// FHIR R4 Questionnaire JSON (docs/reference/fhir.md), recognized by `"resourceType": "Questionnaire"`.
public struct FHIRFormat: SurveyFormat {
    public static let name = "fhir"
    public var name: String { Self.name }
    public var signature: String { "a FHIR Questionnaire: an object with \"resourceType\": \"Questionnaire\"" }

    public init() {}

    public func recognizes(_ root: JSONNode) -> Bool {
        root["resourceType"]?.stringValue == "Questionnaire"
    }

    /// Loads the file when nothing in it stops a simulation: every such problem is reported at once.
    public func load(_ root: JSONCursor) throws(InputError) -> any Survey {
        let (outline, errors, _) = FHIRDecoder.read(root)
        let problems = errors + (outline?.loadErrors ?? [])
        guard let outline, problems.isEmpty else {
            throw InputError(problems.sorted { ($0.position ?? SourcePosition(line: 0, column: 0)) < ($1.position ?? SourcePosition(line: 0, column: 0)) })
        }
        return FHIRSurvey(outline)
    }

    public func lint(_ root: JSONCursor) -> [Diagnostic] {
        FHIRLint.findings(root)
    }
}
