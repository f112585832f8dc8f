import FHIRPath
import SurveyCore

/// A tree of FHIR JSON text (the text must be valid JSON).
func tree(_ json: String, path: String = "resource.json") throws -> FHIRTree {
    FHIRTree(json: try JSONParser.parse(SourceFile(path: path, text: json)))
}

/// The result of an expression as literals with types: `["'Peter' (string)", "1.50 (decimal)"]`.
func evaluate(
    _ expression: String, on resource: FHIRTree? = nil, variables: [String: FHIRPathCollection] = [:],
    options: FHIRPathOptions = FHIRPathOptions(), clock: FHIRPathClock = FHIRPathClock(), terminology: FHIRPathTerminology = .init(),
    resources: [FHIRTree] = []
) throws(FHIRPathError) -> [String] {
    var options = options
    if options.contextType == nil { options.contextType = resource?.root.type.name }
    let compiled = try FHIRPathExpression(expression, options: options)
    let environment = FHIRPathEnvironment(resource: resource, variables: variables, clock: clock, terminology: terminology, resources: resources)
    return try compiled.evaluate(environment).map(FHIRPathResultJSON.text)
}

/// The error an expression raises when compiled and evaluated (nil when it raises none).
func failure(_ expression: String, on resource: FHIRTree? = nil, options: FHIRPathOptions = FHIRPathOptions()) -> FHIRPathError? {
    do throws(FHIRPathError) {
        _ = try evaluate(expression, on: resource, options: options)
        return nil
    } catch {
        return error
    }
}

func decimal(_ text: String) -> FHIRPathDecimal {
    FHIRPathDecimal(text)!
}

enum Fixtures {
    static let patient = """
        {"resourceType": "Patient", "id": "p1", "active": true, "gender": "female", "birthDate": "1980-02-29",
         "_birthDate": {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/patient-birthTime", "valueDateTime": "1980-02-29T06:30:00Z"}]},
         "name": [{"use": "official", "family": "Ng", "given": ["Ada", "May"], "_given": [null, {"extension": [{"url": "http://example.org/nick", "valueString": "M"}]}]},
                  {"use": "nickname", "given": ["Addy"]}],
         "deceasedBoolean": false, "multipleBirthInteger": 2,
         "contained": [{"resourceType": "Organization", "id": "org1", "name": "Clinic"}],
         "managingOrganization": {"reference": "#org1"},
         "generalPractitioner": [{"reference": "Practitioner/pr1"}]}
        """
}
