/// The clock functions, the boundaries and precision of decimals and dates, date components, and
/// `comparable()`.
extension FunctionEvaluator {
    func dateTime(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        switch function {
        case .now: return [.dateTime(state.environment.clock.now)]
        case .today: return [.dateTime(state.environment.clock.today)]
        case .timeOfDay: return [.dateTime(state.environment.clock.timeOfDay)]
        default: break
        }
        guard let item = try singleInput(input), let value = item.systemValue else { return [] }
        switch function {
        case .lowBoundary, .highBoundary:
            let precision = arguments.isEmpty ? nil : try integerArgument(0, scope, &state)
            if !arguments.isEmpty, precision == nil { return [] }
            let high = function == .highBoundary
            switch value {
            case .integer, .decimal:
                return value.decimalValue!.boundary(high: high, precision: precision).map { [.decimal($0)] } ?? []
            case .quantity(var quantity):
                guard let boundary = quantity.value.boundary(high: high, precision: precision) else { return [] }
                quantity.value = boundary
                return [.quantity(quantity)]
            default:
                guard let date = item.dateTimeValue else { throw failure("\(function.rawValue)() works on a decimal, quantity, date or time; found \(item.typeName)") }
                return date.boundary(high: high, digits: precision).map { [.dateTime($0)] } ?? []
            }
        case .precision:
            switch value {
            case .integer: return [.integer(0)]
            case .decimal(let number): return [.integer(number.scale)]
            default:
                guard let date = item.dateTimeValue else { throw failure("precision() works on a decimal, date or time; found \(item.typeName)") }
                return [.integer(date.digitCount)]
            }
        case .comparable:
            guard let other = try singleArgument(0, scope, &state) else { return [] }
            guard let left = value.quantityValue, let right = other.quantityValue else {
                throw failure("comparable() compares quantities; found \(item.typeName) and \(other.typeName)")
            }
            return .truth(left.isComparable(with: right))
        default:
            return try component(of: item)
        }
    }

    /// `yearOf()` … `timeOf()`: one component, empty when the value does not have it.
    private func component(of item: FHIRPathItem) throws(FHIRPathError) -> FHIRPathCollection {
        guard let date = item.dateTimeValue else { throw failure("\(function.rawValue)() works on a date or time; found \(item.typeName)") }
        let isTime = date.kind == .time
        func part(_ precision: FHIRPathDateTime.Precision, _ value: Int) -> FHIRPathCollection {
            date.precision >= precision ? [.integer(value)] : []
        }
        switch function {
        case .yearOf: return isTime ? [] : [.integer(date.year)]
        case .monthOf: return isTime ? [] : part(.month, date.month)
        case .dayOf: return isTime ? [] : part(.day, date.day)
        case .hourOf: return part(.hour, date.hour)
        case .minuteOf: return part(.minute, date.minute)
        case .secondOf: return part(.second, date.second)
        case .millisecondOf:
            guard date.precision >= .fraction else { return [] }
            var value = date.fraction
            var digits = date.fractionDigits
            while digits < 3 { value *= 10; digits += 1 }
            while digits > 3 { value /= 10; digits -= 1 }
            return [.integer(value)]
        case .timezoneOffsetOf:
            guard date.kind == .dateTime, let offset = date.offsetMinutes else { return [] }
            // Hours as a decimal with at least one digit after the point (spec: -7.0, 8.75).
            return (FHIRPathDecimal(offset) / FHIRPathDecimal(60)).map { [.decimal($0.scale == 0 ? $0.rounded(to: 1) : $0)] } ?? []
        case .dateOf:
            guard !isTime else { return [] }
            return FunctionEvaluator.toDateTime(.dateTime(date), kind: .date).map { [$0] } ?? []
        default:
            guard date.kind == .dateTime, date.hasTime else { return [] }
            var time = date
            time.kind = .time
            time.offsetMinutes = nil
            return [.dateTime(time)]
        }
    }
}
