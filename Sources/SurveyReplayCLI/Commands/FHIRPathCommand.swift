import FHIRPath
import SurveyCore
import SurveyHarness

/// `survey-replay fhirpath EXPR [--resource FILE] [--var NAME=FILE…]` evaluates one expression and prints
/// the result collection with types; `survey-replay fhirpath --json` serves JSON lines on standard input
/// and output, so any driver can run a suite against the engine.
enum FHIRPathCommand {
    static let spec = CommandSpec(
        name: "fhirpath",
        summary: "Evaluate a FHIRPath expression on a FHIR resource, or serve requests as JSON lines.",
        operands: [.init("EXPR", help: "The expression (not with --json).", optional: true)],
        options: [
            .value("--resource", "FILE", help: "The FHIR resource (JSON) %resource, %rootResource and %context are bound to."),
            .value("--var", "NAME=FILE", help: "A variable %NAME bound to the JSON in FILE (a resource, or a value); repeatable."),
            .value("--valueset", "FILE", help: "A ValueSet (JSON) memberOf() may check against; repeatable."),
            .value("--mode", "MODE", help: "lenient (default) or strict (paths checked against the FHIR R4 model).", choices: ["lenient", "strict"]),
            .value(
                "--polymorphic-names", "HOW",
                help: "What answer.valueCoding finds where the model has value[x]: empty (default, HAPI) or navigate (fhirpath.js).",
                choices: ["empty", "navigate"]),
            .value("--now", "DATETIME", help: "The moment now() and today() read (default 2026-01-01T00:00:00.000Z)."),
            .flag("--json", help: "Serve JSON lines: one request per line on standard input, one response per line on standard output."),
        ],
        discussion: """
            Each item of the result is printed on its own line as a literal with its type: 'Peter' (string),
            1.50 (decimal), @2014-01 (date), 4 'mg' (Quantity), or a complex value as compact JSON; an empty
            result prints {}. Decimals keep their precision; now() and today() read --now, so the same input
            gives the same output.

            With --json, each request is {"id", "expression", "resource": JSON|null, "variables": {NAME: JSON},
            "mode": "lenient"|"strict"} (%resource, %rootResource and %context are bound to the resource; an
            optional "checkOrderedFunctions": true makes first(), skip()… after children() an error in strict
            mode, as the suite's attribute of that name does); each
            response, in request order, is {"id", "result": [{"type", "value"}…]} or {"id", "error": {"kind":
            "syntax"|"semantic"|"execution", "message"}}. A type is the FHIR type of a node or boolean, integer,
            decimal (its value a string that keeps precision), string, date, dateTime, time (values without @
            or T), Quantity (value {"value", "unit"}); another node's value is its JSON. A line that is not a
            request gets {"id": null, "error": {"kind": "request", …}}, and its location goes to standard
            error.

            Exit codes: 0 evaluated (with --json: every line was a request); 2 a file or request is malformed,
            or the expression has an error (reported at its line:col).
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let clock = try clockOption(arguments.value("--now"))
        let terminology = FHIRPathTerminology(valueSets: try arguments.allValues("--valueset").map { try tree(InputFiles.read($0)) })
        let options = FHIRPathOptions(
            mode: arguments.value("--mode") == "strict" ? .strict : .lenient,
            polymorphicNames: arguments.value("--polymorphic-names") == "navigate" ? .navigate : .empty)
        if arguments.flag("--json") {
            guard arguments.operands.isEmpty else { throw UsageError(message: "--json reads expressions from standard input; give no EXPR", command: "fhirpath") }
            var malformed = false
            var number = 0
            while let line = readLine(strippingNewline: true) {
                number += 1
                if line.allSatisfy(\.isWhitespace) { continue }
                let (response, problem) = respond(to: line, number: number, options: options, clock: clock, terminology: terminology)
                invocation.console.out(CanonicalJSON.compact(response) + "\n")
                if let problem {
                    malformed = true
                    invocation.console.error(problem.description + "\n")
                }
            }
            return malformed ? ExitCode.badInput : ExitCode.success
        }
        guard let text = arguments.operands.first else { throw UsageError(message: "missing EXPR (or --json)", command: "fhirpath") }
        let resource = try arguments.value("--resource").map { try tree(InputFiles.read($0)) }
        var variables: [String: FHIRPathCollection] = [:]
        for assignment in arguments.allValues("--var") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError(message: "'--var \(assignment)' must be NAME=FILE", command: "fhirpath")
            }
            variables[String(assignment[..<equals])] = FHIRPathEnvironment.collection(json: try JSONParser.parse(InputFiles.read(String(assignment[assignment.index(after: equals)...]))))
        }
        var compileOptions = options
        compileOptions.contextType = resource?.root.type.name
        let source = FHIRPathSource(text: text)
        let environment = FHIRPathEnvironment(resource: resource, variables: variables, clock: clock, terminology: terminology)
        do throws(FHIRPathError) {
            let expression = try FHIRPathExpression(source, options: compileOptions)
            let result = try expression.evaluate(environment)
            invocation.console.out(result.isEmpty ? "{}\n" : result.map { FHIRPathResultJSON.text($0) + "\n" }.joined())
            return ExitCode.success
        } catch {
            throw InputError(source.diagnostic(for: error))
        }
    }

    /// The tree of a FHIR JSON file.
    private static func tree(_ file: SourceFile) throws(InputError) -> FHIRTree {
        FHIRTree(json: try JSONParser.parse(file))
    }

    private static func clockOption(_ text: String?) throws(UsageError) -> FHIRPathClock {
        guard let text else { return FHIRPathClock() }
        guard let moment = FHIRPathDateTime.parse(Substring(text), kind: .dateTime) else {
            throw UsageError(message: "'\(text)' is not a date-time for --now; expected e.g. 2026-05-01T09:30:00.000+02:00", command: "fhirpath")
        }
        return FHIRPathClock(now: moment)
    }

    /// The response to one request line, and the problem to report when the line is not a request.
    static func respond(to line: String, number: Int, options: FHIRPathOptions, clock: FHIRPathClock, terminology: FHIRPathTerminology)
        -> (JSONValue, Diagnostic?)
    {
        let file = SourceFile(path: "<stdin>", text: line)
        func malformed(_ message: String, at offset: Int) -> (JSONValue, Diagnostic?) {
            malformed(message, column: file.position(of: offset).column)
        }
        func malformed(_ message: String, column: Int) -> (JSONValue, Diagnostic?) {
            let position = SourcePosition(line: number, column: column)
            let diagnostic = Diagnostic(file: "<stdin>", position: position, message: message)
            return (["id": .null, "error": ["kind": "request", "message": .string("\(position): \(message)")]], diagnostic)
        }
        let request: JSONNode
        do throws(InputError) {
            request = try JSONParser.parse(file)
        } catch {
            let diagnostic = error.diagnostics.first
            return malformed(diagnostic?.message ?? "not JSON", column: diagnostic?.position?.column ?? 1)
        }
        guard request.kind == .object else { return malformed("a request must be a JSON object; found \(request.kindDescription)", at: request.offset) }
        let id = request["id"]?.plain ?? .null
        guard let expressionNode = request["expression"], let source = FHIRPathSource(jsonString: expressionNode) else {
            return malformed("a request needs \"expression\": a string", at: request["expression"]?.offset ?? request.offset)
        }
        var requestOptions = options
        if let mode = request["mode"] {
            switch mode.stringValue {
            case "lenient": requestOptions.mode = .lenient
            case "strict": requestOptions.mode = .strict
            default: return malformed("\"mode\" must be \"lenient\" or \"strict\"", at: mode.offset)
            }
        }
        if let flag = request["checkOrderedFunctions"] {
            guard let value = flag.boolValue else { return malformed("\"checkOrderedFunctions\" must be true or false", at: flag.offset) }
            requestOptions.checkOrderedFunctions = value
        }
        var resource: FHIRTree?
        if let node = request["resource"], !node.isNull {
            guard node.kind == .object else { return malformed("\"resource\" must be a JSON object or null", at: node.offset) }
            resource = FHIRTree(json: node)
            requestOptions.contextType = resource?.root.type.name
        }
        var variables: [String: FHIRPathCollection] = [:]
        if let node = request["variables"], !node.isNull {
            guard let members = node.members else { return malformed("\"variables\" must be a JSON object", at: node.offset) }
            for member in members { variables[member.key] = FHIRPathEnvironment.collection(json: member.value) }
        }
        let environment = FHIRPathEnvironment(resource: resource, variables: variables, clock: clock, terminology: terminology)
        do throws(FHIRPathError) {
            let expression = try FHIRPathExpression(source, options: requestOptions)
            let result = try expression.evaluate(environment)
            return (["id": id, "result": .array(result.map(FHIRPathResultJSON.json))], nil)
        } catch {
            // The request is one line: report the line's number and the column in it.
            let place = error.range.map { " at \(number):\(source.position(ofExpressionOffset: $0.lowerBound).column)" } ?? ""
            return (["id": id, "error": ["kind": .string(error.kind.rawValue), "message": .string(error.message + place)]], nil)
        }
    }
}
