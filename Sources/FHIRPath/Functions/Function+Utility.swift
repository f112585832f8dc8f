/// `iif`, `not`, `trace`, `defineVariable`, the aggregates (`aggregate`, `sum`, `min`, `max`, `avg`) and
/// `sort`.
extension FunctionEvaluator {
    func utility(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        switch function {
        case .iif:
            // The criterion and branches see the input as $this (spec "iif"): one item at most.
            guard input.count <= 1 else { throw failure("iif() works on at most one item; found \(input.count)") }
            let criterion = try argument(0, input, &state).truthValue("the criterion of iif()", at: arguments[0].range)
            // An empty criterion takes the otherwise branch (spec "iif": "false or an empty collection").
            if let observer = state.environment.iifObserver { observer(nameRange.lowerBound, criterion == true) }
            if criterion == true { return try argument(1, input, &state) }
            return arguments.count > 2 ? try argument(2, input, &state) : []
        case .not:
            guard let value = try input.truthValue("the input of not()", at: range) else { return [] }
            return .truth(!value)
        case .trace:
            let name = try stringArgument(0, scope, &state) ?? ""
            if let sink = state.environment.trace {
                var traced = input
                if arguments.count > 1 {
                    traced = []
                    for (position, item) in input.enumerated() { traced += try iterate(1, item: item, position: position, &state) }
                }
                sink(name, traced)
            }
            return input
        case .defineVariable:
            guard let name = try stringArgument(0, scope, &state) else { throw failure("defineVariable() needs a name") }
            if state.variable(FHIRPathVariableName(name)) != nil { throw failure("the variable %\(name) is already defined") }
            state.defined[name] = arguments.count > 1 ? try argument(1, input, &state) : input
            return input
        case .aggregate:
            var total = arguments.count > 1 ? try argument(1, scope, &state) : []
            let saved = state.total
            defer { state.total = saved }
            for (position, item) in input.enumerated() {
                state.total = total
                total = try iterate(0, item: item, position: position, &state)
            }
            return total
        case .sum:
            return try sum(input).map { [$0] } ?? []
        case .min, .max:
            guard var best = input.first?.systemValue else { return [] }
            for item in input.dropFirst() {
                guard let value = item.systemValue, let order = try FHIRPathOperations.compare(value, best, at: range) else { return [] }
                if function == .min ? order < 0 : order > 0 { best = value }
            }
            _ = try FHIRPathOperations.compare(best, best, at: range)
            return [best]
        case .avg:
            guard !input.isEmpty else { return [] }
            guard let sum = try sum(input) else { return [] }
            if case .quantity(let quantity) = sum {
                return (quantity.value / FHIRPathDecimal(input.count)).map { [.quantity(FHIRPathQuantity(value: $0, unit: quantity.unit))] } ?? []
            }
            guard let value = sum.decimalValue else { return [] }
            return (value / FHIRPathDecimal(input.count)).map { [.decimal($0)] } ?? []
        default:
            return try sorted(input, &state)
        }
    }

    /// The sum of numbers or quantities (nil for none, or an overflow).
    private func sum(_ input: FHIRPathCollection) throws(FHIRPathError) -> FHIRPathItem? {
        // Decimals alone (scores, weights): added directly.
        if case .decimal(var total)? = input.first {
            var index = 1
            while index < input.count, case .decimal(let next) = input[index] {
                guard let sum = total + next else { return nil }
                total = sum
                index += 1
            }
            if index == input.count { return .decimal(total) }
        }
        guard var total = input.first?.systemValue else { return nil }
        guard total.decimalValue != nil || total.quantityValue != nil, !total.isNode else {
            throw failure("\(function.rawValue)() adds numbers or quantities; found \(input[0].typeName) \(input[0].summary)")
        }
        for item in input.dropFirst() {
            guard let next = try FHIRPathOperations.arithmetic(.add, total, item, at: range) else { return nil }
            total = next
        }
        return total
    }

    /// `sort()`: by the items themselves, or by each key in turn (a key written `-key` or `key desc` sorts
    /// descending). Items without a key value come first in both directions: the official suite expects
    /// `Patient.name.sort(-family, …)` to start with the name that has no family (testSort10), where the
    /// spec's text (2.1 "sort") has empty values lowest, hence last when descending. Stable.
    private func sorted(_ input: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        var keyed: [(item: FHIRPathItem, keys: [FHIRPathItem?])] = []
        for (position, item) in input.enumerated() {
            var keys: [FHIRPathItem?] = []
            if arguments.isEmpty {
                keys.append(item.systemValue)
            } else {
                for index in arguments.indices {
                    keys.append(try iterate(index, item: item, position: position, &state).singleton("a sort key", at: arguments[index].range))
                }
            }
            keyed.append((item, keys))
        }
        var failure: FHIRPathError?
        let order = keyed.indices.sorted { a, b in
            for (index, (left, right)) in zip(keyed[a].keys, keyed[b].keys).enumerated() {
                let descending = index < descending.count && descending[index]
                switch (left, right) {
                case (nil, nil): continue
                case (nil, _): return true
                case (_, nil): return false
                case (let x?, let y?):
                    switch Result(catching: { () throws(FHIRPathError) -> Int? in try FHIRPathOperations.compare(x, y, at: range) }) {
                    case .success(let comparison):
                        guard let comparison, comparison != 0 else { continue }
                        return descending ? comparison > 0 : comparison < 0
                    case .failure(let error):
                        failure = error
                        return false
                    }
                }
            }
            return a < b
        }
        if let failure { throw failure }
        return order.map { keyed[$0].item }
    }
}
