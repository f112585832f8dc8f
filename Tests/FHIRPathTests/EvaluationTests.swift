import SurveyCore
import Testing
@testable import FHIRPath

@Suite struct EvaluationTests {
    @Test("empty propagates through operators and single-item functions; and/or/implies follow three-valued logic")
    func emptyAndLogic() throws {
        #expect(try evaluate("{} + 1") == [])
        #expect(try evaluate("{}.substring(1)") == [])
        #expect(try evaluate("({} and false) | ({} or true) | ({} implies true)") == ["false (boolean)", "true (boolean)"])
        #expect(try evaluate("({} and true).empty() and ({} xor true).empty()") == ["true (boolean)"])
        #expect(try evaluate("(true and 'x')") == ["true (boolean)"])
        #expect(failure("(true | false) and true")?.kind == .execution)
    }

    @Test("iif evaluates only the branch it takes, with the input as $this")
    func iif() throws {
        #expect(try evaluate("iif(true, 1, (1 | 2).single())") == ["1 (integer)"])
        #expect(try evaluate("('x').iif($this = 'x', 'yes', 'no')") == ["'yes' (string)"])
        #expect(try evaluate("iif({}, 1)") == [])
    }

    @Test(
        "an environment's iifObserver learns each iif decided, by where its name is: an empty criterion takes the otherwise-result, one non-Boolean item the true-result, an untaken branch's iif is not evaluated, a failing criterion reports nothing"
    )
    func iifObserver() throws {
        func decided(_ text: String, on resource: FHIRTree? = nil) throws -> [String] {
            let expression = try FHIRPathExpression(text)
            let seen = Decided()
            var environment = FHIRPathEnvironment(resource: resource)
            environment.iifObserver = { offset, criterion in seen.add("\(offset):\(criterion)") }
            _ = try? expression.evaluate(environment)
            #expect(expression.syntax.iifCalls.count == text.components(separatedBy: "iif(").count - 1)
            return seen.all
        }
        #expect(try decided("iif({}, 1, iif('x', 2, 3))") == ["0:false", "11:true"])
        #expect(try decided("iif(true, 1, iif(true, 2))") == ["0:true"])
        #expect(try decided("(1 | 2 | 3).select(iif($this > 1, 'big', 'small'))") == ["19:false", "19:true", "19:true"])
        #expect(try decided("iif(name.given, 1, 2)", on: tree(Fixtures.patient)) == [])
        #expect(try FHIRPathSyntax.parse("iif(a, iif(b, 1), 2).iif(c, 3)").iifCalls.compactMap(\.nameRange?.lowerBound) == [0, 7, 21])
    }

    @Test("where, select and exists see each item as $this and its position as $index")
    func iteration() throws {
        let patient = try tree(Fixtures.patient)
        #expect(try evaluate("name.where(use = 'nickname').given", on: patient) == ["'Addy' (string)"])
        #expect(try evaluate("name.given.select($index)", on: patient) == ["0 (integer)", "1 (integer)", "2 (integer)"])
        #expect(try evaluate("name.select(given.select($index))", on: patient) == ["0 (integer)", "1 (integer)", "0 (integer)"])
        #expect(try evaluate("name.exists(given = 'Addy') and name.all(given.exists())", on: patient) == ["true (boolean)"])
        #expect(failure("name.where(given)", on: patient)?.kind == .execution)
    }

    @Test("repeat() visits every node once, and stops a projection that never ends with an error")
    func repeatProjection() throws {
        let questionnaire = try tree(#"{"resourceType": "Questionnaire", "item": [{"linkId": "a", "item": [{"linkId": "b"}, {"linkId": "b"}]}, {"linkId": "c"}]}"#)
        #expect(try evaluate("repeat(item).linkId", on: questionnaire) == ["'a' (string)", "'c' (string)", "'b' (string)", "'b' (string)"])
        #expect(try evaluate("descendants().linkId.count()", on: questionnaire) == ["4 (integer)"])
        #expect(failure("(1).repeatAll($this + 1)")?.kind == .execution)
    }

    @Test("resolve() finds contained resources, bundle entries and the environment's resources")
    func resolving() throws {
        let patient = try tree(Fixtures.patient)
        let practitioner = try tree(#"{"resourceType": "Practitioner", "id": "pr1", "name": [{"family": "House"}]}"#)
        #expect(try evaluate("managingOrganization.resolve().name", on: patient) == ["'Clinic' (string)"])
        #expect(try evaluate("generalPractitioner.resolve().name.family", on: patient, resources: [practitioner]) == ["'House' (string)"])
        #expect(try evaluate("generalPractitioner.resolve()", on: patient) == [])
        let bundle = try tree(
            #"{"resourceType": "Bundle", "entry": [{"fullUrl": "urn:uuid:1", "resource": {"resourceType": "Patient", "id": "x", "link": [{"other": {"reference": "urn:uuid:2"}}]}}, {"fullUrl": "urn:uuid:2", "resource": {"resourceType": "Patient", "id": "y"}}]}"#)
        #expect(try evaluate("entry.resource.link.other.resolve().id", on: bundle) == ["'y' (id)"])
    }

    @Test("memberOf() checks codes against the value sets supplied to the run, and is empty for one it does not have")
    func memberOf() throws {
        let valueSet = try tree(
            #"{"resourceType": "ValueSet", "url": "http://example.org/vs", "compose": {"include": [{"system": "http://loinc.org", "concept": [{"code": "1-8"}]}, {"system": "http://snomed.info/sct"}], "exclude": [{"system": "http://snomed.info/sct", "concept": [{"code": "99"}]}]}}"#)
        let terminology = FHIRPathTerminology(valueSets: [valueSet])
        let coding = try tree(#"{"resourceType": "Parameters", "parameter": [{"name": "a", "valueCoding": {"system": "http://loinc.org", "code": "1-8"}}, {"name": "b", "valueCoding": {"system": "http://snomed.info/sct", "code": "99"}}, {"name": "c", "valueCoding": {"system": "http://snomed.info/sct", "code": "12"}}]}"#)
        #expect(try evaluate("parameter.value.select(memberOf('http://example.org/vs'))", on: coding, terminology: terminology)
            == ["true (boolean)", "false (boolean)", "true (boolean)"])
        #expect(try evaluate("parameter.value.first().memberOf('http://example.org/other')", on: coding, terminology: terminology) == [])
    }

    @Test("weight() and ordinal() read itemWeight or ordinalValue from the questionnaire's answer options, by the answer's linkId")
    func weights() throws {
        let (questionnaire, response) = (
            try tree(
                #"{"resourceType": "Questionnaire", "item": [{"linkId": "q", "answerOption": [{"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 2.5}], "valueCoding": {"system": "s", "code": "a"}}, {"valueCoding": {"system": "s", "code": "b"}}]}]}"#),
            try tree(
                #"{"resourceType": "QuestionnaireResponse", "item": [{"linkId": "q", "answer": [{"valueCoding": {"system": "s", "code": "a"}}]}, {"linkId": "q", "answer": [{"valueCoding": {"system": "s", "code": "b"}}]}, {"linkId": "z", "answer": [{"valueCoding": {"system": "s", "code": "a"}}]}]}"#)
        )
        let variables: [String: FHIRPathCollection] = ["questionnaire": [.node(questionnaire.root)]]
        #expect(try evaluate("item.where(linkId = 'q').answer.value.weight()", on: response, variables: variables) == ["2.5 (decimal)"])
        #expect(try evaluate("item.where(linkId = 'q').answer.ordinal().sum()", on: response, variables: variables) == ["2.5 (decimal)"])
        #expect(failure("item.answer.value.weight()", on: response)?.message.contains("%questionnaire") == true)
        #expect(throws: FHIRPathError.self) { try evaluate("item.answer.value.weight()", on: response, variables: variables) }
        #expect(try evaluate("%questionnaire.item.answerOption.weight()", on: response, variables: variables) == ["2.5 (decimal)"])
    }

    @Test("now(), today() and timeOfDay() read the environment's clock")
    func clock() throws {
        let clock = FHIRPathClock(now: FHIRPathDateTime.parse("2026-05-01T09:30:15.250+02:00", kind: .dateTime)!)
        #expect(try evaluate("now() | today() | timeOfDay()", clock: clock) == ["@2026-05-01T09:30:15.250+02:00 (dateTime)", "@2026-05-01 (date)", "@T09:30:15.250 (time)"])
        #expect(try evaluate("today()") == ["@2026-01-01 (date)"])
        #expect(try evaluate("@2012-01-01T12:30:00.000-07:00.timezoneOffsetOf() | @2012-01-01T12:30:00.000+08:45.timezoneOffsetOf()") == ["-7.0 (decimal)", "8.75 (decimal)"])
        let scenario = FHIRPathClock(scenario: ScenarioClock(today: CalendarDate(year: 2026, month: 11, day: 22), elapsed: 90_061))
        #expect(try evaluate("now()", clock: scenario) == ["@2026-11-23T01:01:01.000Z (dateTime)"])
    }

    @Test("an environment layered over another finds its own variables first, then the base's, with the base's clock and sinks")
    func layeredEnvironment() throws {
        let clock = FHIRPathClock(now: FHIRPathDateTime.parse("2026-05-01T09:30:15.250+02:00", kind: .dateTime)!)
        let base = FHIRPathEnvironment(variableList: [("shared", [.integer(1)]), ("shadowed", [.integer(2)])], clock: clock)
        // A name listed twice has its first value.
        let layered = FHIRPathEnvironment(variableList: [("own", [.integer(3)]), ("shadowed", [.integer(4)]), ("own", [.integer(5)])], over: base)
        let expression = try FHIRPathExpression("%own | %shadowed | %shared | today()")
        #expect(try expression.evaluate(on: [], layered).map(FHIRPathResultJSON.text) == ["3 (integer)", "4 (integer)", "1 (integer)", "@2026-05-01 (date)"])
        // The base is unchanged, and a name neither has is an error.
        #expect(try FHIRPathExpression("%shadowed").evaluate(on: [], base).map(FHIRPathResultJSON.text) == ["2 (integer)"])
        #expect(throws: FHIRPathError.self) { try FHIRPathExpression("%own").evaluate(on: [], base) }
        // Every variable, as the first of each name gives it.
        #expect(layered.variables.mapValues { $0.map(FHIRPathResultJSON.text) } == ["own": ["3 (integer)"], "shadowed": ["4 (integer)"], "shared": ["1 (integer)"]])
        // Setting the variables replaces them all, base included.
        var replaced = layered
        replaced.variables = ["only": [.boolean(true)]]
        #expect(throws: FHIRPathError.self) { try FHIRPathExpression("%shared").evaluate(on: [], replaced) }
        #expect(try FHIRPathExpression("%own").evaluate(on: [], layered).map(FHIRPathResultJSON.text) == ["3 (integer)"])
    }

    @Test("variables bound by names made once find the same values as by text: the first of a name, then the base's, names alike but for a byte apart")
    func namedVariables() throws {
        let base = FHIRPathEnvironment(variableList: [("shared", [.integer(1)]), ("q1_value", [.integer(2)])])
        // Names of one length that differ in one byte, a duplicate, and one longer than a small string.
        let names = ["q1_value", "q2_value", "q1_valuf", "q1_value", "a_variable_name_longer_than_fifteen_bytes"]
        let list = names.enumerated().map { (name: $0.element, value: [FHIRPathItem.integer(10 + $0.offset)]) }
        let byText = FHIRPathEnvironment(variableList: list, over: base)
        let byName = FHIRPathEnvironment(variables: list.map { FHIRPathBinding(FHIRPathVariableName($0.name), $0.value) }, over: base)
        let expression = try FHIRPathExpression("%q1_value | %q2_value | %q1_valuf | %a_variable_name_longer_than_fifteen_bytes | %shared | %ucum")
        let expected = ["10 (integer)", "11 (integer)", "12 (integer)", "14 (integer)", "1 (integer)", "'http://unitsofmeasure.org' (string)"]
        #expect(try expression.evaluate(on: [], byText).map(FHIRPathResultJSON.text) == expected)
        #expect(try expression.evaluate(on: [], byName).map(FHIRPathResultJSON.text) == expected)
        #expect(FHIRPathVariableName("q1_value") == FHIRPathVariableName("q1_value"))
        #expect(FHIRPathVariableName("q1_value") != FHIRPathVariableName("q1_valuf"))
        #expect(throws: FHIRPathError.self) { try FHIRPathExpression("%q3_value").evaluate(on: [], byName) }
    }

    @Test("trace() hands its collection to the environment's sink and passes its input on")
    func trace() throws {
        final class Sink: @unchecked Sendable { var lines: [String] = [] }
        let sink = Sink()
        var environment = FHIRPathEnvironment()
        environment.trace = { name, items in sink.lines.append("\(name): \(items.count)") }
        let result = try FHIRPathExpression("(1 | 2).trace('pair').count()").evaluate(on: [], environment)
        #expect(result.map(FHIRPathResultJSON.text) == ["2 (integer)"])
        #expect(sink.lines == ["pair: 2"])
    }

    @Test("evaluating on a collection of several items errors where one item is needed, and not elsewhere")
    func singletons() throws {
        let patient = try tree(Fixtures.patient)
        #expect(failure("name.given + 'x'", on: patient)?.kind == .execution)
        #expect(failure("name.given + 'x'", on: patient)?.range == 0..<10)
        #expect(try evaluate("name.given.first() + 'x'", on: patient) == ["'Adax' (string)"])
    }

    @Test("defineVariable() makes a variable for the rest of the expression")
    func defineVariable() throws {
        let patient = try tree(Fixtures.patient)
        #expect(try evaluate("defineVariable('n', name.count()).select(%n * 2)", on: patient) == ["4 (integer)"])
        #expect(failure("defineVariable('resource')", on: patient)?.kind == .execution)
    }
}

/// What an observer was told, in order (observers are called from the evaluating thread).
private final class Decided: @unchecked Sendable {
    private(set) var all: [String] = []

    func add(_ entry: String) { all.append(entry) }
}
