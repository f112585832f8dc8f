import Foundation

/// Math (spec "Math"). `abs`, `ceiling`, `floor`, `round`, `truncate` are exact on decimals; `exp`, `ln`,
/// `log`, `power` and `sqrt` go through a double (their results are not exact anyway) and come back as
/// the shortest decimal that reads as that double.
extension FunctionEvaluator {
    func math(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        guard let item = try singleInput(input), let value = item.systemValue else { return [] }
        func numberRequired() -> FHIRPathError {
            failure("\(function.rawValue)() works on a number\(function == .exp || function == .ln || function == .log || function == .power || function == .sqrt ? "" : " or a quantity"); found \(item.typeName) \(item.summary)")
        }
        if case .quantity(var quantity) = value {
            switch function {
            case .abs: quantity.value = quantity.value.isNegative ? -quantity.value : quantity.value
            case .ceiling: quantity.value = FHIRPathDecimal(significand: quantity.value.ceiling, scale: 0)
            case .floor: quantity.value = FHIRPathDecimal(significand: quantity.value.floor, scale: 0)
            case .truncate: quantity.value = FHIRPathDecimal(significand: quantity.value.truncated, scale: 0)
            case .round:
                let precision = arguments.isEmpty ? 0 : try integerArgument(0, scope, &state) ?? 0
                guard precision >= 0 else { throw failure("round() needs a precision of 0 or more") }
                quantity.value = quantity.value.rounded(to: precision)
            default: throw numberRequired()
            }
            return [.quantity(quantity)]
        }
        if function == .abs, case .integer(let integer) = value {
            return integer == Int.min ? [] : [.integer(Swift.abs(integer))]
        }
        guard let number = value.decimalValue else { throw numberRequired() }
        switch function {
        case .abs: return [.decimal(number.isNegative ? -number : number)]
        case .ceiling: return Self.integer(number.ceiling)
        case .floor: return Self.integer(number.floor)
        case .truncate: return Self.integer(number.truncated)
        case .round:
            let precision = arguments.isEmpty ? 0 : try integerArgument(0, scope, &state) ?? 0
            guard precision >= 0 else { throw failure("round() needs a precision of 0 or more") }
            return [.decimal(number.rounded(to: precision))]
        case .exp: return Self.decimal(Foundation.exp(number.doubleValue))
        case .ln:
            guard !number.isNegative, !number.isZero else { return [] }
            return Self.decimal(Foundation.log(number.doubleValue))
        case .sqrt:
            guard !number.isNegative else { return [] }
            return Self.decimal(number.doubleValue.squareRoot())
        case .log:
            guard let base = try singleArgument(0, scope, &state) else { return [] }
            guard let baseValue = base.decimalValue else { throw failure("log() needs a number as its base; found \(base.typeName)") }
            guard !number.isNegative, !number.isZero, !baseValue.isNegative, !baseValue.isZero, baseValue != .one else {
                throw failure("log() needs a positive number and a positive base other than 1")
            }
            return Self.decimal(Foundation.log(number.doubleValue) / Foundation.log(baseValue.doubleValue))
        default:
            guard let exponent = try singleArgument(0, scope, &state) else { return [] }
            guard let exponentValue = exponent.decimalValue else { throw failure("power() needs a number as its exponent; found \(exponent.typeName)") }
            if case .integer(let base) = value, case .integer(let power)? = exponent.systemValue, power >= 0 {
                // By squaring: a huge exponent of 1 or -1 takes as few steps as any other.
                var result = 1
                var factor = base
                var remaining = power
                while remaining > 0 {
                    if remaining & 1 == 1 {
                        let (next, overflow) = result.multipliedReportingOverflow(by: factor)
                        if overflow { return [] }
                        result = next
                    }
                    remaining >>= 1
                    if remaining > 0 {
                        let (square, overflow) = factor.multipliedReportingOverflow(by: factor)
                        if overflow { return [] }
                        factor = square
                    }
                }
                return [.integer(result)]
            }
            return Self.decimal(Foundation.pow(number.doubleValue, exponentValue.doubleValue))
        }
    }

    private static func integer(_ value: Int128) -> FHIRPathCollection {
        Int(exactly: value).map { [.integer($0)] } ?? []
    }

    /// A double result as a decimal; empty for NaN or infinity (`(-1).power(0.5)`).
    private static func decimal(_ value: Double) -> FHIRPathCollection {
        FHIRPathDecimal(approximating: value).map { [.decimal($0)] } ?? []
    }
}
