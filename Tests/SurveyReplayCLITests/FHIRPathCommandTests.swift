import Foundation
import Testing

@Suite struct FHIRPathCommandTests {
    static let patient = """
        {"resourceType": "Patient", "name": [{"given": ["Ada", "May"]}], "birthDate": "1980-02-29",
         "extension": [{"url": "http://example.org/weight", "valueQuantity": {"value": 61.50, "unit": "kg", "system": "http://unitsofmeasure.org", "code": "kg"}}]}
        """

    @Test("fhirpath prints each result item as a literal with its type; decimals keep their precision")
    func printsTypedItems() throws {
        let folder = try TemporaryFolder()
        let patient = try folder.write("patient.json", Self.patient)
        let coding = try folder.write("coding.json", #"{"system": "http://loinc.org", "code": "1-8"}"#)
        let result = runCLI(["fhirpath", "name.given | birthDate | extension.value.value | %c.code | 1.50 * 2 | today()", "--resource", patient, "--var", "c=\(coding)"])
        #expect(result.status == 0)
        #expect(result.out == "'Ada' (string)\n'May' (string)\n@1980-02-29 (date)\n61.50 (decimal)\n'1-8' (string)\n3.00 (decimal)\n@2026-01-01 (date)\n")
        #expect(runCLI(["fhirpath", "{}"]).out == "{}\n")
        #expect(runCLI(["fhirpath", "now()", "--now", "2026-03-04T05:06:07.000+01:00"]).out == "@2026-03-04T05:06:07.000+01:00 (dateTime)\n")
    }

    @Test("an expression error is reported at its column with exit code 2; strict mode checks paths")
    func locatedErrors() throws {
        let folder = try TemporaryFolder()
        let patient = try folder.write("patient.json", Self.patient)
        let syntax = runCLI(["fhirpath", "name.given +"])
        #expect(syntax.status == 2)
        #expect(syntax.error.hasPrefix("<expression>:1:12: error: FHIRPath syntax error:"))
        let strict = runCLI(["fhirpath", "name.givn", "--resource", patient, "--mode", "strict"])
        #expect(strict.status == 2)
        #expect(strict.error.contains("1:6: error: FHIRPath semantic error: HumanName has no element 'givn'; did you mean 'given'?"))
        let execution = runCLI(["fhirpath", "name.given.single()", "--resource", patient])
        #expect(execution.status == 2)
        #expect(execution.error.contains("FHIRPath execution error"))
        let badFile = runCLI(["fhirpath", "name", "--resource", folder.path + "/missing.json"])
        #expect(badFile.status == 2)
        #expect(badFile.error.contains("missing.json"))
        #expect(runCLI(["fhirpath"]).status == 2)
        #expect(runCLI(["fhirpath", "1", "--var", "x"]).status == 2)
    }

    @Test("fhirpath --json answers each request line in order, with results or the error's kind, and flags lines that are not requests")
    func jsonLines() throws {
        let requests = [
            #"{"id": 1, "expression": "name.given.first()", "resource": {"resourceType": "Patient", "name": [{"given": ["Ann"]}]}}"#,
            #"{"id": "b", "expression": "1.50 + 1", "resource": null, "mode": "lenient"}"#,
            #"{"id": 3, "expression": "%q.code", "variables": {"q": {"code": "x"}}}"#,
            "not json",
            #"{"id": 4, "expression": "1 +"}"#,
            #"{"id": 5, "expression": "(1 | 2).single()"}"#,
            #"{"id": 6, "expression": "value", "resource": {"resourceType": "Observation", "valueQuantity": {"value": 1.50, "code": "mg"}}}"#,
            #"{"id": 7, "expression": "valueQuantity", "resource": {"resourceType": "Observation"}, "mode": "strict"}"#,
            #"{"id": 8, "expression": "@2020-01-02T10:00 | @T10:20 | 3 weeks"}"#,
        ]
        let result = try runBinary(["fhirpath", "--json"], input: requests.joined(separator: "\n") + "\n")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"id":1,"result":[{"type":"string","value":"Ann"}]}"#,
            #"{"id":"b","result":[{"type":"decimal","value":"2.50"}]}"#,
            #"{"id":3,"result":[{"type":"string","value":"x"}]}"#,
            #"{"error":{"kind":"request","message":"4:1: unexpected 'n'; expected a value (did you mean 'null'?)"},"id":null}"#,
            #"{"error":{"kind":"syntax","message":"'+' at the end; expected an expression after it at 5:28"},"id":4}"#,
            #"{"error":{"kind":"execution","message":"the input of single() is a collection of 2 items; expected one item at 6:26"},"id":5}"#,
            #"{"id":6,"result":[{"type":"Quantity","value":{"unit":"mg","value":"1.50"}}]}"#,
            #"{"error":{"kind":"semantic","message":"'valueQuantity' names the choice element 'value' with its type; write value.ofType(Quantity) at 8:26"},"id":7}"#,
            #"{"id":8,"result":[{"type":"dateTime","value":"2020-01-02T10:00"},{"type":"time","value":"10:20"},{"type":"Quantity","value":{"unit":"weeks","value":"3"}}]}"#,
        ])
        #expect(result.error == "<stdin>:4:1: error: unexpected 'n'; expected a value (did you mean 'null'?)\n")
        #expect(result.status == 2)
        let clean = try runBinary(["fhirpath", "--json"], input: requests[1] + "\n\n")
        #expect(clean.status == 0)
        let ordered = try runBinary(
            ["fhirpath", "--json"],
            input: #"{"id": 9, "expression": "children().skip(1)", "resource": {"resourceType": "Patient"}, "mode": "strict", "checkOrderedFunctions": true}"# + "\n")
        #expect(ordered.out.hasPrefix(#"{"error":{"kind":"semantic","message":"skip() depends on order"#))
        #expect(runCLI(["fhirpath", "--json", "1"]).status == 2)
    }

    @Test("fhirpath --help comes from the command's declaration and is listed in the overview")
    func help() {
        let help = runCLI(["fhirpath", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("--polymorphic-names HOW"))
        #expect(help.out.contains("--json"))
        #expect(runCLI(["--help"]).out.contains("fhirpath"))
    }
}
