import FHIRPath
import SurveyCore

/// What lint finds in a Questionnaire's SDC expressions (docs/fhir.md, "SDC expressions"): FHIRPath that
/// does not compile (located inside the JSON string) under the default engine's FHIRPath or only under the
/// other's, linkIds no item has, variables used where none is in scope, calculated values nothing can change,
/// cycles, what needs a server, and what neither engine evaluates.
enum FHIRExpressionLint {
    static func findings(_ outline: FHIROutline) -> [Diagnostic] {
        let program = FHIRExpressionProgram(outline)
        var found: [Diagnostic] = []
        func add(_ severity: Diagnostic.Severity, _ location: SourceLocation, _ message: String, hint: String, rule: String) {
            found.append(Diagnostic(severity, file: outline.file, location: location, message: message, hint: hint, rule: rule))
        }
        let expressions = outline.rootExpressions.map { (nil as Int?, $0) } + outline.items.indices.flatMap { index in outline.items[index].expressions.map { (index as Int?, $0) } }
        for (item, expression) in expressions {
            let owner = item.map { "'\(outline.items[$0].linkId)'" } ?? "the Questionnaire"
            if expression.kind == .notEvaluated {
                let server = expression.language == .fhirQuery
                add(
                    .note, expression.location,
                    "the \(expression.extensionName) of \(owner) is not evaluated while the form runs (neither engine reads it then)\(server ? "; its x-fhir-query needs a FHIR server, which the simulation has none of" : "")",
                    hint: "nothing to fix for filling in the form", rule: server ? "fhir-sdc-server" : "fhir-sdc-not-evaluated")
                continue
            }
            switch expression.language {
            case .fhirQuery:
                add(
                    .warning, expression.location,
                    "the \(expression.extensionName) of \(owner) is an x-fhir-query, which needs a FHIR server: not simulated; SurveyReplay evaluates it as a search that found nothing (LHC-Forms' result when the fetch fails)",
                    hint: "give scenarios the data another way (a launch context), or expect the engines to differ from the simulation here", rule: "fhir-sdc-server")
                continue
            case .other(let language):
                add(
                    .warning, expression.location, "the \(expression.extensionName) of \(owner) is in \(language.map { "'\($0)'" } ?? "no language"): LHC-Forms and android-fhir evaluate only text/fhirpath (and x-fhir-query) there, so it is ignored",
                    hint: "write it in FHIRPath with \"language\": \"text/fhirpath\"", rule: "fhir-sdc-not-evaluated")
                continue
            case .fhirPath:
                break
            }
            guard let compiled = expression.compiled, let source = expression.source else { continue }
            switch compiled {
            case .failure(let error):
                var diagnostic = source.diagnostic(for: error, pointer: expression.location.pointer.description)
                diagnostic.message = "the \(expression.extensionName) of \(owner): \(diagnostic.message); \(failureEffect(expression.kind))"
                diagnostic.hint = error.kind == .syntax ? "fix the FHIRPath syntax at this column" : "fix the expression as the message says"
                diagnostic.rule = error.kind == .syntax ? "fhir-sdc-syntax" : "fhir-sdc-semantic"
                found.append(diagnostic)
            case .success:
                let android = FHIRExpressionDialect.options(for: .androidFHIR)
                do throws(FHIRPathError) {
                    _ = try FHIRPathExpression(source, options: android)
                } catch {
                    var diagnostic = source.diagnostic(for: error, pointer: expression.location.pointer.description)
                    diagnostic.severity = .warning
                    diagnostic.message = "android-fhir's FHIRPath (HAPI, org.hl7.fhir.r4 6.0.22) cannot compile the \(expression.extensionName) of \(owner): \(diagnostic.message); LHC-Forms runs it"
                    diagnostic.hint = "write FHIRPath both engines read: variable names without '_', no sum()/weight() (use aggregate() and the score extensions)"
                    diagnostic.rule = "fhir-sdc-dialect"
                    found.append(diagnostic)
                }
            }
        }
        for node in program.nodes {
            let owner = node.item.map { "'\(outline.items[$0].linkId)'" } ?? "the Questionnaire"
            let location = node.expression.location
            for linkId in node.unknownLinkIds {
                add(
                    .error, location, "the \(node.expression.extensionName) of \(owner) reads linkId '\(linkId)', which no item has\(Spelling.suggestion(for: linkId, in: outline.items.map(\.linkId))): it finds nothing there",
                    hint: "name the linkId of an item of this Questionnaire", rule: "fhir-sdc-unknown-linkid")
            }
            for name in node.unresolved {
                let elsewhere = program.nodes.first { $0.expression.kind == .variable && $0.expression.name == name }
                let why = elsewhere.map { "the variable %\(name) is defined on \($0.item.map { "'\(outline.items[$0].linkId)'" } ?? "the Questionnaire"), whose scope (the item and its descendants) does not include \(owner)" }
                    ?? "no variable, launch context or SDC name %\(name) is defined"
                add(
                    .error, location,
                    "the \(node.expression.extensionName) of \(owner) uses %\(name), but \(why): LHC-Forms' fhirpath.js throws (undefined environment variable), android-fhir reads it as empty",
                    hint: "define %\(name) on this item, an ancestor or the Questionnaire (variable), or declare a launchContext", rule: "fhir-sdc-out-of-scope")
            }
        }
        for (item, node) in program.calculatedOfItem.sorted(by: { $0.key < $1.key }) where !program.dependsOnAnswers(node, items: outline.items) {
            add(
                .warning, program.nodes[node].expression.location,
                "the calculatedExpression of '\(outline.items[item].linkId)' reads no answer: nothing the respondent does can change its value",
                hint: "use initialExpression for a value set once, or read the answers it should follow", rule: "fhir-sdc-constant")
        }
        for cycle in program.cycles {
            let names = (cycle + [cycle[0]]).map { describe(program.nodes[$0], outline) }
            add(
                .error, program.nodes[cycle[0]].expression.location, "SDC expressions depend on each other in a cycle: \(names.joined(separator: " → ")): LHC-Forms recomputes until nothing changes (forever when the values keep changing), android-fhir refuses two calculated items reading each other",
                hint: "break the cycle: one of them must not read the other", rule: "fhir-sdc-cycle")
        }
        for item in outline.items where item.enablementIsExpression && !item.enableWhen.isEmpty {
            guard let location = item.enableWhenLocation else { continue }
            add(
                .warning, location,
                "'\(item.linkId)' has both enableWhen and an enableWhenExpression, which SDC makes mutually exclusive: LHC-Forms enables it only when both allow it, android-fhir uses the expression alone",
                hint: "keep one of them", rule: "fhir-enablewhen-and-expression")
        }
        for item in outline.items {
            guard let toggle = item.expression(.answerOptionsToggle) else { continue }
            add(
                .note, toggle.location, "the answerOptionsToggleExpression of '\(item.linkId)': android-fhir offers the options it lists only while it is true; LHC-Forms does not read it and always offers them",
                hint: "SurveyReplay follows LHC-Forms by default; option engine android-fhir simulates the toggle", rule: "fhir-sdc-engines-differ")
        }
        return found
    }

    /// What the engines do when an expression of this kind fails, for messages.
    private static func failureEffect(_ kind: FHIR.ExpressionKind) -> String {
        switch kind {
        case .enableWhen: "LHC-Forms then throws a TypeError and stops running expressions, android-fhir throws"
        case .calculated: "LHC-Forms leaves the item's value as it is, android-fhir throws"
        case .initial: "the item gets no initial value"
        case .variable: "the variable is empty"
        case .answer, .answerOptionsToggle: "the options are not computed"
        case .notEvaluated: "it is not evaluated anyway"
        }
    }

    private static func describe(_ node: FHIRExpressionProgram.Node, _ outline: FHIROutline) -> String {
        let owner = node.item.map { "'\(outline.items[$0].linkId)'" } ?? "Questionnaire"
        if node.expression.kind == .variable { return "%\(node.expression.name ?? "?") of \(owner)" }
        return "\(node.expression.kind.rawValue) of \(owner)"
    }
}

extension FHIRExpressionProgram {
    /// Whether a node's value can follow the answers: it reads an item the respondent answers (a calculated
    /// one that is not read-only can be overridden), one whose calculated value can change, or a variable that
    /// does.
    func dependsOnAnswers(_ node: Int, items: [FHIR.Item]) -> Bool {
        var seen: Set<Int> = []
        func visit(_ index: Int) -> Bool {
            guard seen.insert(index).inserted else { return false }
            let current = nodes[index]
            if current.readsAnyAnswer { return true }
            for item in current.reads {
                guard let calculated = calculatedOfItem[item], items[item].readOnly else { return true }
                if visit(calculated) { return true }
            }
            return current.variables.values.contains(where: visit)
        }
        return visit(node)
    }
}
