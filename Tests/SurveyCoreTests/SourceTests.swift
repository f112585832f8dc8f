import Testing
@testable import SurveyCore

@Suite struct SourceFileTests {
    @Test func givesLinesAndColumnsFromOffsets() {
        let file = SourceFile(path: "f", text: "ab\ncd\n\nef")
        #expect(file.position(of: 0) == SourcePosition(line: 1, column: 1))
        #expect(file.position(of: 4) == SourcePosition(line: 2, column: 2))
        #expect(file.position(of: 7) == SourcePosition(line: 4, column: 1))
        #expect(file.line(2) == "cd")
    }

    @Test func countsCharactersNotBytesOnNonASCIILines() {
        let file = SourceFile(path: "f", text: "\"é\": x")
        // é is two bytes; the colon is the 4th character.
        #expect(file.position(of: 4) == SourcePosition(line: 1, column: 4))
    }

    @Test func aStrayContinuationByteAtTheStartOfALineIsColumnOne() {
        // Found by fuzz-parsers (scenario, seed 1, run 48): the column was 0.
        let file = SourceFile(path: "f", bytes: [0x94, 0x20, 0x41, 0x0A, 0x80, 0x80])
        #expect(file.position(of: 0) == SourcePosition(line: 1, column: 1))
        // Continuation bytes belong to the character before them, so the stray one adds no column.
        #expect(file.position(of: 2) == SourcePosition(line: 1, column: 2))
        #expect(file.position(of: 4) == SourcePosition(line: 2, column: 1))
        #expect(file.position(of: 5) == SourcePosition(line: 2, column: 1))
    }
}

@Suite struct JSONPointerTests {
    @Test func rendersAndEscapesSteps() {
        let pointer = JSONPointer.root.appending("questions").appending(3).appending("a/b~c")
        #expect(pointer.description == "/questions/3/a~1b~0c")
        #expect(JSONPointer.root.description == "")
    }

    @Test func comparesByPath() {
        #expect(JSONPointer.root.appending("x") == JSONPointer.root.appending("x"))
        #expect(JSONPointer.root.appending("x") != JSONPointer.root.appending(0))
    }
}

@Suite struct CalendarDateTests {
    @Test func parsesOnlyRealISODates() {
        #expect(CalendarDate(iso: "2024-02-29") == CalendarDate(year: 2024, month: 2, day: 29))
        #expect(CalendarDate(iso: "2023-02-29") == nil)
        #expect(CalendarDate(iso: "2024-2-29") == nil)
        #expect(CalendarDate(iso: "２０２４-02-01") == nil)
    }

    @Test func clampsTheDayWhenAddingMonthsAndYears() {
        let leapDay = CalendarDate(year: 2024, month: 2, day: 29)
        #expect(leapDay.adding(years: 1) == CalendarDate(year: 2025, month: 2, day: 28))
        #expect(CalendarDate(year: 2026, month: 1, day: 31).adding(months: 1) == CalendarDate(year: 2026, month: 2, day: 28))
        #expect(CalendarDate(year: 2026, month: 1, day: 15).adding(months: -13) == CalendarDate(year: 2024, month: 12, day: 15))
    }

    @Test func addsDaysAcrossMonthsAndYears() {
        #expect(CalendarDate(year: 2026, month: 12, day: 31).adding(days: 1) == CalendarDate(year: 2027, month: 1, day: 1))
        #expect(CalendarDate(year: 2024, month: 3, day: 1).adding(days: -1) == CalendarDate(year: 2024, month: 2, day: 29))
        #expect(CalendarDate(year: 1970, month: 1, day: 1).dayNumber == 0)
    }
}

@Suite struct SpellingTests {
    @Test func suggestsTheNearestCloseCandidate() {
        #expect(Spelling.nearest(to: "like_musik", in: ["like_music", "music_types"]) == "like_music")
        #expect(Spelling.nearest(to: "zzz", in: ["like_music"]) == nil)
    }

    @Test func measuresEditDistance() {
        #expect(Spelling.editDistance("kitten", "sitting") == 3)
        #expect(Spelling.editDistance("", "abc") == 3)
        #expect(Spelling.editDistance("abc", "abc") == 0)
    }
}

@Suite struct ConditionTests {
    private let here = SourceLocation(position: SourcePosition(line: 1, column: 1), pointer: .root)

    @Test func listsDependenciesOnceInFirstUseOrder() {
        let leaf = { (id: String) in Condition(.leaf(ConditionLeaf(question: id, key: nil, operation: "equals", operand: "x")), location: self.here) }
        let tree = Condition(
            .all([leaf("b"), Condition(.any([leaf("a"), leaf("b")]), location: here), Condition(.host(HostCondition(key: "k", inputs: ["c", "a"], extra: nil)), location: here)]),
            location: here)
        #expect(tree.dependencies == ["b", "a", "c"])
        #expect(tree.atoms.count == 4)
    }
}
