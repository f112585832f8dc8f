import Testing
@testable import FHIRPath

@Suite struct FHIRPathDateTimeTests {
    static func literal(_ text: String) -> FHIRPathDateTime {
        FHIRPathDateTime(literal: Substring(text.dropFirst()))!
    }

    @Test("literals keep their precision and print as written")
    func literals() {
        #expect(Self.literal("@2014").description == "2014")
        #expect(Self.literal("@2014-01T").kind == .dateTime)
        #expect(Self.literal("@2014-01-25T14:30:14.559+10:00").description == "2014-01-25T14:30:14.559+10:00")
        #expect(Self.literal("@T14:30").description == "14:30")
        #expect(FHIRPathDateTime(literal: "2014-02-30") == nil)
        #expect(FHIRPathDateTime(literal: "2014-13") == nil)
        #expect(FHIRPathDateTime(literal: "T25:00") == nil)
    }

    @Test("comparing values of different precision is unknown, unless an earlier component already differs")
    func precision() {
        #expect(FHIRPathDateTime.compare(Self.literal("@2012-01"), Self.literal("@2012")) == nil)
        #expect(FHIRPathDateTime.compare(Self.literal("@2013-01"), Self.literal("@2012")) == 1)
        #expect(FHIRPathDateTime.compare(Self.literal("@2012-01-01T10:30:31.0"), Self.literal("@2012-01-01T10:30:31")) == 0)
        #expect(FHIRPathDateTime.compare(Self.literal("@2012-01-01T10:30"), Self.literal("@2012-01-01T10:30:00")) == nil)
    }

    @Test("offsets are respected; a value with an offset and one without cannot be compared")
    func timezones() {
        #expect(FHIRPathDateTime.compare(Self.literal("@2017-11-05T01:30:00.0-04:00"), Self.literal("@2017-11-05T00:30:00.0-05:00")) == 0)
        #expect(FHIRPathDateTime.compare(Self.literal("@2017-11-05T01:30:00.0-04:00"), Self.literal("@2017-11-05T01:15:00.0-05:00")) == -1)
        #expect(FHIRPathDateTime.compare(Self.literal("@2012-04-15T15:00:00Z"), Self.literal("@2012-04-15T10:00:00")) == nil)
        #expect(FHIRPathDateTime.compare(Self.literal("@2012-04-15T23:00:00-02:00"), Self.literal("@2012-04-16T01:00:00Z")) == 0)
    }

    @Test("calendar arithmetic clamps to the end of shorter months and moves partial values by their own precision")
    func arithmetic() {
        let addMonth = Self.literal("@2024-01-31").adding(.one, .month)
        #expect(addMonth?.description == "2024-02-29")
        #expect(Self.literal("@2014").adding(FHIRPathDecimal(23), .month)?.description == "2015")
        #expect(Self.literal("@T23:30:00").adding(.one, .hour)?.description == "00:30:00")
        #expect(Self.literal("@2024-03-01T00:00:00Z").adding(-FHIRPathDecimal.one, .second)?.description == "2024-02-29T23:59:59Z")
        #expect(Self.literal("@T10:00").adding(.one, .day) == nil)
        #expect(Self.literal("@9999-12-31").adding(.one, .day) == nil)
    }

    @Test("the suite's decimal-second rule: the fraction of a time-valued quantity is dropped")
    func fractionDropped() {
        #expect(Self.literal("@1973-12-25T00:00:00.000+10:00").adding(decimal("0.1"), .second)?.description == "1973-12-25T00:00:00.000+10:00")
    }

    @Test("boundaries fill the missing components, with the extreme offsets for a date and time without one")
    func boundaries() {
        #expect(Self.literal("@2014").boundary(high: true, digits: 6)?.description == "2014-12")
        #expect(Self.literal("@2014-01-01T08").boundary(high: false, digits: 17)?.description == "2014-01-01T08:00:00.000+14:00")
        #expect(Self.literal("@T10:30").boundary(high: true, digits: 9)?.description == "10:30:59.999")
        #expect(Self.literal("@2014").boundary(high: true, digits: 5) == nil)
    }
}
