/// # FHIRPath
///
/// A FHIRPath engine (FHIRPath N1/2.0.0 with the 2.1 functions the official FHIR R4 suite exercises, plus
/// FHIR's and SDC's additions) over FHIR R4 JSON. Foundation only; no third-party code.
///
/// ## Compile once, evaluate many times
///
/// ```swift
/// // An expression read from a Questionnaire: errors point into the file, inside the JSON string.
/// let source = FHIRPathSource(jsonString: expressionNode)!          // or FHIRPathSource(text: "…")
/// let score = try FHIRPathExpression(source, options: FHIRPathOptions(
///     contextType: "QuestionnaireResponse",                          // the type of %resource/%context
///     variables: ["questionnaire": "Questionnaire", "q1_value": nil] // declared %names (type if known)
/// ))
/// score.dependencies            // which %variables, paths and linkIds it reads; whether it reads the clock
/// score.warnings                // paths the model does not have (errors in strict mode)
///
/// let response = FHIRTree(json: responseJSONNode)                    // a resource as a navigable tree
/// var environment = FHIRPathEnvironment(resource: response,          // binds %resource, %rootResource, %context
///     variables: ["questionnaire": [.node(questionnaireTree.root)]],
///     clock: FHIRPathClock(scenario: clock), terminology: FHIRPathTerminology(valueSets: valueSetTrees))
/// let result = try score.evaluate(environment)                       // [FHIRPathItem]
/// ```
///
/// - `FHIRPathExpression(_:options:)` lexes, parses and checks: it throws a `FHIRPathError` of kind
///   `.syntax` (not FHIRPath) or `.semantic` (knowable before running: an unknown function, a wrong number
///   of arguments, operand or input types no operator or function takes, a constant collection where one
///   item is needed; in `.strict` mode also paths the R4 model does not have, choice elements named with
///   their type (`valueQuantity`), a first name that is a type other than the context's, a non-Boolean
///   `iif` criterion, and order-dependent functions after `children()`/`descendants()`). Each error has
///   the byte range of the offending text; `FHIRPathSource.diagnostic(for:)` turns it into
///   `file:line:col` of that character in the JSON file (escapes accounted for).
/// - `evaluate(_:)` runs against the environment's `%context` (or `evaluate(on:_:)` against any collection)
///   and throws `.execution` errors (a collection where one item is needed, values of the wrong type).
///   A compiled expression is immutable and `Sendable`: evaluate it from any thread.
/// - `FHIRTree` is an immutable flat tree of a resource (typed by the R4 model in `FHIRModel.r4`; resources
///   the model does not describe are navigated from their JSON), from a located `JSONNode` (decimals keep
///   the digits the file writes) or a `JSONValue` (a response the engine builds). Build a new one when the
///   resource changes: it is linear in the resource, and what `weight()` works out for a tree (the answers'
///   scores) is kept with it, so every expression evaluated on that version reuses it.
/// - `FHIRPathOptions.mode` is `.lenient` (the spec's run-time default: a path the model lacks is empty, and
///   reported in `warnings`) or `.strict`. `polymorphicNames` says what `answer.valueCoding` finds where the
///   model has `value[x]`: nothing (`.empty`, the spec's tree and HAPI's FHIRPathEngine as android-fhir
///   configures it) or the `value` of type Coding (`.navigate`, fhirpath.js as LHC-Forms runs it).
///   `constantNames` says which characters a `%name` may hold (`%vs-name` without backticks, or HAPI's
///   letters, digits, `:` and `-`), and `functions` which function library the expression may call.
/// - `FHIRPathEnvironment` holds the `%` variables (user variables, SDC's `%questionnaire`, launch contexts,
///   item variables), the clock for `now()`/`today()`, the value sets for `memberOf()` and the resources
///   `resolve()` may find. `%ucum`, `%sct`, `%loinc`, `%vs-name` and `%ext-name` are built in.
/// - `FHIRPathItem` is one result item: a System value (Boolean, Integer, exact `FHIRPathDecimal`, String,
///   `FHIRPathDateTime` for Date/DateTime/Time, `FHIRPathQuantity`) or a `FHIRNode` of a tree, whose
///   FHIR type is `node.type` and whose System value is `item.systemValue`. `FHIRPathResultJSON` writes
///   results as the `survey-replay fhirpath --json` protocol does.
///
/// Semantics follow the spec (empty propagation, three-valued logic, decimals with their precision, UCUM
/// quantities, partial dates compared as unknown where precisions differ); where the official suite and
/// the spec disagree, the suite's expectation is followed and documented at the place it applies.
public struct FHIRPathExpression: Sendable {
    public let source: FHIRPathSource
    public let syntax: FHIRPathSyntax
    public let options: FHIRPathOptions
    /// What the expression reads, for recomputing only what a change can affect (worked out from the
    /// syntax when asked).
    public var dependencies: FHIRPathDependencies { FHIRPathDependencies(syntax, model: options.model) }
    /// Problems that are errors only in strict mode (a path the model does not have), found in lenient mode.
    public let warnings: [FHIRPathError]
    let root: Evaluator
    /// How many pieces keep their value through an evaluation (`InvariantEvaluator`).
    let invariants: Int

    /// Compiles an expression given on its own.
    public init(_ text: String, options: FHIRPathOptions = FHIRPathOptions()) throws(FHIRPathError) {
        try self.init(FHIRPathSource(text: text), options: options)
    }

    /// Compiles an expression: syntax, then static checks.
    public init(_ source: FHIRPathSource, options: FHIRPathOptions = FHIRPathOptions()) throws(FHIRPathError) {
        self.source = source
        self.options = options
        syntax = try FHIRPathParser.parse(source.text, constantNames: options.constantNames)
        var compiler = FHIRPathCompiler(options: options)
        root = try compiler.compileExpression(syntax)
        warnings = compiler.warnings
        invariants = compiler.invariants
    }

    /// The value of the expression on the environment's `%context` (empty when it has none).
    public func evaluate(_ environment: FHIRPathEnvironment) throws(FHIRPathError) -> FHIRPathCollection {
        try evaluate(on: environment.variable(FHIRPathVariableName.context) ?? [], environment)
    }

    /// The value of the expression with `$this` (the context) bound to `context`.
    public func evaluate(on context: FHIRPathCollection, _ environment: FHIRPathEnvironment) throws(FHIRPathError) -> FHIRPathCollection {
        var state = EvaluationState(environment: environment, model: options.model, invariants: invariants)
        return try root.evaluate(context, &state)
    }
}

/// How an expression is compiled and evaluated.
public struct FHIRPathOptions: Sendable {
    public enum Mode: String, Sendable {
        /// Paths the model does not have are empty (the spec's default, weakly typed run-time behaviour).
        case lenient
        /// Paths are checked against the R4 model at compile time (the suite's `mode="strict"`).
        case strict
    }

    /// How a choice element named with its type (`answer.valueCoding`, where the model has `value[x]`)
    /// navigates in lenient mode: to nothing, as the spec's tree model and HAPI's FHIRPathEngine (android-
    /// fhir) have it, or to the `value` of that type, as fhirpath.js (LHC-Forms) does.
    public enum PolymorphicNames: String, Sendable {
        case empty, navigate
    }

    /// Which characters a `%name` holds without backticks.
    public enum ConstantNames: String, Sendable {
        /// The grammar's identifier: letters, digits and `_` (fhirpath.js, LHC-Forms).
        case grammar
        /// The grammar's, and `-` between them (`%vs-administrative-gender`).
        case dashes
        /// HAPI's FHIRLexer (org.hl7.fhir.r4, android-fhir): letters, digits, `:` and `-`, never `_`, so
        /// `%score_total` is `%score` followed by an unexpected `_`.
        case hapi
    }

    /// The functions an expression may call.
    public enum Functions: String, Sendable {
        /// Every function this engine has.
        case complete
        /// Those of HAPI's FHIRPathEngine for R4 as android-fhir pins it (org.hl7.fhir.r4 6.0.22,
        /// `ExpressionNode.Function.fromCode`): no aggregates but `aggregate`, no `weight()`, `sort()`,
        /// `coalesce()`…; HAPI refuses any other name as it parses.
        case hapiR4
    }

    public var mode: Mode
    public var polymorphicNames: PolymorphicNames
    /// The type of `$this`, `%context` and `%resource` at the start (`"QuestionnaireResponse"`); nil when
    /// unknown (then paths from them are not checked).
    public var contextType: String?
    /// The `%` variables the expression may use besides the built-in ones, with their FHIR type name when
    /// known. Nil: any name is accepted at compile time (an unknown one fails when evaluated).
    public var variables: [String: String?]?
    /// Which characters `%` names may contain without backticks.
    public var constantNames: ConstantNames
    /// Which functions an expression may call: a call of another is a semantic error.
    public var functions: Functions
    /// In strict mode: order-dependent functions (`first()`, `skip()`…) after `children()` or
    /// `descendants()`, whose order is undefined, are errors (the suite's `checkOrderedFunctions`).
    public var checkOrderedFunctions: Bool
    public var model: FHIRModel

    public init(
        mode: Mode = .lenient, polymorphicNames: PolymorphicNames = .empty, contextType: String? = nil, variables: [String: String?]? = nil,
        constantNames: ConstantNames = .grammar, functions: Functions = .complete, checkOrderedFunctions: Bool = false, model: FHIRModel = .r4
    ) {
        self.mode = mode
        self.polymorphicNames = polymorphicNames
        self.contextType = contextType
        self.variables = variables
        self.constantNames = constantNames
        self.functions = functions
        self.checkOrderedFunctions = checkOrderedFunctions
        self.model = model
    }
}
