import Testing

@testable import SurveyFormats

/// R4's date, time and dateTime formats (their regexes, hl7.org/fhir/R4/datatypes.html), which a value must
/// match to load: the usual whole forms are read byte by byte, the others part by part, with the same verdicts.
@Suite("FHIR value formats")
struct FHIRValueFormatTests {
    @Test("the tables that name item types, operators and value[x] types find what the raw values find")
    func namesByTable() {
        let odd = ["", " ", "Group", "group ", "opentChoice", "open_choice", "==", "=>", "EXISTS", "\u{0}", "choice\u{301}"]
        for name in FHIR.ItemType.allCases.map(\.rawValue) + odd {
            #expect(FHIR.ItemType.named(name) == FHIR.ItemType(rawValue: name), "\(name)")
        }
        for name in FHIR.Operator.allCases.map(\.rawValue) + odd {
            #expect(FHIR.Operator.named(name) == FHIR.Operator(rawValue: name), "\(name)")
        }
        // Every prefix, the table's and others, against the key's suffix read as a raw value.
        for prefix in ["answer", "value", "initial", "", "option", "answerValue"] {
            var keys: [String] = [prefix, prefix + "Foo", "x" + prefix + "Coding", String(prefix.dropLast()) + "Coding", prefix.uppercased() + "Coding"]
            for type in FHIR.ValueType.allCases {
                keys.append(prefix + type.rawValue)
                keys.append(prefix + type.rawValue.lowercased())
                keys.append(prefix + type.rawValue + "s")
            }
            for key in keys {
                let expected = key.hasPrefix(prefix) ? FHIR.ValueType(rawValue: String(key.dropFirst(prefix.count))) : nil
                #expect(FHIRValues.type(ofKey: key, prefix: prefix) == expected, "\(prefix) \(key)")
            }
        }
        #expect(FHIRValues.type(ofKey: "answerCoding", prefix: "answer") == .coding)
        #expect(FHIRValues.type(ofKey: "valueDateTime", prefix: "value") == .dateTime)
        #expect(FHIRValues.type(ofKey: "answerCoding", prefix: "value") == nil)
    }

    @Test("a date is a year, a year and month, or a whole date that exists")
    func dates() {
        for valid in ["2025", "2025-07", "2025-07-15", "2024-02-29", "0001-01-01"] {
            #expect(FHIRValues.isDate(valid), "\(valid)")
        }
        for invalid in ["", "25", "2025-7", "2025-13", "2025-00", "2025-02-29", "2025-07-32", "2025-7-15", "2025--01", "2025-07-15-", "２０２５", "2025-07-15T"] {
            #expect(!FHIRValues.isDate(invalid), "\(invalid)")
        }
    }

    @Test("a time is hh:mm:ss within the day, with a fraction of digits if any")
    func times() {
        for valid in ["00:00:00", "23:59:59", "12:30:00.5", "12:30:00.125"] {
            #expect(FHIRValues.isTime(valid), "\(valid)")
        }
        for invalid in ["24:00:00", "12:60:00", "12:00:60", "12:00:00.", "12:00:00.x", "1:00:00", "12:00", "12-00-00", "ab:cd:ef", "12:00:0０", "12:00:000"] {
            #expect(!FHIRValues.isTime(invalid), "\(invalid)")
        }
    }

    @Test("a dateTime is a date, or a whole date and a time with a zone")
    func dateTimes() {
        for valid in ["2025", "2025-06-15", "2025-06-15T12:00:00Z", "2025-06-15T12:00:00+02:00", "2025-06-15T12:00:00.5-05:30"] {
            #expect(FHIRValues.isDateTime(valid), "\(valid)")
        }
        for invalid in ["2025-06-15T12:00:00", "2025-06-31T12:00:00Z", "2025-06-15T25:00:00Z", "2025-06T12:00:00Z", "2025-06-15T12:00:00+2:00"] {
            #expect(!FHIRValues.isDateTime(invalid), "\(invalid)")
        }
    }
}
