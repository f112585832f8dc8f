import SurveyCore

/// Turns a syntax tree into evaluators, checking what can be known before running (the semantic errors
/// of `FHIRPathExpression`) and folding constant pieces (`1 | 2 | 3`, `2.0 'cm' * 2.0 'm'`) into values.
struct FHIRPathCompiler {
    let options: FHIRPathOptions
    private var model: FHIRModel { options.model }
    private(set) var warnings: [FHIRPathError] = []
    /// How many invariant pieces were found (`FHIRPathInvariants`), each kept in its slot.
    private(set) var invariants = 0
    /// Whether the expression's invariant pieces may keep their values, and how many iterated arguments
    /// the piece being compiled is inside.
    private var keepsInvariants = false
    private var iterationDepth = 0

    init(options: FHIRPathOptions) {
        self.options = options
    }

    private var strict: Bool { options.mode == .strict }

    /// The static type of the context: the options' context type, one item.
    private var contextType: StaticType {
        guard let name = options.contextType, let type = model.fhirType(named: name) else { return .unknown }
        return StaticType(types: [type], isSingleton: true)
    }

    mutating func compileExpression(_ syntax: FHIRPathSyntax) throws(FHIRPathError) -> Evaluator {
        if strict, options.contextType != nil, model.fhirType(named: options.contextType!) == nil {
            throw FHIRPathError(.semantic, "the context type '\(options.contextType!)' is not a FHIR R4 type", at: 0..<0)
        }
        keepsInvariants = FHIRPathInvariants.allowsKeeping(syntax)
        return try compile(syntax, scope: contextType).0
    }

    private func semantic(_ message: String, _ range: Range<Int>) -> FHIRPathError {
        FHIRPathError(.semantic, message, at: range)
    }

    /// A problem the model shows: an error in strict mode, a warning otherwise.
    private mutating func modelProblem(_ message: String, _ range: Range<Int>) throws(FHIRPathError) {
        if strict { throw semantic(message, range) }
        warnings.append(semantic(message, range))
    }

    // MARK: Pieces

    /// The evaluator of a piece and what is known of its value. `scope` is what `$this` is there.
    mutating func compile(_ syntax: FHIRPathSyntax, scope: StaticType) throws(FHIRPathError) -> (Evaluator, StaticType) {
        if iterationDepth > 0, keepsInvariants, FHIRPathInvariants.isWorthKeeping(syntax), FHIRPathInvariants.isInvariant(syntax) {
            // The largest invariant piece inside an iteration keeps its value (the pieces in it need not).
            let depth = iterationDepth
            iterationDepth = 0
            defer { iterationDepth = depth }
            let (evaluator, type) = try compilePiece(syntax, scope: scope)
            if evaluator is ConstantEvaluator { return (evaluator, type) }
            defer { invariants += 1 }
            return (InvariantEvaluator(evaluator, slot: invariants, range: syntax.range), type)
        }
        return try compilePiece(syntax, scope: scope)
    }

    private mutating func compilePiece(_ syntax: FHIRPathSyntax, scope: StaticType) throws(FHIRPathError) -> (Evaluator, StaticType) {
        let range = syntax.range
        switch syntax.kind {
        case .literal(let literal):
            let (value, type) = constant(literal)
            return (ConstantEvaluator(value, range: range), type)
        case .parenthesized(let inner):
            let (evaluator, type) = try compile(inner, scope: scope)
            return (evaluator is ConstantEvaluator ? evaluator : ParenthesizedEvaluator(evaluator, range: range), type)
        case .this:
            return (SpecialVariableEvaluator(.this, range: range), scope)
        case .index:
            return (SpecialVariableEvaluator(.index, range: range), .system(.integer, model))
        case .total:
            return (SpecialVariableEvaluator(.total, range: range), .unknown)
        case .constant(let name):
            return (VariableEvaluator(name, range: range), try variableType(name, range))
        case .identifier(let name):
            return try member(nil, name, scope: scope, syntax: syntax)
        case .member(let target, let name):
            return try member(target, name, scope: scope, syntax: syntax)
        case .function(let target, let name, let arguments):
            return try function(target, name, arguments, scope: scope, syntax: syntax)
        case .indexer(let target, let index):
            let (targetEvaluator, targetType) = try compile(target, scope: scope)
            let (indexEvaluator, indexType) = try compile(index, scope: scope)
            if let kind = indexType.valueKind, kind != .integer { throw semantic("an index must be an integer; found \(kind.name)", index.range) }
            if strict, options.checkOrderedFunctions, targetType.isUnordered {
                throw semantic("indexing the result of children() or descendants(), whose order is undefined", range)
            }
            var type = targetType
            type.isSingleton = true
            type.constant = nil
            return fold(IndexerEvaluator(targetEvaluator, indexEvaluator, range: range), [targetEvaluator, indexEvaluator], type)
        case .polarity(let negative, let operand):
            let (evaluator, type) = try compile(operand, scope: scope)
            if let kind = type.valueKind, !kind.isNumber, kind != .quantity {
                throw semantic("unary '\(negative ? "-" : "+")' takes a number or a quantity; this is \(kind.name)", range)
            }
            var result = type
            result.constant = nil
            return fold(PolarityEvaluator(negative: negative, evaluator, range: range), [evaluator], result)
        case .binary(let op, let left, let right):
            return try binary(op, left, right, scope: scope, syntax: syntax)
        case .typeTest(let isAs, let operand, let specifier):
            let (evaluator, _) = try compile(operand, scope: scope)
            let (type, alsoSystem) = try resolveType(specifier)
            let result = isAs
                ? StaticType(types: type.map { [$0] }, isSingleton: true)
                : StaticType.system(.boolean, model)
            let test = TypeTestEvaluator(isAs ? .as : .is, operand: evaluator, type: type, alsoSystem: alsoSystem, range: range)
            return fold(test, [evaluator], result)
        }
    }

    private func constant(_ literal: FHIRPathSyntax.Literal) -> (FHIRPathCollection, StaticType) {
        var value: FHIRPathCollection
        var type: StaticType
        switch literal {
        case .empty:
            return ([], StaticType(types: [], isSingleton: true, constant: []))
        case .boolean(let flag):
            value = .truth(flag)
            type = .system(.boolean, model)
        case .string(let text):
            value = [.string(text)]
            type = .system(.string, model)
        case .integer(let number):
            value = [.integer(number)]
            type = .system(.integer, model)
        case .decimal(let number):
            value = [.decimal(number)]
            type = .system(.decimal, model)
        case .dateTime(let date):
            value = [.dateTime(date)]
            type = .system(date.kind == .date ? .date : date.kind == .time ? .time : .dateTime, model)
        case .quantity(let quantity):
            value = [.quantity(quantity)]
            type = .system(.quantity, model)
        }
        type.constant = value
        return (value, type)
    }

    /// The type of `%name`; unknown names are errors when the options list the variables.
    private func variableType(_ name: String, _ range: Range<Int>) throws(FHIRPathError) -> StaticType {
        switch name {
        case "resource", "context", "rootResource":
            return contextType
        default:
            if FHIRPathEnvironment.constant(name) != nil { return .system(.string, model) }
            guard let declared = options.variables else { return .unknown }
            guard let entry = declared[name] else {
                let known = ["resource", "context", "rootResource", "ucum", "sct", "loinc"] + declared.keys.sorted()
                let suggestion = Spelling.nearest(to: name, in: known).map { "; did you mean %\($0)?" } ?? ""
                throw semantic("the variable %\(name) is not defined\(suggestion)", range)
            }
            guard let typeName = entry, let type = model.fhirType(named: typeName) ?? FHIRType.SystemType(rawValue: typeName).map(model.systemType) else {
                return .unknown
            }
            return StaticType(types: [type], isSingleton: false)
        }
    }

    // MARK: Members

    private mutating func member(_ target: FHIRPathSyntax?, _ name: String, scope: StaticType, syntax: FHIRPathSyntax)
        throws(FHIRPathError) -> (Evaluator, StaticType)
    {
        let range = syntax.range
        let nameRange = syntax.nameRange ?? range
        var targetEvaluator: Evaluator?
        var input = scope
        if let target {
            (targetEvaluator, input) = try compile(target, scope: scope)
        }
        let evaluator = MemberEvaluator(
            target: targetEvaluator, name: name, model: model, navigatesPolymorphicNames: options.polymorphicNames == .navigate, range: range)
        // A name in the position of a path's start that is a type name: the context's type, or a member.
        if target == nil, let first = name.first, first.isUppercase {
            let type = model.fhirType(named: name)
            if let types = input.types, let type {
                if types.contains(where: { $0.conforms(to: type) }) {
                    var narrowed = input
                    narrowed.types = [type]
                    return (TypeOrMemberEvaluator(typeName: name, type: type, member: evaluator, range: range), narrowed)
                }
                if types.allSatisfy({ $0.isModeled }) {
                    try modelProblem("'\(name)' is not the type of the context (\(input.typeDescription))", nameRange)
                }
            }
            return (TypeOrMemberEvaluator(typeName: name, type: type, member: evaluator, range: range), input.types == nil ? .unknown : StaticType(types: nil, isSingleton: false))
        }
        return (fused(targetEvaluator, name, range: range), try memberType(of: input, name, nameRange))
    }

    /// A member step joined to the chain of member steps before it, walked as one path.
    private func fused(_ target: Evaluator?, _ name: String, range: Range<Int>) -> Evaluator {
        let navigates = options.polymorphicNames == .navigate
        let step = MemberEvaluator(target: nil, name: name, model: model, navigatesPolymorphicNames: navigates, range: range)
        if let path = target as? PathEvaluator {
            return PathEvaluator(source: path.source, steps: path.steps + [step], range: range)
        }
        return PathEvaluator(source: target, steps: [step], range: range)
    }

    /// The type of `name` on items of the input's types, checking that they have it.
    private mutating func memberType(of input: StaticType, _ name: String, _ range: Range<Int>) throws(FHIRPathError) -> StaticType {
        guard let types = input.types, !types.isEmpty, types.allSatisfy({ $0.isModeled && $0.kind != .system }) else {
            if let types = input.types, types.contains(where: { $0.kind == .system }) {
                if types.allSatisfy({ $0 === model.systemType(.quantity) }) {
                    if name == "value" { return .system(.decimal, model, singleton: input.isSingleton) }
                    if name == "unit" { return .system(.string, model, singleton: input.isSingleton) }
                }
            }
            return .unknown
        }
        var result: [FHIRType] = []
        var isList = false
        for type in types {
            if let element = type.element(named: name) {
                for elementType in element.types where !result.contains(where: { $0 === elementType }) { result.append(elementType) }
                isList = isList || element.isList
            }
        }
        if result.isEmpty {
            // A choice element named with its type: `valueQuantity` for `value[x]`.
            for type in types {
                for (elementName, element) in type.allElements where element.isChoice && name.hasPrefix(elementName) && name.count > elementName.count {
                    if let choice = element.choiceType(suffix: name.dropFirst(elementName.count)[...]) {
                        try modelProblem(
                            "'\(name)' names the choice element '\(elementName)' with its type; write \(elementName).ofType(\(choice.name))", range)
                        return StaticType(types: [choice], isSingleton: input.isSingleton && !element.isList)
                    }
                }
            }
            let candidates = Array(Set(types.flatMap { $0.allElements.keys }))
            let suggestion = Spelling.nearest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
            try modelProblem("\(types.map(\.name).joined(separator: " or ")) has no element '\(name)'\(suggestion)", range)
            return .unknown
        }
        return StaticType(types: result, isSingleton: input.isSingleton && !isList)
    }

    /// The type a specifier names: nil for a System name that does not exist (nothing is of it); the
    /// System Quantity beside an unqualified `Quantity`.
    private func resolveType(_ specifier: FHIRPathSyntax.TypeSpecifier) throws(FHIRPathError) -> (FHIRType?, FHIRType?) {
        if let type = model.type(namespace: specifier.namespace, name: specifier.name) {
            let alsoSystem = specifier.namespace == nil && specifier.name == "Quantity" ? model.systemType(.quantity) : nil
            return (type, alsoSystem)
        }
        if specifier.namespace == "System" { return (nil, nil) }
        let names = Array(model.fhirTypes.keys.filter { !$0.utf8.contains(UInt8(ascii: ".")) }) + ["Boolean", "String", "Integer", "Decimal", "Date", "DateTime", "Time", "Quantity"]
        let suggestion = Spelling.nearest(to: specifier.name, in: names).map { "; did you mean '\($0)'?" } ?? ""
        throw semantic("'\(specifier)' is not a type\(suggestion)", specifier.range)
    }

    /// A function's type argument written as an expression: `Quantity`, `FHIR.Patient`, FHIR.`Patient`.
    private func typeSpecifier(_ syntax: FHIRPathSyntax) throws(FHIRPathError) -> FHIRPathSyntax.TypeSpecifier {
        switch syntax.unwrapped.kind {
        case .identifier(let name):
            return .init(namespace: nil, name: name, range: syntax.range)
        case .member(let target, let name):
            if case .identifier(let namespace) = target.unwrapped.kind { return .init(namespace: namespace, name: name, range: syntax.range) }
        default:
            break
        }
        throw semantic("expected a type name", syntax.range)
    }

    // MARK: Operators

    private mutating func binary(_ op: FHIRPathSyntax.BinaryOperator, _ left: FHIRPathSyntax, _ right: FHIRPathSyntax, scope: StaticType, syntax: FHIRPathSyntax)
        throws(FHIRPathError) -> (Evaluator, StaticType)
    {
        let (leftEvaluator, leftType) = try compile(left, scope: scope)
        let (rightEvaluator, rightType) = try compile(right, scope: scope)
        let range = syntax.range
        let operatorRange = syntax.nameRange ?? range
        let a = leftType.valueKind
        let b = rightType.valueKind
        var result: StaticType
        switch op {
        case .and, .or, .xor, .implies, .equal, .notEqual, .equivalent, .notEquivalent, .in, .contains:
            result = .system(.boolean, model)
        case .union:
            let types: [FHIRType]? = leftType.types.flatMap { l in rightType.types.map { r in l + r.filter { t in !l.contains { $0 === t } } } }
            result = StaticType(types: types, isSingleton: false)
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            if let a, let b, !Self.comparable(a, b) {
                throw semantic("'\(op.rawValue)' cannot compare \(a.name) with \(b.name)", operatorRange)
            }
            result = .system(.boolean, model)
        case .concatenate:
            for (kind, side) in [(a, left), (b, right)] where kind != nil && kind != .string {
                throw semantic("'&' joins strings; this is \(kind!.name)", side.range)
            }
            result = .system(.string, model)
        default:
            if let a, let b {
                guard let kind = Self.arithmetic(op, a, b) else {
                    throw semantic("'\(op.rawValue)' cannot take \(a.name) and \(b.name)", operatorRange)
                }
                result = StaticType(types: [model.systemType(kind)], isSingleton: true)
            } else {
                result = .unknown
            }
        }
        return fold(BinaryEvaluator(op, leftEvaluator, rightEvaluator, range: range), [leftEvaluator, rightEvaluator], result)
    }

    private static func comparable(_ a: StaticType.ValueKind, _ b: StaticType.ValueKind) -> Bool {
        if a.isNumber && b.isNumber { return true }
        if (a == .quantity && (b.isNumber || b == .quantity)) || (b == .quantity && a.isNumber) { return true }
        if a.isTemporal && b.isTemporal { return (a == .time) == (b == .time) }
        if (a == .string && b.isTemporal) || (b == .string && a.isTemporal) { return true }
        return a == b && a != .boolean && a != .complex
    }

    /// The System type of an arithmetic result, or nil when no signature takes these kinds.
    private static func arithmetic(_ op: FHIRPathSyntax.BinaryOperator, _ a: StaticType.ValueKind, _ b: StaticType.ValueKind) -> FHIRType.SystemType? {
        switch (a, b) {
        case (.integer, .integer):
            return op == .divide ? .decimal : .integer
        case (.integer, .decimal), (.decimal, .integer), (.decimal, .decimal):
            return op == .div ? .integer : .decimal
        case (.string, .string):
            return op == .add ? .string : nil
        case (.quantity, .quantity):
            return [.add, .subtract, .multiply, .divide].contains(op) ? .quantity : nil
        case (.quantity, .integer), (.quantity, .decimal), (.integer, .quantity), (.decimal, .quantity):
            return op == .multiply || op == .divide ? .quantity : nil
        case (.date, .quantity), (.dateTime, .quantity), (.time, .quantity):
            return op == .add || op == .subtract ? (a == .date ? .date : a == .time ? .time : .dateTime) : nil
        default:
            return nil
        }
    }

    // MARK: Functions

    private mutating func function(
        _ target: FHIRPathSyntax?, _ name: String, _ arguments: [FHIRPathSyntax], scope: StaticType, syntax: FHIRPathSyntax
    ) throws(FHIRPathError) -> (Evaluator, StaticType) {
        let range = syntax.range
        let nameRange = syntax.nameRange ?? range
        guard let function = FHIRPathFunction(rawValue: name) else {
            let suggestion = Spelling.nearest(to: name, in: FHIRPathFunction.allCases.map(\.rawValue)).map { "; did you mean \($0)()?" } ?? ""
            throw semantic("unknown function '\(name)'\(suggestion)", nameRange)
        }
        if options.functions == .hapiR4, !function.isInHAPIR4 {
            throw semantic("HAPI's FHIRPath engine for R4 has no function '\(name)': it refuses the expression (\"The name \(name) is not a valid function name\")", nameRange)
        }
        guard function.arity.contains(arguments.count) else {
            let expected = function.arity.lowerBound == function.arity.upperBound
                ? "\(function.arity.lowerBound)" : "\(function.arity.lowerBound) to \(function.arity.upperBound)"
            throw semantic("\(name)() takes \(expected) argument\(function.arity.upperBound == 1 ? "" : "s"); found \(arguments.count)", nameRange)
        }
        var targetEvaluator: Evaluator?
        var input = scope
        if let target {
            (targetEvaluator, input) = try compile(target, scope: scope)
        }
        if strict, options.checkOrderedFunctions, function.needsOrder, input.isUnordered {
            throw semantic("\(name)() depends on order, but the result of children() or descendants() has none", nameRange)
        }
        if function.takesType {
            let specifier = try typeSpecifier(arguments[0])
            let (type, alsoSystem) = try resolveType(specifier)
            let test: TypeTestEvaluator.Test = function == .is ? .is : function == .as ? .as : .ofType
            let result = function == .is
                ? StaticType.system(.boolean, model)
                : StaticType(types: type.map { [$0] }, isSingleton: function == .as || input.isSingleton)
            let evaluator = TypeTestEvaluator(test, operand: targetEvaluator, type: type, alsoSystem: alsoSystem, range: range)
            return target == nil ? (evaluator, result) : fold(evaluator, [targetEvaluator!], result)
        }
        // Arguments: iterated ones see one input item as $this; iif's see the input; others the call's scope.
        var element = input
        element.isSingleton = true
        element.constant = nil
        var compiled: [Evaluator] = []
        var argumentTypes: [StaticType] = []
        var descending: [Bool] = []
        for (index, argument) in arguments.enumerated() {
            var argumentSyntax = argument
            if function == .sort, case .polarity(negative: true, let key) = argument.unwrapped.kind {
                argumentSyntax = key
                descending.append(true)
            } else if function == .sort {
                descending.append(false)
            }
            let argumentScope = function.isIterated(argument: index) ? element : function == .iif || function == .defineVariable && index == 1 ? input : scope
            let iterated = function.isIterated(argument: index)
            if iterated { iterationDepth += 1 }
            let compiledArgument = Result { () throws(FHIRPathError) in try compile(argumentSyntax, scope: argumentScope) }
            if iterated { iterationDepth -= 1 }
            let (evaluator, type) = try compiledArgument.get()
            compiled.append(evaluator)
            argumentTypes.append(type)
        }
        try checkFunction(function, input: input, arguments: argumentTypes, syntax: syntax, argumentSyntax: arguments)
        let result = resultType(function, input: input, arguments: argumentTypes)
        let evaluator = FunctionEvaluator(function, target: targetEvaluator, arguments: compiled, descending: descending, range: range, nameRange: nameRange)
        guard let targetEvaluator, Self.isPure(function) else { return (evaluator, result) }
        return fold(evaluator, [targetEvaluator] + compiled, result)
    }

    /// Functions whose value depends only on their input and arguments (safe to fold).
    private static func isPure(_ function: FHIRPathFunction) -> Bool {
        switch function {
        case .now, .today, .timeOfDay, .trace, .defineVariable, .resolve, .memberOf, .weight, .ordinal, .iif, .coalesce: false
        default: true
        }
    }

    /// Type errors a function's input and constant arguments show before running.
    private mutating func checkFunction(
        _ function: FHIRPathFunction, input: StaticType, arguments: [StaticType], syntax: FHIRPathSyntax, argumentSyntax: [FHIRPathSyntax]
    ) throws(FHIRPathError) {
        let nameRange = syntax.nameRange ?? syntax.range
        let kind = input.valueKind
        switch function {
        case .indexOf, .lastIndexOf, .substring, .startsWith, .endsWith, .contains, .upper, .lower, .replace, .matches, .matchesFull,
            .replaceMatches, .length, .toChars, .encode, .decode, .escape, .unescape, .trim, .split:
            if let kind, kind != .string {
                throw semantic("\(function.rawValue)() works on a string; its input is \(input.typeDescription)", nameRange)
            }
        case .abs, .ceiling, .floor, .truncate, .round:
            if let kind, !kind.isNumber, kind != .quantity {
                throw semantic("\(function.rawValue)() works on a number or a quantity; its input is \(input.typeDescription)", nameRange)
            }
        case .exp, .ln, .log, .power, .sqrt:
            if let kind, !kind.isNumber {
                throw semantic("\(function.rawValue)() works on a number; its input is \(input.typeDescription)", nameRange)
            }
        case .yearOf, .monthOf, .dayOf, .hourOf, .minuteOf, .secondOf, .millisecondOf, .timezoneOffsetOf, .dateOf, .timeOf:
            if let kind, !kind.isTemporal, kind != .string {
                throw semantic("\(function.rawValue)() works on a date or time; its input is \(input.typeDescription)", nameRange)
            }
        case .iif:
            let criterion = arguments[0]
            if let value = criterion.constant, value.count > 1 {
                throw semantic("the criterion of iif() is a collection of \(value.count) items; expected one Boolean", argumentSyntax[0].range)
            }
            if strict, let criterionKind = criterion.valueKind, criterionKind != .boolean {
                throw semantic("the criterion of iif() is \(criterionKind.name); expected a Boolean", argumentSyntax[0].range)
            }
            if let value = input.constant, value.count > 1 {
                throw semantic("iif() works on at most one item; its input has \(value.count)", nameRange)
            }
        default:
            break
        }
    }

    private func resultType(_ function: FHIRPathFunction, input: StaticType, arguments: [StaticType]) -> StaticType {
        var sameAsInput = input
        sameAsInput.constant = nil
        switch function {
        case .empty, .exists, .all, .allTrue, .anyTrue, .allFalse, .anyFalse, .subsetOf, .supersetOf, .isDistinct, .not, .convertsToBoolean,
            .convertsToInteger, .convertsToDecimal, .convertsToString, .convertsToDate, .convertsToDateTime, .convertsToTime,
            .convertsToQuantity, .startsWith, .endsWith, .contains, .matches, .matchesFull, .is, .comparable, .memberOf, .conformsTo,
            .htmlChecks, .hasValue:
            return .system(.boolean, model)
        case .count, .length, .indexOf, .lastIndexOf, .precision, .yearOf, .monthOf, .dayOf, .hourOf, .minuteOf, .secondOf,
            .millisecondOf, .toInteger:
            return .system(.integer, model)
        case .toString, .upper, .lower, .replace, .replaceMatches, .substring, .encode, .decode, .escape, .unescape, .trim, .join:
            return .system(.string, model)
        case .split, .toChars:
            return .system(.string, model, singleton: false)
        case .toDecimal, .exp, .ln, .log, .sqrt, .avg, .timezoneOffsetOf, .weight, .ordinal:
            return .system(.decimal, model, singleton: function != .weight && function != .ordinal)
        case .toBoolean: return .system(.boolean, model)
        case .toDate, .today, .dateOf: return .system(.date, model)
        case .toDateTime, .now: return .system(.dateTime, model)
        case .toTime, .timeOfDay, .timeOf: return .system(.time, model)
        case .toQuantity: return .system(.quantity, model)
        case .ceiling, .floor, .truncate:
            return input.valueKind == .quantity ? .system(.quantity, model) : .system(.integer, model)
        case .round:
            return input.valueKind == .quantity ? .system(.quantity, model) : .system(.decimal, model)
        case .abs, .lowBoundary, .highBoundary, .sum, .min, .max:
            sameAsInput.isSingleton = true
            return sameAsInput
        case .power:
            return StaticType(types: nil, isSingleton: true)
        case .first, .last, .single:
            sameAsInput.isSingleton = true
            return sameAsInput
        case .where, .distinct, .tail, .skip, .take, .intersect, .exclude, .trace, .defineVariable, .sort:
            return sameAsInput
        case .union, .combine:
            let types = input.types.flatMap { l in arguments[0].types.map { r in l + r.filter { t in !l.contains { $0 === t } } } }
            return StaticType(types: types, isSingleton: false)
        case .iif:
            let branches = arguments.dropFirst()
            let types = branches.reduce(Optional<[FHIRType]>.some([])) { partial, branch in
                partial.flatMap { l in branch.types.map { r in l + r.filter { t in !l.contains { $0 === t } } } }
            }
            return StaticType(types: types, isSingleton: branches.allSatisfy(\.isSingleton))
        case .extension:
            return StaticType(types: model.fhirType(named: "Extension").map { [$0] }, isSingleton: false)
        case .getValue:
            let types = input.types?.compactMap { $0.systemType.map(model.systemType) }
            return StaticType(types: types, isSingleton: true)
        case .children, .descendants:
            var result = StaticType.unknown
            result.isUnordered = true
            return result
        case .coalesce:
            return .unknown
        case .select, .repeat, .repeatAll, .aggregate, .resolve, .type, .ofType, .as:
            return .unknown
        }
    }

    // MARK: Folding

    /// The environment constant pieces are evaluated in (they read nothing from it).
    private static let foldingEnvironment = FHIRPathEnvironment()

    /// The evaluator, or its value when every part is constant and evaluating it succeeds (a failure is left
    /// to happen, located, at run time).
    private func fold(_ evaluator: Evaluator, _ parts: [Evaluator], _ type: StaticType) -> (Evaluator, StaticType) {
        guard parts.allSatisfy({ $0 is ConstantEvaluator }) else { return (evaluator, type) }
        var state = EvaluationState(environment: Self.foldingEnvironment, model: model)
        guard let value = try? evaluator.evaluate([], &state) else { return (evaluator, type) }
        var folded = type
        folded.constant = value
        folded.isSingleton = value.count <= 1
        return (ConstantEvaluator(value, range: evaluator.range), folded)
    }
}
