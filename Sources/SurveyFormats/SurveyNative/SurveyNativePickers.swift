import SurveyCore

extension SurveyNative.YearPicker {
    /// The years the picker offers (`setYearRange`, YearPickerTableViewCell.swift:41-89, reference §7).
    public func range(today: CalendarDate) -> ClosedRange<Int>? {
        func resolve(_ spec: SurveyNative.YearSpec) -> Int {
            switch spec {
            case .currentYear: today.year
            case .year(let year): year
            }
        }
        let current = today.year
        let low: Int
        let high: Int
        switch (minYear.map(resolve), maxYear.map(resolve), numYears) {
        case (nil, nil, nil): (low, high) = (1900, current)
        case (let min?, nil, nil): (low, high) = (min, Swift.max(current, min))
        case (nil, let max?, nil): (low, high) = (Swift.min(current, max), max)
        case (nil, nil, let count?): (low, high) = (current - count + 1, current)
        case (let min?, nil, let count?): (low, high) = (min, min + count - 1)
        case (nil, let max?, let count?): (low, high) = (max - count + 1, max)
        case (let min?, let max?, _): (low, high) = (min, max)  // num_years is recomputed, so ignored
        }
        return low <= high ? low...high : nil
    }
}

extension SurveyNative.DatePicker {
    /// The earliest and latest date the wheel allows (DatePickerTableViewCell.swift:47-129, reference §7).
    /// `date_diff` applies only when exactly one bound is set. The real engine adds its components in the
    /// order of a Swift dictionary, which is not fixed; we add years, then months, then days.
    public func bounds(today: CalendarDate) -> (min: CalendarDate?, max: CalendarDate?) {
        func resolve(_ spec: SurveyNative.DateSpec) -> CalendarDate {
            switch spec {
            case .currentDate: today
            case .date(let date): date
            }
        }
        var low = minDate.map(resolve)
        var high = maxDate.map(resolve)
        if let diff {
            switch (low, high) {
            case (nil, let max?):
                low = max.adding(years: diff.years).adding(months: diff.months).adding(days: diff.days)
            case (let min?, nil):
                high = min.adding(years: diff.years).adding(months: diff.months).adding(days: diff.days)
            default: break
            }
        }
        return (low, high)
    }
}
