import SurveyCore
import Testing

@testable import SurveyFormats

/// The ranges of the year and date pickers (reference §7), with today fixed at 2026-11-22. A year or date
/// off the picker is refused; the bounds themselves are taken.
@Suite("SurveyNative year and date pickers")
struct SurveyNativePickerTests {
    /// Checks through a session that the picker of `keys` offers exactly `low...high`.
    private func expectPicker(
        _ type: String, _ keys: String, offers low: String, _ high: String, outside: (below: String, above: String),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let session = try startSession(question("q", type, keys), select("end"))
        for refused in [outside.below, outside.above] {
            let outcome = session.perform(.answer("q", .string(refused))).outcome
            #expect(outcome.kind == .rejected, "\(refused) is off the picker", sourceLocation: sourceLocation)
        }
        #expect(session.answer(for: "q") == nil, sourceLocation: sourceLocation)
        for taken in [low, high] {
            let outcome = session.perform(.answer("q", .string(taken))).outcome
            #expect(outcome == .ok, "\(taken) is on the picker", sourceLocation: sourceLocation)
        }
        #expect(session.answer(for: "q") == .string(high), sourceLocation: sourceLocation)
    }

    private func expectYears(_ keys: String, _ range: ClosedRange<Int>, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try expectPicker(
            "year_picker", keys, offers: String(range.lowerBound), String(range.upperBound),
            outside: (String(range.lowerBound - 1), String(range.upperBound + 1)), sourceLocation: sourceLocation)
    }

    // MARK: year_picker

    @Test("with no range keys the year picker offers 1900 to the current year")
    func yearPickerDefaults() throws {
        try expectYears("", 1900...2026)
    }

    @Test("with only min_year the year picker runs to the current year, or to min_year if later")
    func yearPickerOnlyMin() throws {
        try expectYears(#""min_year": "2000""#, 2000...2026)
        try expectYears(#""min_year": "2030""#, 2030...2030)
    }

    @Test("with only max_year the year picker starts at the current year, or at max_year if earlier")
    func yearPickerOnlyMax() throws {
        try expectYears(#""max_year": "2040""#, 2026...2040)
        try expectYears(#""max_year": "2000""#, 2000...2000)
    }

    @Test("with only num_years the year picker offers that many years up to the current year")
    func yearPickerOnlyNum() throws {
        try expectYears(#""num_years": "10""#, 2017...2026)
    }

    @Test("with two range keys the year picker computes the third")
    func yearPickerTwoKeys() throws {
        try expectYears(#""min_year": "1980", "num_years": "5""#, 1980...1984)
        try expectYears(#""max_year": "2000", "num_years": "3""#, 1998...2000)
        try expectYears(#""min_year": "1950", "max_year": "1960""#, 1950...1960)
    }

    @Test("with all three range keys num_years is ignored")
    func yearPickerThreeKeysIgnoresNum() throws {
        try expectYears(#""min_year": "1950", "max_year": "1960", "num_years": "3""#, 1950...1960)
    }

    @Test("current_year stands for today's year in min_year and max_year")
    func yearPickerCurrentYear() throws {
        try expectYears(#""max_year": "current_year", "num_years": "125""#, 1902...2026)
        try expectYears(#""min_year": "current_year", "num_years": "5""#, 2026...2030)
        let later = CalendarDate(year: 2031, month: 1, day: 1)
        let nextYear = try startSession(question("q", "year_picker", #""max_year": "current_year""#), select("end"), today: later)
        nextYear.play(.answer("q", "2031"))
        #expect(nextYear.perform(.answer("q", "2032")).outcome.kind == .rejected)
    }

    @Test("a year key written as a JSON number is treated as absent")
    func yearPickerNumericKeysAbsent() throws {
        try expectYears(#""min_year": 1990"#, 1900...2026)
        try expectYears(#""max_year": "current_year", "num_years": 125"#, 2026...2026)
        try expectYears(#""min_year": "2000", "max_year": 2010"#, 2000...2026)
    }

    @Test("sort_order DESC lists the years newest first; anything else ascending")
    func yearPickerSortOrder() throws {
        let survey = try #require(
            loadSurvey(text: surveyText([
                question("desc", "year_picker", #""sort_order": "DESC""#), question("lower", "year_picker", #""sort_order": "desc""#),
                question("asc", "year_picker", #""sort_order": "ASC""#), question("none", "year_picker"),
            ])) as? SurveyNativeSurvey)
        func isDescending(_ id: String) -> Bool? {
            guard case .yearPicker(let picker)? = survey.question(id)?.kind else { return nil }
            return picker.descending
        }
        #expect(isDescending("desc") == true)
        #expect(isDescending("lower") == false)
        #expect(isDescending("asc") == false)
        #expect(isDescending("none") == false)
    }

    @Test("initial_year does not limit the range")
    func initialYearIsNotRangeChecked() throws {
        try expectYears(#""min_year": "2000", "max_year": "2010", "initial_year": "1990""#, 2000...2010)
    }

    // MARK: date_picker

    private func expectDates(
        _ keys: String, _ low: String, _ high: String, outside: (String, String), sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        try expectPicker("date_picker", keys, offers: low, high, outside: outside, sourceLocation: sourceLocation)
    }

    @Test("min_date and max_date bound the date picker")
    func datePickerBounds() throws {
        try expectDates(#""min_date": "2026-01-01", "max_date": "2026-12-31""#, "2026-01-01", "2026-12-31", outside: ("2025-12-31", "2027-01-01"))
    }

    @Test("current_date stands for today")
    func datePickerCurrentDate() throws {
        try expectDates(#""min_date": "2026-01-01", "max_date": "current_date""#, "2026-01-01", "2026-11-22", outside: ("2025-12-31", "2026-11-23"))
        try expectDates(#""min_date": "current_date", "max_date": "2027-01-01""#, "2026-11-22", "2027-01-01", outside: ("2026-11-21", "2027-01-02"))
    }

    @Test("date_diff with only max_date sets the minimum to max_date plus the difference")
    func dateDiffFromMax() throws {
        try expectDates(#""max_date": "current_date", "date_diff": {"year": -1}"#, "2025-11-22", "2026-11-22", outside: ("2025-11-21", "2026-11-23"))
        try expectDates(#""max_date": "2026-03-31", "date_diff": {"month": -1}"#, "2026-02-28", "2026-03-31", outside: ("2026-02-27", "2026-04-01"))
    }

    @Test("date_diff with only min_date sets the maximum to min_date plus the difference")
    func dateDiffFromMin() throws {
        try expectDates(#""min_date": "2026-01-01", "date_diff": {"day": 10}"#, "2026-01-01", "2026-01-11", outside: ("2025-12-31", "2026-01-12"))
        try expectDates(#""min_date": "2024-02-29", "date_diff": {"year": 1}"#, "2024-02-29", "2025-02-28", outside: ("2024-02-28", "2025-03-01"))
    }

    @Test("date_diff keys other than day, month and year are ignored")
    func dateDiffIgnoresOtherKeys() throws {
        try expectDates(
            #""min_date": "2026-01-01", "date_diff": {"day": 1, "week": 2}"#, "2026-01-01", "2026-01-02", outside: ("2025-12-31", "2026-01-03"))
    }

    @Test("date_diff is ignored when both bounds are set")
    func dateDiffIgnoredWithBothBounds() throws {
        try expectDates(
            #""min_date": "2026-01-01", "max_date": "2026-06-30", "date_diff": {"year": -1}"#, "2026-01-01", "2026-06-30",
            outside: ("2025-12-31", "2026-07-01"))
    }

    @Test("date_diff is ignored when neither bound is set: every date can be picked")
    func dateDiffIgnoredWithoutBounds() throws {
        let session = try startSession(question("q", "date_picker", #""date": "current_date", "date_diff": {"year": -1}"#), select("end"))
        session.play(.answer("q", "1950-06-15"), .answer("q", "2090-01-01"))
        #expect(session.answer(for: "q") == "2090-01-01")
    }

    @Test("the date question's own date is only the wheel's starting point, not a bound")
    func initialDateIsNotABound() throws {
        let session = try startSession(question("q", "date_picker", #""date": "2026-05-05", "max_date": "2026-12-31""#), select("end"))
        session.play(.answer("q", "1999-01-01"))
        #expect(session.answer(for: "q") == "1999-01-01")
    }
}
