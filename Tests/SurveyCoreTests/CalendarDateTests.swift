import Testing
@testable import SurveyCore

/// `CalendarDate.description`: the digit-by-digit fast path for years 0...9999, and the padded fallback for
/// every other date. (The suite itself is declared in SourceTests.swift.)
extension CalendarDateTests {
    /// The text the fallback builds, written independently: each part zero-padded to a width, a sign counting as a digit.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    @Test("dates in years 0...9999 print as zero-padded yyyy-MM-dd")
    func printsUsualDatesZeroPadded() {
        #expect(CalendarDate(year: 1, month: 1, day: 1).description == "0001-01-01")
        #expect(CalendarDate(year: 999, month: 12, day: 31).description == "0999-12-31")
        #expect(CalendarDate(year: 2024, month: 2, day: 29).description == "2024-02-29")
        #expect(CalendarDate(year: 9999, month: 12, day: 31).description == "9999-12-31")
        #expect(CalendarDate(year: 0, month: 1, day: 1).description == "0000-01-01")
        #expect(CalendarDate(year: 10, month: 10, day: 10).description == "0010-10-10")
        #expect(CalendarDate(year: 2026, month: 11, day: 9).description == "2026-11-09")
        #expect("\(CalendarDate(year: 1970, month: 1, day: 1))" == "1970-01-01")
    }

    @Test("every day of 1900, 2000, 2023, 2024 and years 0 and 9999 prints as expected and parses back to itself",
          arguments: [1900, 2000, 2023, 2024, 0, 9999])
    func everyDayOfAYearRoundTrips(year: Int) {
        var date = CalendarDate(year: year, month: 1, day: 1)
        var days = 0
        var failures: [String] = []
        while date.year == year {
            let text = date.description
            let expected = "\(Self.padded(date.year, 4))-\(Self.padded(date.month, 2))-\(Self.padded(date.day, 2))"
            if text != expected || text.utf8.count != 10 || CalendarDate(iso: text) != date { failures.append(text) }
            days += 1
            date = date.adding(days: 1)
        }
        #expect(failures.isEmpty, "dates that print or parse wrongly: \(failures.prefix(10))")
        #expect(days == (CalendarDate.isLeap(year) ? 366 : 365))
        #expect(date == CalendarDate(year: year + 1, month: 1, day: 1))
    }

    @Test("years outside 0...9999 print as before the fast path: each part padded, a minus sign counting as a digit")
    func printsOtherYearsAsTheFallbackDoes() {
        #expect(CalendarDate(year: -5, month: 3, day: 7).description == "00-5-03-07")
        #expect(CalendarDate(year: -1, month: 12, day: 31).description == "00-1-12-31")
        #expect(CalendarDate(year: -2024, month: 1, day: 1).description == "-2024-01-01")
        #expect(CalendarDate(year: 12345, month: 1, day: 1).description == "12345-01-01")
        #expect(CalendarDate(year: 10000, month: 1, day: 1).description == "10000-01-01")
        // The years either side of the limits: -1 falls back, 0 and 9999 take the fast path, 10000 falls back.
        #expect(CalendarDate(year: 0, month: 12, day: 31).adding(days: 1).description == "0001-01-01")
        #expect(CalendarDate(year: 0, month: 1, day: 1).adding(days: -1).description == "00-1-12-31")
        #expect(CalendarDate(year: 9999, month: 12, day: 31).adding(days: 1).description == "10000-01-01")
    }

    @Test("months and days outside the calendar skip the fast path and print padded as before")
    func printsOutOfRangeMonthsAndDaysAsTheFallbackDoes() {
        #expect(CalendarDate(year: 2024, month: 13, day: 1).description == "2024-13-01")
        #expect(CalendarDate(year: 2024, month: 0, day: 0).description == "2024-00-00")
        #expect(CalendarDate(year: 2024, month: 1, day: 32).description == "2024-01-32")
        #expect(CalendarDate(year: 2024, month: 100, day: 7).description == "2024-100-07")
        #expect(CalendarDate(year: 2024, month: -1, day: 5).description == "2024--1-05")
    }
}
