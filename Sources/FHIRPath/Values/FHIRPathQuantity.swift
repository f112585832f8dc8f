/// A FHIRPath `Quantity`: a decimal value and a unit, either a UCUM code (`'mg'`, `'[lb_av]'`, `'1'`) or a
/// calendar duration keyword (`year`, `days`…), kept as written.
public struct FHIRPathQuantity: Sendable, Hashable, CustomStringConvertible {
    public var value: FHIRPathDecimal
    public var unit: String

    public init(value: FHIRPathDecimal, unit: String) {
        self.value = value
        self.unit = unit
    }

    /// The calendar duration keywords, singular and plural, by the singular.
    static let calendarKeywords: [String: String] = [
        "year": "year", "years": "year", "month": "month", "months": "month", "week": "week", "weeks": "week", "day": "day",
        "days": "day", "hour": "hour", "hours": "hour", "minute": "minute", "minutes": "minute", "second": "second",
        "seconds": "second", "millisecond": "millisecond", "milliseconds": "millisecond",
    ]

    /// The singular calendar keyword of the unit, when it is one.
    var calendarUnit: String? { Self.calendarKeywords[unit] }

    /// `4 'mg'`, `1 week`: as a literal is written (`toString()`).
    public var description: String {
        calendarUnit != nil ? "\(value) \(unit)" : "\(value) '\(unit)'"
    }

    // MARK: Units compared

    /// The UCUM code a calendar keyword equals (`week` is `'wk'`); years and months have none (a calendar
    /// year is not a UCUM `'a'`: only equivalent).
    private static let ucumOfCalendar: [String: String] = [
        "week": "wk", "day": "d", "hour": "h", "minute": "min", "second": "s", "millisecond": "ms",
    ]

    /// Each calendar unit shorter than a month in milliseconds.
    private static let calendarMilliseconds: [String: Int128] = [
        "week": 604_800_000, "day": 86_400_000, "hour": 3_600_000, "minute": 60_000, "second": 1000, "millisecond": 1,
    ]

    /// How the two values compare once in one unit. Equality converts to any common unit; equivalence to the
    /// least granular of the two. Nil when the units cannot be compared (not commensurable, invalid, or a
    /// calendar year or month against UCUM for equality).
    static func commonValues(_ lhs: FHIRPathQuantity, _ rhs: FHIRPathQuantity, equivalence: Bool) -> (FHIRPathDecimal, FHIRPathDecimal)? {
        if lhs.unit == rhs.unit { return (lhs.value, rhs.value) }
        switch (lhs.calendarUnit, rhs.calendarUnit) {
        case (let left?, let right?):
            return calendarValues(lhs.value, left, rhs.value, right)
        case (let left?, nil):
            guard let code = ucumCode(ofCalendar: left, equivalence: equivalence) else { return nil }
            return ucumValues(FHIRPathQuantity(value: lhs.value, unit: code), rhs, equivalence: equivalence)
        case (nil, let right?):
            guard let code = ucumCode(ofCalendar: right, equivalence: equivalence) else { return nil }
            return ucumValues(lhs, FHIRPathQuantity(value: rhs.value, unit: code), equivalence: equivalence)
        case (nil, nil):
            return ucumValues(lhs, rhs, equivalence: equivalence)
        }
    }

    private static func ucumCode(ofCalendar keyword: String, equivalence: Bool) -> String? {
        if let code = ucumOfCalendar[keyword] { return code }
        guard equivalence else { return nil }
        return keyword == "year" ? "a" : "mo"
    }

    /// The sizes of two calendar units in a common small unit: months between years and months, else
    /// milliseconds (a year 365 days, a month 30, as the spec's conversion table says).
    private static func calendarSizes(_ left: String, _ right: String) -> (Int128, Int128)? {
        func inMonths(_ unit: String) -> Int128? { unit == "year" ? 12 : unit == "month" ? 1 : nil }
        if let a = inMonths(left), let b = inMonths(right) { return (a, b) }
        func inMilliseconds(_ unit: String) -> Int128? {
            switch unit {
            case "year": 365 * 86_400_000
            case "month": 30 * 86_400_000
            default: calendarMilliseconds[unit]
            }
        }
        guard let a = inMilliseconds(left), let b = inMilliseconds(right) else { return nil }
        return (a, b)
    }

    /// `value` of calendar unit `from` in calendar unit `to`.
    private static func convertCalendar(_ value: FHIRPathDecimal, from: String, to: String) -> FHIRPathDecimal? {
        guard let (a, b) = calendarSizes(from, to), let scaled = value * FHIRPathDecimal(significand: a, scale: 0) else { return nil }
        return scaled / FHIRPathDecimal(significand: b, scale: 0)
    }

    /// Both values in the coarser of two calendar units.
    private static func calendarValues(_ left: FHIRPathDecimal, _ leftUnit: String, _ right: FHIRPathDecimal, _ rightUnit: String)
        -> (FHIRPathDecimal, FHIRPathDecimal)?
    {
        if leftUnit == rightUnit { return (left, right) }
        guard let (a, b) = calendarSizes(leftUnit, rightUnit) else { return nil }
        if a >= b {
            return convertCalendar(right, from: rightUnit, to: leftUnit).map { (left, $0) }
        }
        return convertCalendar(left, from: leftUnit, to: rightUnit).map { ($0, right) }
    }

    private static func ucumValues(_ lhs: FHIRPathQuantity, _ rhs: FHIRPathQuantity, equivalence: Bool) -> (FHIRPathDecimal, FHIRPathDecimal)? {
        if lhs.unit == rhs.unit { return (lhs.value, rhs.value) }
        guard let left = UCUMUnit.parse(lhs.unit), let right = UCUMUnit.parse(rhs.unit), left.isCommensurable(with: right) else { return nil }
        // Into the coarser unit (the less granular one; equal sizes: the left one).
        if left.compareSize(with: right).map({ $0 >= 0 }) ?? true {
            guard let converted = right.convert(rhs.value, to: left) else { return nil }
            return (lhs.value, converted)
        }
        guard let converted = left.convert(lhs.value, to: right) else { return nil }
        return (converted, rhs.value)
    }

    /// Whether `comparable()` holds: both units known and commensurable (a calendar year or month is not
    /// comparable with UCUM units).
    func isComparable(with other: FHIRPathQuantity) -> Bool {
        Self.commonValues(self, other, equivalence: false) != nil
    }

    /// `=`: nil when the units cannot be compared.
    static func equals(_ lhs: FHIRPathQuantity, _ rhs: FHIRPathQuantity) -> Bool? {
        guard let (a, b) = commonValues(lhs, rhs, equivalence: false) else { return nil }
        return a == b
    }

    /// `~`: rounded to the precision of the less precise value (trailing zeros not counted).
    static func isEquivalent(_ lhs: FHIRPathQuantity, _ rhs: FHIRPathQuantity) -> Bool {
        guard let (a, b) = commonValues(lhs, rhs, equivalence: true) else { return false }
        return a.trimmed().isEquivalent(to: b.trimmed())
    }

    /// Ordering: nil when the units cannot be compared.
    static func compare(_ lhs: FHIRPathQuantity, _ rhs: FHIRPathQuantity) -> Int? {
        guard let (a, b) = commonValues(lhs, rhs, equivalence: false) else { return nil }
        return FHIRPathDecimal.compare(a, b)
    }

    // MARK: Arithmetic

    /// The UCUM code matching each calendar keyword, and back, for conversions across the two systems.
    private static let ucumCounterpart: [String: String] = [
        "year": "a", "month": "mo", "week": "wk", "day": "d", "hour": "h", "minute": "min", "second": "s", "millisecond": "ms",
    ]
    private static let calendarCounterpart: [String: String] = Dictionary(uniqueKeysWithValues: ucumCounterpart.map { ($1, $0) })

    /// The quantity in `unit` (a UCUM code or calendar keyword), for `toQuantity(unit)` and arithmetic; nil
    /// when the units cannot be converted. Between calendar and UCUM time units the conversion happens in
    /// the source's own system, then the unit is relabelled (`7 days` to `'wk'` is `1 'wk'`).
    func converted(to unit: String) -> FHIRPathQuantity? {
        if unit == self.unit { return self }
        let targetCalendar = Self.calendarKeywords[unit]
        switch (calendarUnit, targetCalendar) {
        case (let from?, let to?):
            return Self.convertCalendar(value, from: from, to: to).map { FHIRPathQuantity(value: $0, unit: unit) }
        case (let from?, nil):
            if let counterpart = Self.calendarCounterpart[unit] {
                return converted(to: counterpart).map { FHIRPathQuantity(value: $0.value, unit: unit) }
            }
            guard let code = Self.ucumCounterpart[from] else { return nil }
            return FHIRPathQuantity(value: value, unit: code).converted(to: unit)
        case (nil, let to?):
            guard let code = Self.ucumCounterpart[to] else { return nil }
            return converted(to: code).map { FHIRPathQuantity(value: $0.value, unit: unit) }
        case (nil, nil):
            guard let from = UCUMUnit.parse(self.unit), let to = UCUMUnit.parse(unit), let converted = from.convert(value, to: to) else { return nil }
            return FHIRPathQuantity(value: converted, unit: unit)
        }
    }

    /// Sum or difference, in the more granular unit of the two; nil when not commensurable.
    static func add(_ lhs: FHIRPathQuantity, _ rhs: FHIRPathQuantity, subtracting: Bool) -> FHIRPathQuantity? {
        let right = subtracting ? FHIRPathQuantity(value: -rhs.value, unit: rhs.unit) : rhs
        if lhs.unit == right.unit || lhs.calendarUnit != nil && lhs.calendarUnit == right.calendarUnit {
            return (lhs.value + right.value).map { FHIRPathQuantity(value: $0, unit: lhs.unit) }
        }
        guard let oneLeft = FHIRPathQuantity(value: .one, unit: lhs.unit).converted(to: right.unit) else { return nil }
        if oneLeft.value > .one {
            guard let left = lhs.converted(to: right.unit), let sum = left.value + right.value else { return nil }
            return FHIRPathQuantity(value: sum, unit: right.unit)
        }
        guard let converted = right.converted(to: lhs.unit), let sum = lhs.value + converted.value else { return nil }
        return FHIRPathQuantity(value: sum, unit: lhs.unit)
    }

    /// Product or quotient: units multiply (`'cm'` × `'m'` is `'cm.m'`); dimensionless `'1'` disappears.
    static func multiply(_ lhs: FHIRPathQuantity, _ rhs: FHIRPathQuantity, dividing: Bool) -> FHIRPathQuantity? {
        guard lhs.calendarUnit == nil || rhs.unit == "1", rhs.calendarUnit == nil || lhs.unit == "1" else {
            return nil
        }
        guard let value = dividing ? lhs.value / rhs.value : lhs.value * rhs.value else { return nil }
        let unit: String
        switch (lhs.unit, rhs.unit) {
        case (let left, "1"): unit = left
        case ("1", let right): unit = dividing ? "/" + wrapped(right) : right
        case (let left, let right) where dividing && left == right: unit = "1"
        case (let left, let right): unit = wrapped(left) + (dividing ? "/" : ".") + wrapped(right)
        }
        guard unit == "1" || UCUMUnit.parse(unit) != nil else { return nil }
        return FHIRPathQuantity(value: value, unit: unit)
    }

    /// A unit code in parentheses when it holds an operator, so it can be combined with another.
    private static func wrapped(_ code: String) -> String {
        code.utf8.contains(UInt8(ascii: "/")) || code.utf8.contains(UInt8(ascii: ".")) ? "(" + code + ")" : code
    }
}
