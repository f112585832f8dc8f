/// A date on the proleptic Gregorian calendar, with the arithmetic survey engines do on picker ranges.
/// Our own, so that results never depend on the machine's calendar, locale or time zone.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `yyyy-MM-dd` (four-digit year, two-digit month and day) of a real date.
    public init?(iso text: String) {
        var utf8 = text.utf8.makeIterator()
        func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let byte = utf8.next(), byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = digits(4), utf8.next() == UInt8(ascii: "-"), let month = digits(2), utf8.next() == UInt8(ascii: "-"),
            let day = digits(2), utf8.next() == nil, (1...12).contains(month), (1...CalendarDate.daysIn(year: year, month: month)).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        if (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day) {
            // The usual date, written digit by digit (picker refusals print dates on every walk step).
            return String(unsafeUninitializedCapacity: 10) { buffer in
                func put(_ value: Int, at offset: Int, width: Int) {
                    var rest = value
                    for place in stride(from: offset + width - 1, through: offset, by: -1) {
                        buffer[place] = UInt8(ascii: "0") + UInt8(rest % 10)
                        rest /= 10
                    }
                }
                put(year, at: 0, width: 4)
                put(month, at: 5, width: 2)
                put(day, at: 8, width: 2)
                buffer[4] = UInt8(ascii: "-")
                buffer[7] = UInt8(ascii: "-")
                return 10
            }
        }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Adds years and months as calendars do: the day is clamped to the end of a shorter month
    /// (2024-02-29 plus one year is 2025-02-28).
    public func adding(years: Int = 0, months: Int = 0) -> CalendarDate {
        let total = (year + years) * 12 + (month - 1) + months
        let newYear = Int((Double(total) / 12).rounded(.down))
        let newMonth = total - newYear * 12 + 1
        return CalendarDate(year: newYear, month: newMonth, day: min(day, CalendarDate.daysIn(year: newYear, month: newMonth)))
    }

    public func adding(days: Int) -> CalendarDate {
        CalendarDate(dayNumber: dayNumber + days)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days-from-civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    public init(dayNumber: Int) {
        let z = dayNumber + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }
}
