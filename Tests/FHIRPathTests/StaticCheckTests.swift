import Testing
@testable import FHIRPath

@Suite struct StaticCheckTests {
    static let patientContext = FHIRPathOptions(contextType: "Patient")
    static let strictPatient = FHIRPathOptions(mode: .strict, contextType: "Patient")

    @Test("unknown functions and wrong numbers of arguments are semantic errors at the function's name, with a suggestion")
    func functions() throws {
        let unknown = try #require(failure("name.givn().count()"))
        #expect(unknown.kind == .semantic)
        #expect(unknown.message.contains("unknown function 'givn'"))
        #expect(failure("name.frist()")?.message.contains("did you mean first()") == true)
        #expect(failure("name.frist()")?.range == 5..<10)
        #expect(failure("'a'.substring()")?.kind == .semantic)
        #expect(failure("iif(true)")?.kind == .semantic)
        #expect(failure("today(1)")?.message.contains("takes 0 arguments") == true)
    }

    @Test("operand and input types no operator or function takes are semantic errors before running")
    func types() {
        #expect(failure("@1974-12-25 + 7")?.kind == .semantic)
        #expect(failure("'a' - 'b'")?.kind == .semantic)
        #expect(failure("-true")?.kind == .semantic)
        #expect(failure("1 < 'a'")?.kind == .semantic)
        #expect(failure("(1 | 2 | 3) & 'b'")?.kind == .semantic)
        #expect(failure("iif(1 | 2 | 3, true, false)")?.kind == .semantic)
        #expect(failure("birthDate.startsWith('19')", options: Self.patientContext)?.kind == .semantic)
        #expect(failure("name.upper()", options: Self.patientContext)?.kind == .semantic)
        #expect(failure("1.is(Integr)")?.kind == .semantic)
        #expect(failure("1.is(System.Integr)") == nil)
    }

    @Test("strict mode checks paths against the R4 model; lenient mode keeps them as warnings and evaluates them as empty")
    func strictPaths() throws {
        #expect(failure("name.given1", options: Self.strictPatient)?.kind == .semantic)
        #expect(failure("name.given1", options: Self.strictPatient)?.message.contains("did you mean 'given'") == true)
        #expect(failure("Encounter.status", options: Self.strictPatient)?.kind == .semantic)
        #expect(failure("deceasedBoolean", options: Self.strictPatient)?.kind == .semantic)
        #expect(failure("iif('x', 1, 2)", options: Self.strictPatient)?.kind == .semantic)
        #expect(failure("Patient.children().first()", options: FHIRPathOptions(mode: .strict, contextType: "Patient", checkOrderedFunctions: true))?.kind == .semantic)
        let lenient = try FHIRPathExpression("name.given1 | deceasedBoolean", options: Self.patientContext)
        #expect(lenient.warnings.count == 2)
        #expect(try evaluate("name.given1", on: try tree(Fixtures.patient)) == [])
    }

    @Test("declared variables are checked: an undeclared one is a semantic error with a suggestion")
    func variables() {
        let options = FHIRPathOptions(contextType: "QuestionnaireResponse", variables: ["questionnaire": "Questionnaire", "score": nil])
        #expect(failure("%questionaire.item", options: options)?.message.contains("did you mean %questionnaire") == true)
        #expect(failure("%score + 1 + %resource.item.count() + %`vs-x`.length() + %ucum.length()", options: options)?.kind != .semantic)
        #expect(failure("%questionnaire.itme", options: FHIRPathOptions(mode: .strict, contextType: "QuestionnaireResponse", variables: ["questionnaire": "Questionnaire"]))?.kind == .semantic)
    }

    @Test("constant names are lexed by the chosen dialect: the grammar's, with dashes, or HAPI's (no '_', with ':' and '-')")
    func constantNames() throws {
        let variables: [String: FHIRPathCollection] = ["a": [.integer(5)], "b": [.integer(2)], "a-b": [.integer(9)], "score_total": [.integer(7)], "score": [.integer(1)]]
        #expect(try evaluate("%a-b", variables: variables) == [])  // %a minus the path b, empty here
        #expect(try evaluate("%a-b", variables: variables, options: FHIRPathOptions(constantNames: .dashes)) == ["9 (integer)"])
        #expect(try evaluate("%a-b", variables: variables, options: FHIRPathOptions(constantNames: .hapi)) == ["9 (integer)"])
        #expect(try evaluate("%score_total", variables: variables) == ["7 (integer)"])
        let hapi = try #require(failure("%score_total + 1", options: FHIRPathOptions(constantNames: .hapi)))
        #expect(hapi.kind == .syntax)
        #expect(hapi.range?.lowerBound == 6)
    }

    @Test("under HAPI's R4 function library, functions HAPI lacks are semantic errors at their name")
    func hapiFunctions() throws {
        let hapi = FHIRPathOptions(functions: .hapiR4)
        let sum = try #require(failure("(1 | 2).sum()", options: hapi))
        #expect(sum.kind == .semantic)
        #expect(sum.message.contains("no function 'sum'"))
        #expect(sum.range == 8..<11)
        #expect(failure("weight()", options: hapi)?.kind == .semantic)
        #expect(try evaluate("(1 | 2).aggregate($this + $total, 0)", options: hapi) == ["3 (integer)"])
        #expect(try evaluate("(1 | 2).sum()") == ["3 (integer)"])
    }

    @Test("constant pieces are computed once, when compiled")
    func folding() throws {
        let expression = try FHIRPathExpression("(2.0 'cm' * 2.0 'm').toQuantity('m2')")
        #expect(expression.root is ConstantEvaluator)
        let notConstant = try FHIRPathExpression("today() + 1 day")
        #expect(!(notConstant.root is ConstantEvaluator))
    }

    @Test("dependencies name the variables, paths and linkIds an expression reads, and whether it reads the clock")
    func dependencies() throws {
        let expression = try FHIRPathExpression(
            "%resource.item.where(linkId = 'q1' or linkId in ('q2' | 'q3')).answer.value.weight().sum() + %q4_value + iif(today() > %patient.birthDate, 1, 0)")
        let dependencies = expression.dependencies
        #expect(dependencies.variables == ["resource", "q4_value", "patient", "questionnaire"])
        #expect(dependencies.linkIds == ["q1", "q2", "q3"])
        #expect(dependencies.readsClock)
        #expect(dependencies.paths["%resource"]?.isSuperset(of: ["item", "item.linkId", "item.answer", "item.answer.value", "item.answer.value.*"]) == true)
        #expect(dependencies.paths["%patient"] == ["birthDate"])
        let descendants = try FHIRPathExpression("Questionnaire.descendants().linkId").dependencies
        #expect(descendants.paths["$this"] == ["*", "*.linkId"])
        #expect(!descendants.readsClock)
    }

    @Test("an expression reads its input when anything in it starts from the input, and only then")
    func readsInput() throws {
        func reads(_ text: String) throws -> Bool { try FHIRPathExpression(text).dependencies.readsInput }
        // Nothing starts from the input: variables, literals, iif over them, the clock.
        #expect(try !reads("iif(%a.exists(), %a, 0) + %b"))
        #expect(try !reads("%resource.item.where(linkId = 'q1').answer.value"))
        #expect(try !reads("today() - 1 year"))
        #expect(try !reads("%q.where($this > 2).count()"))
        // A leading identifier or type name, `$this`, a function without a target, `$this` in iif.
        #expect(try reads("answer.value"))
        #expect(try reads("QuestionnaireResponse.item"))
        #expect(try reads("$this.answer"))
        #expect(try reads("exists()"))
        #expect(try reads("weight()"))
        #expect(try reads("iif($this.exists(), 1, 0)"))
        #expect(try reads("%a.select(%b) | children()"))
    }
}
