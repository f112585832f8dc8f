/// The conversion functions (spec "Conversion"): `toX()` gives the value or empty, `convertsToX()` says
/// whether `toX()` would give one.
extension FunctionEvaluator {
    func conversion(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        guard let item = try singleInput(input) else { return [] }
        let converted: FHIRPathItem?
        switch function {
        case .toBoolean, .convertsToBoolean: converted = Self.toBoolean(item)
        case .toInteger, .convertsToInteger: converted = Self.toInteger(item)
        case .toDecimal, .convertsToDecimal: converted = Self.toDecimal(item)
        case .toString, .convertsToString: converted = Self.toString(item).map(FHIRPathItem.string)
        case .toDate, .convertsToDate: converted = Self.toDateTime(item, kind: .date)
        case .toDateTime, .convertsToDateTime: converted = Self.toDateTime(item, kind: .dateTime)
        case .toTime, .convertsToTime: converted = Self.toDateTime(item, kind: .time)
        default:
            let unit = arguments.isEmpty ? nil : try stringArgument(0, scope, &state)
            if !arguments.isEmpty, unit == nil { return [] }
            converted = Self.toQuantity(item, unit: unit)
        }
        switch function {
        case .convertsToBoolean, .convertsToInteger, .convertsToDecimal, .convertsToString, .convertsToDate, .convertsToDateTime,
            .convertsToTime, .convertsToQuantity:
            return .truth(converted != nil)
        default:
            return converted.map { [$0] } ?? []
        }
    }

    static func toBoolean(_ item: FHIRPathItem) -> FHIRPathItem? {
        switch item.systemValue {
        case .boolean(let value)?: return .boolean(value)
        case .integer(let value)?: return value == 1 ? .boolean(true) : value == 0 ? .boolean(false) : nil
        case .decimal(let value)?: return value == .one ? .boolean(true) : value.isZero ? .boolean(false) : nil
        case .string(let text)?:
            switch text.lowercased() {
            case "true", "t", "yes", "y", "1", "1.0": return .boolean(true)
            case "false", "f", "no", "n", "0", "0.0": return .boolean(false)
            default: return nil
            }
        default: return nil
        }
    }

    static func toInteger(_ item: FHIRPathItem) -> FHIRPathItem? {
        switch item.systemValue {
        case .integer(let value)?: return .integer(value)
        case .boolean(let value)?: return .integer(value ? 1 : 0)
        case .string(let text)?:
            let digits = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text.hasPrefix("+") ? String(digits) : text),
                abs(value) <= Int(Int32.max)
            else { return nil }
            return .integer(value)
        default: return nil
        }
    }

    static func toDecimal(_ item: FHIRPathItem) -> FHIRPathItem? {
        switch item.systemValue {
        case .integer(let value)?: return .decimal(FHIRPathDecimal(value))
        case .decimal(let value)?: return .decimal(value)
        case .boolean(let value)?: return .decimal(value ? FHIRPathDecimal(significand: 10, scale: 1) : FHIRPathDecimal(significand: 0, scale: 1))
        case .string(let text)?: return FHIRPathDecimal(text).map(FHIRPathItem.decimal)
        default: return nil
        }
    }

    /// The text `toString()` gives; nil for complex values.
    static func toString(_ item: FHIRPathItem) -> String? {
        switch item.systemValue {
        case .string(let text)?: text
        case .boolean(let value)?: String(value)
        case .integer(let value)?: String(value)
        case .decimal(let value)?: value.description
        case .quantity(let value)?: value.description
        case .dateTime(let value)?: value.description
        default: nil
        }
    }

    static func toDateTime(_ item: FHIRPathItem, kind: FHIRPathDateTime.Kind) -> FHIRPathItem? {
        switch item.systemValue {
        case .dateTime(var value)?:
            switch (kind, value.kind) {
            case (.time, .time), (.date, .date), (.dateTime, .dateTime): return .dateTime(value)
            case (.dateTime, .date):
                value.kind = .dateTime
                return .dateTime(value)
            case (.date, .dateTime):
                value.kind = .date
                value.precision = min(value.precision, .day)
                value.offsetMinutes = nil
                return .dateTime(value)
            default: return nil
            }
        case .string(let text)?:
            return FHIRPathDateTime.parse(Substring(text), kind: kind).map(FHIRPathItem.dateTime)
        default: return nil
        }
    }

    /// `toQuantity([unit])`: a Quantity, a number (unit `'1'`), a Boolean (`1.0 '1'`), or a string
    /// `value 'ucum'` / `value calendar-word`; converted to `unit` when given.
    static func toQuantity(_ item: FHIRPathItem, unit: String?) -> FHIRPathItem? {
        var quantity: FHIRPathQuantity?
        switch item.systemValue {
        case .quantity(let value)?: quantity = value
        case .integer, .decimal: quantity = item.quantityValue
        case .boolean(let value)?: quantity = FHIRPathQuantity(value: value ? FHIRPathDecimal(significand: 10, scale: 1) : FHIRPathDecimal(significand: 0, scale: 1), unit: "1")
        case .string(let text)?: quantity = parseQuantity(text)
        default: quantity = nil
        }
        guard let quantity else { return nil }
        guard let unit else { return .quantity(quantity) }
        return quantity.converted(to: unit).map(FHIRPathItem.quantity)
    }

    /// The spec's quantity string form: a number, optional spaces, then `'unit'` or a calendar keyword.
    static func parseQuantity(_ text: String) -> FHIRPathQuantity? {
        var rest = Substring(text)
        var number = ""
        if let sign = rest.first, sign == "+" || sign == "-" {
            number.append(sign)
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        number += digits
        rest = rest.dropFirst(digits.count)
        guard let value = FHIRPathDecimal(number) else { return nil }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        if rest.isEmpty { return FHIRPathQuantity(value: value, unit: "1") }
        if rest.first == "'", rest.count >= 3, rest.last == "'" {
            let unit = String(rest.dropFirst().dropLast())
            guard !unit.utf8.contains(UInt8(ascii: "'")), UCUMUnit.parse(unit) != nil else { return nil }
            return FHIRPathQuantity(value: value, unit: unit)
        }
        guard FHIRPathQuantity.calendarKeywords[String(rest)] != nil else { return nil }
        return FHIRPathQuantity(value: value, unit: String(rest))
    }
}
