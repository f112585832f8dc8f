import FHIRPath
import SurveyCore
import Testing

@testable import SurveyFormats

/// An SDC expression extension: `kind` is the url's last segment (`sdc-questionnaire-calculatedExpression`,
/// `variable`), `expression` FHIRPath text written into a JSON string.
func sdcExtension(_ kind: String, _ expression: String, name: String? = nil, language: String = "text/fhirpath") -> String {
    let base = kind == "variable" ? "http://hl7.org/fhir/StructureDefinition/" : "http://hl7.org/fhir/uv/sdc/StructureDefinition/"
    let named = name.map { #""name": "\#($0)", "# } ?? ""
    return #"{"url": "\#(base)\#(kind)", "valueExpression": {\#(named)"language": "\#(language)", "expression": "\#(expression)"}}"#
}

/// `"extension": [...]` of these extensions.
func extensions(_ entries: String...) -> String { #""extension": [\#(entries.joined(separator: ", "))]"# }

/// A launch context extension named `name` of resource type `type`.
func launchContext(_ name: String, _ type: String) -> String {
    #"{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-launchContext", "extension": [{"url": "name", "valueCoding": {"system": "http://hl7.org/fhir/uv/sdc/CodeSystem/launchContext", "code": "\#(name)"}}, {"url": "type", "valueCode": "\#(type)"}]}"#
}

@Suite("FHIR SDC expressions: reading and compiling")
struct FHIRExpressionDecodingTests {
    @Test("each SDC expression is compiled once as the file is read, with the engine's FHIRPath; variables keep their names, launch contexts their types")
    func compiledOnce() throws {
        let text = questionnaireText(
            [
                fhirItem("a", "integer"),
                fhirItem("total", "integer", extensions(sdcExtension("variable", "%resource.item.where(linkId='a').answer.value", name: "av"), sdcExtension("sdc-questionnaire-calculatedExpression", "%av + 1"))),
            ], extra: #""status": "active", "# + extensions(launchContext("patient", "Patient"), sdcExtension("variable", "%patient.gender", name: "gender")))
        let survey = try loadQuestionnaire(text)
        let total = try #require(survey.item("total"))
        #expect(total.expressions.map(\.kind) == [.variable, .calculated])
        #expect(total.expressions[0].name == "av")
        #expect(total.expression(.calculated)?.program != nil)
        #expect(survey.rootExpressions.map(\.name) == ["gender"])
        #expect(survey.launchContexts.map(\.name) == ["patient"])
        #expect(survey.launchContexts.first?.types == ["Patient"])
        // android-fhir's reading compiles with HAPI's FHIRPath: its own compiled expressions.
        let android = try survey.reading(for: .androidFHIR).get()
        #expect(android.engine == .androidFHIR)
        #expect(android.item("total")?.expression(.calculated)?.program?.options.constantNames == .hapi)
    }

    @Test("an expression that does not compile keeps its error, located at the offending character inside the JSON string")
    func locatedErrors() throws {
        let text = questionnaireText([fhirItem("a", "integer", extensions(sdcExtension("sdc-questionnaire-calculatedExpression", #"'\\u00e9\\t' + 'x' +* 2"#)))])
        let survey = try loadQuestionnaire(text)
        let expression = try #require(survey.item("a")?.expression(.calculated))
        guard case .failure(let error)? = expression.compiled, let source = expression.source else {
            Issue.record("expected a compile failure")
            return
        }
        #expect(error.kind == .syntax)
        // The "*" is past two escaped backslashes (JSON "\\\\"): the file column counts both bytes of each.
        let column = text.utf8.count - text.utf8.split(separator: UInt8(ascii: "*")).last!.count
        #expect(source.diagnostic(for: error).position == SourcePosition(line: 1, column: column))
    }

    @Test("x-fhir-query and CQL are kept uncompiled, with their language")
    func otherLanguages() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("a", "string", extensions(
                    sdcExtension("sdc-questionnaire-initialExpression", "Patient?_id={{%patient.id}}", language: "application/x-fhir-query"),
                    #"{"url": "http://hl7.org/fhir/StructureDefinition/cqf-expression", "valueExpression": {"language": "text/cql.identifier", "expression": "FacilityName"}}"#))
            ]))
        let item = try #require(survey.item("a"))
        #expect(item.expressions.map(\.language) == [.fhirQuery, .other("text/cql.identifier")])
        #expect(item.expressions.allSatisfy { $0.compiled == nil })
        #expect(item.expressions.map(\.kind) == [.initial, .notEvaluated])
    }
}
