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

    /// Loads the file as the R4 engines read it: as LHC-Forms reads it, with android-fhir's reading beside it
    /// when it reads the file otherwise; as android-fhir reads it when only android-fhir renders it. A file
    /// no engine renders (or the simulation cannot run) does not load, every problem reported at once.
    public func load(_ root: JSONCursor) throws(InputError) -> any Survey {
        let lhc = FHIRDecoder.read(root, engine: .lhcForms)
        guard lhc.differsByEngine else {
            guard lhc.loads, let outline = lhc.outline else { throw InputError(Self.sorted(lhc.errors)) }
            return FHIRSurvey(outline)
        }
        let android = FHIRDecoder.read(root, engine: .androidFHIR)
        switch (lhc.outline, android.outline) {
        case (let outline?, let other) where lhc.loads:
            let result: Result<FHIRSurvey, InputError> =
                if android.loads, let other { .success(FHIRSurvey(other)) } else { .failure(InputError(Self.sorted(android.errors))) }
            return FHIRSurvey(outline, otherReading: FHIROtherReading(engine: .androidFHIR, result: result))
        case (_, let outline?) where android.loads:
            return FHIRSurvey(outline, otherReading: FHIROtherReading(engine: .lhcForms, result: .failure(InputError(Self.sorted(lhc.errors)))))
        default:
            // Refused by both: every problem once (the simulation's own are the same in both readings).
            var seen: Set<Diagnostic> = []
            throw InputError(Self.sorted((lhc.errors + android.errors).filter { seen.insert($0).inserted }))
        }
    }

    private static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.sorted { ($0.position ?? SourcePosition(line: 0, column: 0)) < ($1.position ?? SourcePosition(line: 0, column: 0)) }
    }

    public func lint(_ root: JSONCursor) -> [Diagnostic] {
        FHIRLint.findings(root)
    }
}
