import SurveyCore
import Testing
@testable import FHIRPath

@Suite struct FHIRTreeTests {
    @Test("choice elements are found by their base name with the type of their key's suffix")
    func choices() throws {
        let patient = try tree(Fixtures.patient)
        #expect(try evaluate("deceased", on: patient) == ["false (boolean)"])
        #expect(try evaluate("multipleBirth.is(integer)", on: patient) == ["true (boolean)"])
        #expect(try evaluate("deceasedBoolean", on: patient) == [])
        #expect(try evaluate("deceasedBoolean", on: patient, options: FHIRPathOptions(polymorphicNames: .navigate)) == ["false (boolean)"])
    }

    @Test("a primitive's _name sibling gives it extensions, element by element in arrays, and hasValue() tells them apart")
    func primitiveExtensions() throws {
        let patient = try tree(Fixtures.patient)
        #expect(try evaluate("birthDate.extension('http://hl7.org/fhir/StructureDefinition/patient-birthTime').value", on: patient)
            == ["@1980-02-29T06:30:00Z (dateTime)"])
        #expect(try evaluate("name.given.select(extension.exists())", on: patient) == ["false (boolean)", "true (boolean)", "false (boolean)"])
        let onlyExtension = try tree(#"{"resourceType": "Patient", "_gender": {"extension": [{"url": "x", "valueCode": "unknown"}]}}"#)
        #expect(try evaluate("gender.hasValue() | gender.extension.exists()", on: onlyExtension) == ["false (boolean)", "true (boolean)"])
    }

    @Test("decimals keep the precision the file writes them with; primitive types come from the model")
    func primitives() throws {
        let observation = try tree(#"{"resourceType": "Observation", "status": "final", "valueQuantity": {"value": 1.50, "unit": "kg"}, "issued": "2020-01-02T03:04:05.678Z"}"#)
        #expect(try evaluate("value.value", on: observation) == ["1.50 (decimal)"])
        #expect(try evaluate("status.type().name | issued.type().name", on: observation) == ["'code' (string)", "'instant' (string)"])
        #expect(try evaluate("issued > @2020-01-01T00:00:00Z", on: observation) == ["true (boolean)"])
    }

    @Test("resources the model does not describe are navigated from their JSON, a key's datatype suffix still typing it")
    func unmodeledResources() throws {
        let claim = try tree(#"{"resourceType": "Claim", "billablePeriod": {"start": "2020-01-01"}, "total": {"value": 12.5}, "item": [{"sequence": 1, "servicedDate": "2020-01-02"}]}"#)
        #expect(try evaluate("Claim.billablePeriod.start", on: claim) == ["@2020-01-01 (dateTime)"])
        #expect(try evaluate("billablePeriod.is(Period)", on: claim) == ["true (boolean)"])
        #expect(try evaluate("item.serviced", on: claim) == ["@2020-01-02 (date)"])
        #expect(try evaluate("item.sequence + total.value", on: claim) == ["13.5 (decimal)"])
        #expect(try evaluate("billablePeriod.start < @2021", on: claim) == ["true (boolean)"])
    }

    @Test("contained resources are typed by their resourceType; a node's JSON writes choice and _name keys back")
    func containedAndJSON() throws {
        let patient = try tree(Fixtures.patient)
        #expect(try evaluate("contained.name | contained.type().name", on: patient) == ["'Clinic' (string)", "'Organization' (string)"])
        let json = patient.root.jsonValue
        #expect(json["deceasedBoolean"] == false)
        #expect(json["_birthDate"]?["extension"]?.arrayValue?.count == 1)
        #expect(json["name"]?.arrayValue?.first?["_given"]?.arrayValue?.first == .null)
    }

    @Test("a tree built from a plain JSON value navigates the same way")
    func fromJSONValue() throws {
        let value: JSONValue = ["resourceType": "QuestionnaireResponse", "item": [["linkId": "a", "answer": [["valueInteger": 3]]]]]
        #expect(try evaluate("item.answer.value + 1", on: FHIRTree(json: value)) == ["4 (integer)"])
    }
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? { objectValue?[key] }
}
