import SurveyCore

/// A FHIRPath `Date`, `DateTime` or `Time`: a partial value that knows its precision (`@2014` is a year,
/// `@2014-01-25T14:30` a minute) and, for a DateTime with a time, its timezone offset if it was written.
/// Comparisons are empty where the two precisions differ (spec "Date/Time Equality").
public struct FHIRPathDateTime: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: UInt8, Sendable {
        case date, dateTime, time
    }

    /// The finest component present. Seconds and their fraction are one precision for comparisons.
    public enum Precision: Int, Sendable, Comparable {
        case year, month, day, hour, minute, second, fraction

        public static func < (lhs: Precision, rhs: Precision) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var kind: Kind
    public var precision: Precision {
        get { Precision(rawValue: Int(storedPrecision))! }
        set { storedPrecision = UInt8(newValue.rawValue) }
    }
    // Small fields, so that a FHIRPath item holding a date stays small.
    private var storedPrecision: UInt8
    private var storedYear: Int16
    private var storedMonth: UInt8
    private var storedDay: UInt8
    private var storedHour: UInt8
    private var storedMinute: UInt8
    private var storedSecond: UInt8
    private var storedFractionDigits: UInt8
    private var storedFraction: UInt32
    /// Minutes east of UTC; `Int16.min` when no offset was written.
    private var storedOffset: Int16
    /// Whether the offset was written `Z` (kept for printing).
    var offsetIsZ = false

    public var year: Int {
        get { Int(storedYear) }
        set { storedYear = Int16(clamping: newValue) }
    }
    public var month: Int {
        get { Int(storedMonth) }
        set { storedMonth = UInt8(clamping: newValue) }
    }
    public var day: Int {
        get { Int(storedDay) }
        set { storedDay = UInt8(clamping: newValue) }
    }
    public var hour: Int {
        get { Int(storedHour) }
        set { storedHour = UInt8(clamping: newValue) }
    }
    public var minute: Int {
        get { Int(storedMinute) }
        set { storedMinute = UInt8(clamping: newValue) }
    }
    public var second: Int {
        get { Int(storedSecond) }
        set { storedSecond = UInt8(clamping: newValue) }
    }
    /// The digits after the seconds' point as a number, and how many digits were written (`.5` is 5 and 1).
    public var fraction: Int {
        get { Int(storedFraction) }
        set { storedFraction = UInt32(clamping: newValue) }
    }
    public var fractionDigits: Int {
        get { Int(storedFractionDigits) }
        set { storedFractionDigits = UInt8(clamping: newValue) }
    }
    /// Minutes east of UTC; nil when no offset was written.
    public var offsetMinutes: Int? {
        get { storedOffset == Int16.min ? nil : Int(storedOffset) }
        set { storedOffset = newValue.map { Int16(clamping: $0) } ?? Int16.min }
    }

    init(
        kind: Kind, precision: Precision, year: Int = 0, month: Int = 1, day: Int = 1, hour: Int = 0, minute: Int = 0, second: Int = 0,
        fraction: Int = 0, fractionDigits: Int = 0, offsetMinutes: Int? = nil
    ) {
        self.kind = kind
        storedPrecision = UInt8(precision.rawValue)
        storedYear = Int16(clamping: year)
        storedMonth = UInt8(clamping: month)
        storedDay = UInt8(clamping: day)
        storedHour = UInt8(clamping: hour)
        storedMinute = UInt8(clamping: minute)
        storedSecond = UInt8(clamping: second)
        storedFraction = UInt32(clamping: fraction)
        storedFractionDigits = UInt8(clamping: fractionDigits)
        storedOffset = offsetMinutes.map { Int16(clamping: $0) } ?? Int16.min
    }

    // MARK: Parsing

    /// The text of a literal after its `@`: `2014-01-25`, `2014-01T`, `2014-01-25T14:30:00.5+10:00`, `T14:30`.
    /// Nil for text that is not one, or a date that does not exist.
    public init?(literal text: Substring) {
        if text.first == "T" {
            guard let time = Self.parse(text.dropFirst(), kind: .time, allowsOffset: false) else { return nil }
            self = time
            return
        }
        var reader = Reader(text)
        guard var value = reader.date() else { return nil }
        if reader.take("T") {
            value.kind = .dateTime
            if !reader.atEnd {
                guard value.precision == .day, reader.time(into: &value), reader.offset(into: &value) || reader.atEnd else { return nil }
            }
        }
        guard reader.atEnd, value.isValid else { return nil }
        self = value
    }

    /// A FHIR `date`, `dateTime`, `instant` or `time` string, or the argument of `toDate()`/`toDateTime()`/
    /// `toTime()` (an hour without minutes is accepted, as in literals).
    public static func parse(_ text: Substring, kind: Kind, allowsOffset: Bool = true) -> FHIRPathDateTime? {
        var reader = Reader(text)
        var value: FHIRPathDateTime
        if kind == .time {
            value = FHIRPathDateTime(kind: .time, precision: .hour)
            guard reader.time(into: &value) else { return nil }
        } else {
            guard let date = reader.date() else { return nil }
            value = date
            value.kind = kind
            if kind == .dateTime, reader.take("T") {
                guard value.precision == .day, reader.time(into: &value) else { return nil }
                if allowsOffset { _ = reader.offset(into: &value) }
            }
        }
        guard reader.atEnd, value.isValid else { return nil }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ text: Substring) { bytes = Array(text.utf8) }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            // A component is exactly `count` digits.
            if index + count < bytes.count, bytes[index + count] >= 0x30, bytes[index + count] <= 0x39 { return nil }
            index += count
            return value
        }

        mutating func date() -> FHIRPathDateTime? {
            guard let year = digits(4) else { return nil }
            var value = FHIRPathDateTime(kind: .date, precision: .year, year: year)
            if take("-") {
                guard let month = digits(2) else { return nil }
                value.month = month
                value.precision = .month
                if take("-") {
                    guard let day = digits(2) else { return nil }
                    value.day = day
                    value.precision = .day
                }
            }
            return value
        }

        mutating func time(into value: inout FHIRPathDateTime) -> Bool {
            guard let hour = digits(2) else { return false }
            value.hour = hour
            value.precision = .hour
            guard take(":") else { return true }
            guard let minute = digits(2) else { return false }
            value.minute = minute
            value.precision = .minute
            guard take(":") else { return true }
            guard let second = digits(2) else { return false }
            value.second = second
            value.precision = .second
            guard take(".") else { return true }
            var fraction = 0
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if count < 9 {
                    fraction = fraction * 10 + Int(bytes[index] - 0x30)
                    count += 1
                }
                index += 1
            }
            guard count > 0 else { return false }
            value.fraction = fraction
            value.fractionDigits = count
            value.precision = .fraction
            return true
        }

        mutating func offset(into value: inout FHIRPathDateTime) -> Bool {
            if take("Z") {
                value.offsetMinutes = 0
                value.offsetIsZ = true
                return true
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return false }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2), take(":"), let minutes = digits(2), hours <= 14, minutes < 60 else { return false }
            value.offsetMinutes = sign * (hours * 60 + minutes)
            return true
        }
    }

    private var isValid: Bool {
        if kind != .time {
            guard year >= 1, year <= 9999 else { return false }
            if precision >= .month, !(1...12).contains(month) { return false }
            if precision >= .day, !(1...CalendarDate.daysIn(year: year, month: month)).contains(day) { return false }
        }
        if hasTime {
            guard hour < 24, minute < 60, second < 60 else { return false }
        }
        return true
    }

    /// Whether the value has an hour (a Time always does).
    public var hasTime: Bool { precision >= .hour }

    // MARK: Printing

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// ISO 8601 text without the literal's `@`: `2014-01`, `2014-01-25T14:30:00.000+10:00`, `14:30` for a
    /// Time. A DateTime without a time prints like a date (`2014-01-25`).
    public var description: String {
        var text = ""
        if kind != .time {
            text = Self.pad(year, 4)
            if precision >= .month { text += "-" + Self.pad(month, 2) }
            if precision >= .day { text += "-" + Self.pad(day, 2) }
            guard hasTime else { return text }
            text += "T"
        }
        text += Self.pad(hour, 2)
        if precision >= .minute { text += ":" + Self.pad(minute, 2) }
        if precision >= .second { text += ":" + Self.pad(second, 2) }
        if precision >= .fraction { text += "." + Self.pad(fraction, fractionDigits) }
        if kind == .dateTime, let offset = offsetMinutes {
            if offsetIsZ {
                text += "Z"
            } else {
                text += (offset < 0 ? "-" : "+") + Self.pad(abs(offset) / 60, 2) + ":" + Self.pad(abs(offset) % 60, 2)
            }
        }
        return text
    }

    // MARK: Comparison

    /// Milliseconds of the seconds component with its fraction, for comparing seconds as one decimal.
    private var secondsDecimal: FHIRPathDecimal {
        FHIRPathDecimal(significand: Int128(second) * Int128(FHIRPathDecimal.powerOfTen(fractionDigits) ?? 1) + Int128(fraction), scale: fractionDigits)
    }

    /// The value moved to UTC when it has a time and an offset (fields only; the precision is kept).
    private func normalizedToUTC() -> FHIRPathDateTime? {
        guard kind == .dateTime, hasTime, let offset = offsetMinutes, offset != 0 else { return self }
        // An hour-precision value cannot move by an offset with minutes.
        if precision == .hour, offset % 60 != 0 { return nil }
        var result = self
        let date = CalendarDate(year: year, month: month, day: day)
        let minutes = hour * 60 + minute - offset
        let dayShift = Int((Double(minutes) / 1440).rounded(.down))
        let rest = minutes - dayShift * 1440
        let moved = date.adding(days: dayShift)
        result.year = moved.year
        result.month = moved.month
        result.day = moved.day
        result.hour = rest / 60
        result.minute = rest % 60
        result.offsetMinutes = 0
        result.offsetIsZ = true
        return result
    }

    /// -1, 0 or 1 comparing component by component from the year (the hour for times); nil when one value
    /// stops before the other at a component where they are still equal (the result is unknown), when
    /// only one of two values with a time has an offset, or when a Time meets a Date or DateTime.
    public static func compare(_ lhs: FHIRPathDateTime, _ rhs: FHIRPathDateTime) -> Int? {
        guard (lhs.kind == .time) == (rhs.kind == .time) else { return nil }
        var left = lhs
        var right = rhs
        if left.hasTime, right.hasTime, left.kind == .dateTime {
            switch (left.offsetMinutes, right.offsetMinutes) {
            case (nil, nil): break
            case (_?, _?):
                guard let l = left.normalizedToUTC(), let r = right.normalizedToUTC() else { return nil }
                left = l
                right = r
            default: return nil
            }
        }
        let components: [(Precision, Int, Int)] =
            left.kind == .time
            ? [(.hour, left.hour, right.hour), (.minute, left.minute, right.minute)]
            : [
                (.year, left.year, right.year), (.month, left.month, right.month), (.day, left.day, right.day), (.hour, left.hour, right.hour),
                (.minute, left.minute, right.minute),
            ]
        for (precision, a, b) in components {
            let leftHas = left.precision >= precision
            let rightHas = right.precision >= precision
            if !leftHas && !rightHas { return 0 }
            if leftHas != rightHas { return nil }
            if a != b { return a < b ? -1 : 1 }
        }
        let leftHas = left.precision >= .second
        let rightHas = right.precision >= .second
        if !leftHas && !rightHas { return 0 }
        if leftHas != rightHas { return nil }
        return FHIRPathDecimal.compare(left.secondsDecimal, right.secondsDecimal)
    }

    // MARK: Arithmetic

    /// The calendar unit a time-valued quantity adds, and how many of them; nil for a unit that is not time
    /// or that the spec refuses for date arithmetic (`'mo'` and `'a'`).
    enum CalendarUnit: Int, Comparable {
        case year, month, week, day, hour, minute, second, millisecond

        static func < (lhs: CalendarUnit, rhs: CalendarUnit) -> Bool { lhs.rawValue < rhs.rawValue }

        init?(quantityUnit unit: String) {
            switch unit {
            case "year", "years": self = .year
            case "month", "months": self = .month
            case "week", "weeks", "wk": self = .week
            case "day", "days", "d": self = .day
            case "hour", "hours", "h": self = .hour
            case "minute", "minutes", "min": self = .minute
            case "second", "seconds", "s": self = .second
            case "millisecond", "milliseconds", "ms": self = .millisecond
            default: return nil
            }
        }
    }

    /// The value moved by `amount` units (negative to subtract); nil when the unit does not apply (date units
    /// on a Time) or the year leaves 1...9999. Partial values move by whole units of their own precision
    /// (`@2014 + 24 months` is `@2016`); the decimal part of the amount is dropped, as the official suite
    /// expects (`+ 0.1 's'` leaves the value unchanged).
    func adding(_ amount: FHIRPathDecimal, _ unit: CalendarUnit) -> FHIRPathDateTime? {
        if kind == .time, unit <= .day { return nil }
        var count = amount.truncated
        var unit = unit
        if unit == .week {
            count *= 7
            unit = .day
        }
        // Convert to the finest unit the value has when the unit is finer than its precision.
        let finest: CalendarUnit
        switch precision {
        case .year: finest = .year
        case .month: finest = .month
        case .day: finest = .day
        case .hour: finest = .hour
        case .minute: finest = .minute
        case .second: finest = .second
        case .fraction: finest = .millisecond
        }
        if unit > finest {
            count = Self.convert(count, from: unit, to: finest)
            unit = finest
        }
        // Nothing moves a date out of years 1 to 9999 by more than about 3.7 million days.
        let limit: Int128 = unit <= .day ? 10_000_000 : 10_000_000 * 86_400_000
        guard count.magnitude <= limit.magnitude, let steps = Int(exactly: count) else { return nil }
        var result = self
        switch unit {
        case .year, .month:
            let moved = CalendarDate(year: year, month: month, day: 1).adding(years: unit == .year ? steps : 0, months: unit == .month ? steps : 0)
            result.year = moved.year
            result.month = moved.month
            result.day = min(day, CalendarDate.daysIn(year: moved.year, month: moved.month))
        case .day:
            let moved = CalendarDate(year: year, month: month, day: day).adding(days: steps)
            result.year = moved.year
            result.month = moved.month
            result.day = moved.day
        case .hour, .minute, .second, .millisecond:
            let perUnit: Int
            switch unit {
            case .hour: perUnit = 3_600_000
            case .minute: perUnit = 60_000
            case .second: perUnit = 1000
            default: perUnit = 1
            }
            let millisecondsOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + millisecondsOfFraction
            let (total, overflow) = steps.multipliedReportingOverflow(by: perUnit)
            guard !overflow else { return nil }
            let moved = millisecondsOfDay + total
            let dayShift = Int((Double(moved) / 86_400_000).rounded(.down))
            let rest = moved - dayShift * 86_400_000
            if kind != .time {
                let date = CalendarDate(year: year, month: month, day: day).adding(days: dayShift)
                result.year = date.year
                result.month = date.month
                result.day = date.day
            }
            result.hour = rest / 3_600_000
            result.minute = rest / 60_000 % 60
            result.second = rest / 1000 % 60
            if precision == .fraction {
                result.fraction = rest % 1000
                result.fractionDigits = 3
            }
        case .week:
            return nil
        }
        guard kind == .time || (1...9999).contains(result.year) else { return nil }
        return result
    }

    private var millisecondsOfFraction: Int {
        guard precision == .fraction else { return 0 }
        var value = fraction
        var digits = fractionDigits
        while digits > 3 {
            value /= 10
            digits -= 1
        }
        while digits < 3 {
            value *= 10
            digits += 1
        }
        return value
    }

    /// Whole `to` units in `count` `from` units (the spec's calendar conversion factors: a year is 12 months,
    /// a month 30 days, a day 24 hours), truncated toward zero.
    private static func convert(_ count: Int128, from: CalendarUnit, to: CalendarUnit) -> Int128 {
        let inMilliseconds: [CalendarUnit: Int128] = [
            .day: 86_400_000, .hour: 3_600_000, .minute: 60_000, .second: 1000, .millisecond: 1,
        ]
        switch (from, to) {
        case (.month, .year): return count / 12
        case (.day, .month), (.hour, .month), (.minute, .month), (.second, .month), (.millisecond, .month):
            return convert(count, from: from, to: .day) / 30
        case (.day, .year), (.hour, .year), (.minute, .year), (.second, .year), (.millisecond, .year):
            return convert(count, from: from, to: .day) / 365
        default:
            guard let fromFactor = inMilliseconds[from], let toFactor = inMilliseconds[to] else { return 0 }
            return count * fromFactor / toFactor
        }
    }

    // MARK: Boundaries and components

    /// The number of digits the value is written with: 4 for a year, 8 for a day, 17 for milliseconds, 9
    /// for a Time with milliseconds (`precision()`).
    public var digitCount: Int {
        var count = kind == .time ? 0 : 4
        if kind != .time {
            if precision >= .month { count += 2 }
            if precision >= .day { count += 2 }
        }
        if precision >= .hour { count += 2 }
        if precision >= .minute { count += 2 }
        if precision >= .second { count += 2 }
        if precision >= .fraction { count += fractionDigits }
        return count
    }

    /// The least or greatest value this partial value stands for, written to `digits` digits (4, 6, 8, 10,
    /// 12, 14 or 17 for a date and time; 2, 4, 6 or 9 for a time); nil for another count. A DateTime with a
    /// time but no offset gets the extreme offset (+14:00 low, -12:00 high). An hour without minutes counts
    /// as minute 00 first, as the official suite expects (`@2014-01-01T08.highBoundary(17)` is
    /// `08:00:59.999-12:00`).
    func boundary(high: Bool, digits requested: Int?) -> FHIRPathDateTime? {
        var value = self
        if value.precision == .hour {
            value.precision = .minute
            value.minute = 0
        }
        let target: Precision
        switch (kind, requested ?? (kind == .time ? 9 : kind == .date ? 8 : 17)) {
        case (.time, 2): target = .hour
        case (.time, 4): target = .minute
        case (.time, 6): target = .second
        case (.time, 9): target = .fraction
        case (.time, _): return nil
        case (_, 4): target = .year
        case (_, 6): target = .month
        case (_, 8): target = .day
        case (.dateTime, 10): target = .hour
        case (.dateTime, 12): target = .minute
        case (.dateTime, 14): target = .second
        case (.dateTime, 17): target = .fraction
        default: return nil
        }
        if target < value.precision {
            value.precision = target
        } else {
            if value.precision < .month { value.month = high ? 12 : 1 }
            if value.precision < .day { value.day = high ? CalendarDate.daysIn(year: value.year, month: value.month) : 1 }
            if value.precision < .hour { value.hour = high ? 23 : 0 }
            if value.precision < .minute { value.minute = high ? 59 : 0 }
            if value.precision < .second { value.second = high ? 59 : 0 }
            if value.precision < .fraction {
                value.fraction = high ? 999 : 0
                value.fractionDigits = 3
            }
            value.precision = target
        }
        if value.kind == .date, target >= .hour { value.kind = .dateTime }
        if value.kind == .dateTime, value.hasTime, value.offsetMinutes == nil {
            value.offsetMinutes = high ? -12 * 60 : 14 * 60
        }
        if value.kind == .dateTime, !value.hasTime { value.offsetMinutes = nil }
        return value
    }
}
