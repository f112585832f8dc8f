import FHIRPath
import SurveyCore

/// The SDC expression extensions of a Questionnaire and its items, and its launch contexts, read once per
/// engine: each FHIRPath expression is compiled here, once, with the engine's FHIRPath (`FHIRExpressionDialect`).
/// What cannot be compiled is kept with its error, located inside the JSON string, for lint and for the
/// session, which fails as the engine fails when it evaluates it.
extension FHIRDecoder {
    /// The rule of an SDC extension whose shape is not SDC's (no valueExpression, a variable without name…).
    static let expressionShapeRule = "fhir-sdc-shape"

    /// One SDC expression extension (`sdc-questionnaire-…Expression`, `variable`, `cqf-expression`…), or nil
    /// when it has no Expression to read.
    mutating func decodeExpression(_ ext: JSONObjectCursor, name: String, kind: FHIR.ExpressionKind, owner: String) -> FHIR.SDCExpression? {
        var toggled: [FHIR.Value] = []
        var expressionCursor = ext["valueExpression"]
        if kind == .answerOptionsToggle {
            // Complex: `option` (value[x], 1..*) and `expression` (valueExpression) sub-extensions.
            expressionCursor = nil
            for part in ext["extension"]?.elements ?? [] {
                guard let object = part.object else { continue }
                switch object["url"]?.stringValue {
                case "option": if let value = value(object, prefix: "value", in: "an option of the answerOptionsToggleExpression of \(owner)") { toggled.append(value) }
                case "expression": expressionCursor = object["valueExpression"]
                default: break
                }
            }
        }
        guard let expression = expressionCursor?.object else {
            finding(
                .error, expressionCursor ?? ext.cursor, "the \(name) extension of \(owner) has no valueExpression object; expected {\"language\": \"text/fhirpath\", \"expression\": \"…\"}",
                hint: "give the extension a valueExpression", rule: Self.expressionShapeRule)
            return nil
        }
        let textCursor = expression["expression"]
        let text = textCursor?.stringValue
        let languageText = expression["language"]?.stringValue
        let language: FHIR.ExpressionLanguage =
            switch languageText {
            case "text/fhirpath": .fhirPath
            case "application/x-fhir-query": .fhirQuery
            default: .other(languageText)
            }
        let variableName = expression["name"]?.stringValue
        if kind == .variable, variableName == nil {
            finding(
                .error, expression.cursor, "a variable of \(owner) has no \"name\": no expression can read it",
                hint: "name the variable (Expression.name)", rule: Self.expressionShapeRule)
        }
        var source: FHIRPathSource?
        var compiled: Result<FHIRPathExpression, FHIRPathError>?
        if language == .fhirPath, let textCursor {
            source = FHIRPathSource(jsonString: textCursor.node)
            if let source {
                differsByEngine = true
                compiled = Result(catching: { () throws(FHIRPathError) -> FHIRPathExpression in try FHIRPathExpression(source, options: FHIRExpressionDialect.options(for: engine)) })
            }
        }
        if text == nil, kind != .notEvaluated {
            finding(
                .error, textCursor ?? expression.cursor, "the \(name) extension of \(owner) has no \"expression\" string",
                hint: "write the expression in valueExpression.expression", rule: Self.expressionShapeRule)
        }
        return FHIR.SDCExpression(
            kind: kind, extensionName: name, name: variableName, language: language, text: text, location: ext.location,
            source: source, compiled: compiled, toggledOptions: toggled)
    }

    /// An `sdc-questionnaire-launchContext` extension: `name` (valueCoding, or the older valueId) and one or
    /// more `type` (valueCode).
    mutating func decodeLaunchContext(_ ext: JSONObjectCursor) -> FHIR.LaunchContext? {
        var name: String?
        var system: String?
        var types: [String] = []
        for part in ext["extension"]?.elements ?? [] {
            guard let object = part.object else { continue }
            switch object["url"]?.stringValue {
            case "name" where name == nil:
                name = object["valueCoding"]?.object?["code"]?.stringValue ?? object["valueId"]?.stringValue
                system = object["valueCoding"]?.object?["system"]?.stringValue
            case "type": if let type = object["valueCode"]?.stringValue { types.append(type) }
            default: break
            }
        }
        guard let name, !types.isEmpty else {
            finding(
                .error, ext.cursor, "a launchContext without \(name == nil ? "a name (valueCoding)" : "a type (valueCode)"): the engines read no resource for it",
                hint: "give it a name such as patient and the resource type", rule: Self.expressionShapeRule)
            return nil
        }
        return FHIR.LaunchContext(name: name, nameSystem: system, types: types, location: ext.location)
    }
}

/// The FHIRPath each engine runs SDC expressions with: LHC-Forms runs fhirpath.js (LHNCBC/lforms@24c71875
/// package-lock.json: fhirpath 4.8.0), whose grammar reads `%a-b` as `%a - b` and which navigates
/// `answer.valueCoding` to a value of type Coding; android-fhir runs HAPI's FHIRPathEngine for R4
/// (org.hl7.fhir.r4 6.0.22, google/android-fhir@28a50345 buildSrc/src/main/kotlin/Dependencies.kt:38, 70, 106),
/// whose lexer reads `%` names with `-` and `:` and without `_`, which finds nothing under a choice name with
/// its type, and which has no aggregate functions but `aggregate`, nor `weight()`.
enum FHIRExpressionDialect {
    static func options(for engine: FHIREngine) -> FHIRPathOptions {
        switch engine {
        case .lhcForms: FHIRPathOptions(polymorphicNames: .navigate, constantNames: .grammar, functions: .complete)
        case .androidFHIR: FHIRPathOptions(polymorphicNames: .empty, constantNames: .hapi, functions: .hapiR4)
        }
    }
}
