/// A function call: `target.name(arguments)`, or `name(arguments)` on `$this`. The implementations live
/// in the `Function+…` files, one family each.
final class FunctionEvaluator: Evaluator, @unchecked Sendable {
    let function: FHIRPathFunction
    let target: Evaluator?
    let arguments: [Evaluator]
    /// For `sort`: which keys sort descending (written `-key`).
    let descending: [Bool]
    /// Where the function's name is: what an `iif` reports to the environment's `iifObserver`.
    let nameRange: Range<Int>

    init(
        _ function: FHIRPathFunction, target: Evaluator?, arguments: [Evaluator], descending: [Bool] = [], range: Range<Int>, nameRange: Range<Int>
    ) {
        self.function = function
        self.target = target
        self.arguments = arguments
        self.descending = descending
        self.nameRange = nameRange
        super.init(range: range)
    }

    /// Argument `index` evaluated once, on the scope the call is in.
    func argument(_ index: Int, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        try arguments[index].evaluate(scope, &state)
    }

    /// Argument `index` as a single item (nil when empty).
    func singleArgument(_ index: Int, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathItem? {
        try argument(index, scope, &state).singleton("argument \(index + 1) of \(function.rawValue)()", at: arguments[index].range)
    }

    func stringArgument(_ index: Int, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> String? {
        guard let item = try singleArgument(index, scope, &state) else { return nil }
        guard let text = item.stringValue else {
            throw FHIRPathError(.execution, "argument \(index + 1) of \(function.rawValue)() must be a string; found \(item.typeName) \(item.summary)", at: arguments[index].range)
        }
        return text
    }

    func integerArgument(_ index: Int, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> Int? {
        guard let item = try singleArgument(index, scope, &state) else { return nil }
        guard let value = item.integerValue else {
            throw FHIRPathError(.execution, "argument \(index + 1) of \(function.rawValue)() must be an integer; found \(item.typeName) \(item.summary)", at: arguments[index].range)
        }
        return value
    }

    /// Argument `index` evaluated with `$this` bound to one item (and `$index` to its position).
    func iterate(_ index: Int, item: FHIRPathItem, position: Int, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        let saved = state.index
        state.index = position
        defer { state.index = saved }
        return try arguments[index].evaluate([item], &state)
    }

    /// The single input item (nil when empty).
    func singleInput(_ input: FHIRPathCollection) throws(FHIRPathError) -> FHIRPathItem? {
        try input.singleton("the input of \(function.rawValue)()", at: range)
    }

    /// The single input item as a string; an error for another type.
    func stringInput(_ input: FHIRPathCollection) throws(FHIRPathError) -> String? {
        guard let item = try singleInput(input) else { return nil }
        guard let text = item.stringValue else {
            throw failure("\(function.rawValue)() works on a string; found \(item.typeName) \(item.summary)")
        }
        return text
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        // Functions that only need nodes take a path's value without items being made for it.
        if let target, function == .weight || function == .ordinal || function == .count || function == .empty
            || (function == .exists && arguments.isEmpty)
        {
            let value = try target.evaluateNodes(scope, &state)
            switch function {
            case .count: return [.integer(value.count)]
            case .empty: return .truth(value.count == 0)
            case .exists: return .truth(value.count > 0)
            default:
                switch value {
                case .nodes(let tree, let indexes): return try weight(tree, indexes, &state)
                case .items(let items): return try weight(items, &state)
                }
            }
        }
        let input = try target?.evaluate(scope, &state) ?? scope
        switch function {
        case .empty, .exists, .all, .allTrue, .anyTrue, .allFalse, .anyFalse, .subsetOf, .supersetOf, .count, .distinct, .isDistinct:
            return try existence(input, scope, &state)
        case .where, .select, .repeat, .repeatAll, .coalesce, .single, .first, .last, .tail, .skip, .take, .intersect, .exclude, .union,
            .combine:
            return try filtering(input, scope, &state)
        case .iif, .not, .trace, .defineVariable, .aggregate, .sum, .min, .max, .avg, .sort:
            return try utility(input, scope, &state)
        case .toBoolean, .convertsToBoolean, .toInteger, .convertsToInteger, .toDecimal, .convertsToDecimal, .toString, .convertsToString,
            .toDate, .convertsToDate, .toDateTime, .convertsToDateTime, .toTime, .convertsToTime, .toQuantity, .convertsToQuantity:
            return try conversion(input, scope, &state)
        case .indexOf, .lastIndexOf, .substring, .startsWith, .endsWith, .contains, .upper, .lower, .replace, .matches, .matchesFull,
            .replaceMatches, .length, .toChars, .encode, .decode, .escape, .unescape, .trim, .split, .join:
            return try strings(input, scope, &state)
        case .abs, .ceiling, .exp, .floor, .ln, .log, .power, .round, .sqrt, .truncate:
            return try math(input, scope, &state)
        case .now, .timeOfDay, .today, .lowBoundary, .highBoundary, .precision, .yearOf, .monthOf, .dayOf, .hourOf, .minuteOf, .secondOf,
            .millisecondOf, .timezoneOffsetOf, .dateOf, .timeOf, .comparable:
            return try dateTime(input, scope, &state)
        case .children, .descendants, .type, .extension, .hasValue, .getValue, .resolve, .memberOf, .conformsTo, .htmlChecks:
            return try fhir(input, scope, &state)
        case .weight, .ordinal:
            return try weight(input, &state)
        case .ofType, .is, .as:
            // Compiled into a TypeTestEvaluator.
            return input
        }
    }
}
