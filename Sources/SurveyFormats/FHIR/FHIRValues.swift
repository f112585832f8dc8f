import SurveyCore

/// Reading, checking and comparing FHIR primitive and complex values (R4 datatypes; §A1 value comparison).
enum FHIRValues {
    /// The `prefix<Type>` members of an object (`answerCoding`, `valueInteger`…) with their types.
    static func members(_ object: JSONObjectCursor, prefix: String) -> [(type: FHIR.ValueType, cursor: JSONCursor, key: String)] {
        object.members(withKeyPrefix: prefix).compactMap { member in
            type(ofKey: member.key, prefix: prefix).map { ($0, member.cursor, member.key) }
        }
    }

    /// The type a `prefix<Type>` key names (`answerCoding`: Coding), or nil. Past a prefix the key has, its
    /// characters start where the prefix's bytes end. Under the prefixes items and conditions are read with,
    /// the whole key is looked up in a table (decoding asks at every condition, option and initial value).
    static func type(ofKey key: String, prefix: String) -> FHIR.ValueType? {
        switch prefix {
        case "answer": answerTypes[key]
        case "value": valueTypes[key]
        case "initial": initialTypes[key]
        default: key.hasPrefix(prefix) ? FHIR.ValueType(rawValue: String(decoding: key.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)) : nil
        }
    }

    /// Every `answer<Type>`, `value<Type>` and `initial<Type>` key with its type.
    private static let answerTypes = types(prefix: "answer")
    private static let valueTypes = types(prefix: "value")
    private static let initialTypes = types(prefix: "initial")

    private static func types(prefix: String) -> [String: FHIR.ValueType] {
        Dictionary(uniqueKeysWithValues: FHIR.ValueType.allCases.map { (prefix + $0.rawValue, $0) })
    }

    /// The members of a Coding that are strings when present.
    private static let codingStrings = ["system", "code", "display", "version"]

    /// Why a JSON value is not a valid value of the type, or nil.
    static func problem(_ json: JSONValue, as type: FHIR.ValueType) -> String? {
        switch type {
        case .boolean:
            return json.boolValue == nil ? "expected true or false" : nil
        case .decimal:
            return json.numberValue == nil ? "expected a number" : nil
        case .integer:
            guard let number = json.numberValue, number == number.rounded(), abs(number) < 2_147_483_648 else { return "expected an integer" }
            return nil
        case .date:
            guard let text = json.stringValue, isDate(text) else { return "expected a date: YYYY, YYYY-MM or YYYY-MM-DD" }
            return nil
        case .dateTime:
            guard let text = json.stringValue, isDateTime(text) else { return "expected a dateTime: a date, or YYYY-MM-DDThh:mm:ss with a zone (Z or +hh:mm)" }
            return nil
        case .time:
            guard let text = json.stringValue, isTime(text) else { return "expected a time: hh:mm:ss" }
            return nil
        case .string, .uri:
            guard let text = json.stringValue, !text.isEmpty else { return "expected a non-empty string" }
            return nil
        case .coding:
            guard let object = json.objectValue else { return "expected a Coding object: {\"system\": …, \"code\": …}" }
            if object["code"] == nil, object["display"] == nil { return "expected a Coding with a \"code\"" }
            // The common case, every member a string, without a lookup; else the first key of the list that is not.
            guard object.contains(where: { $0.value.stringValue == nil }) else { return nil }
            for key in codingStrings where object[key] != nil && object[key]?.stringValue == nil {
                return "expected the Coding's \"\(key)\" to be a string"
            }
            return nil
        case .quantity:
            guard let object = json.objectValue else { return "expected a Quantity object: {\"value\": 70, \"unit\": \"kg\"}" }
            guard object["value"]?.numberValue != nil else { return "expected a Quantity with a numeric \"value\"" }
            return nil
        case .reference:
            guard let object = json.objectValue else { return "expected a Reference object: {\"reference\": \"Patient/1\"}" }
            guard object["reference"]?.stringValue != nil || object["display"]?.stringValue != nil else {
                return "expected a Reference with a \"reference\" string"
            }
            return nil
        case .attachment:
            return json.objectValue == nil ? "expected an Attachment object: {\"contentType\": …, \"url\": …}" : nil
        }
    }

    // MARK: formats (R4 regexes for date, dateTime and time)

    static func isDate(_ text: String) -> Bool {
        // A whole date is one CalendarDate reads (the usual case, read without splitting); a year, or a year
        // and a month, is read by its parts.
        if CalendarDate(iso: text) != nil { return true }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 4, parts[0].allSatisfy(\.isASCIIDigit) else { return false }
        if parts.count == 1 { return true }
        guard parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month) else { return false }
        return true
    }

    static func isTime(_ text: String) -> Bool {
        // The usual hh:mm:ss, read byte by byte.
        let utf8 = text.utf8
        if utf8.count == 8, byte(utf8, 2) == UInt8(ascii: ":"), byte(utf8, 5) == UInt8(ascii: ":"),
            let hour = twoDigits(utf8, 0), let minute = twoDigits(utf8, 3), let second = twoDigits(utf8, 6)
        {
            return hour < 24 && minute < 60 && second < 60
        }
        let (main, fraction) = splitFraction(text)
        if let fraction, fraction.isEmpty || !fraction.allSatisfy(\.isASCIIDigit) { return false }
        let parts = main.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2])
        else { return false }
        return hour < 24 && minute < 60 && second < 60
    }

    static func isDateTime(_ text: String) -> Bool {
        guard let t = text.firstIndex(of: "T") else { return isDate(text) }
        let date = String(text[..<t])
        guard date.count == 10, CalendarDate(iso: date) != nil else { return false }
        var time = String(text[text.index(after: t)...])
        if time.hasSuffix("Z") {
            time.removeLast()
        } else if time.count > 6 {
            let zone = time.suffix(6)
            let sign = zone.first
            let rest = zone.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard sign == "+" || sign == "-", rest.count == 2, rest.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }) else { return false }
            time.removeLast(6)
        } else {
            return false
        }
        return isTime(time)
    }

    private static func byte(_ utf8: String.UTF8View, _ offset: Int) -> UInt8 {
        utf8[utf8.index(utf8.startIndex, offsetBy: offset)]
    }

    /// The number two ASCII digits at `offset` write, or nil.
    private static func twoDigits(_ utf8: String.UTF8View, _ offset: Int) -> Int? {
        let (tens, ones) = (byte(utf8, offset), byte(utf8, offset + 1))
        guard (0x30...0x39).contains(tens), (0x30...0x39).contains(ones) else { return nil }
        return Int(tens - 0x30) * 10 + Int(ones - 0x30)
    }

    private static func splitFraction(_ text: String) -> (String, Substring?) {
        guard let dot = text.firstIndex(of: ".") else { return (text, nil) }
        return (String(text[..<dot]), text[text.index(after: dot)...])
    }

    // MARK: comparison

    /// Whether an answer equals a condition's value; nil when the two cannot be compared (a type mismatch,
    /// reported by lint). Integers and decimals compare as numbers, as LHC-Forms does. Codings compare as the
    /// engine compares them (`codingsEqual`).
    static func equal(_ answer: FHIR.Value, _ expected: FHIR.Value, engine: FHIREngine = .lhcForms) -> Bool? {
        if answer.type.isNumber, expected.type.isNumber, let a = answer.json.numberValue, let b = expected.json.numberValue {
            return a == b
        }
        guard answer.type == expected.type else { return nil }
        switch expected.type {
        case .coding:
            return codingsEqual(expected.json.objectValue ?? [:], answer.json.objectValue ?? [:], engine: engine)
        case .quantity:
            guard unitsAgree(answer.json, expected.json) else { return false }
            return answer.json.objectValue?["value"] == expected.json.objectValue?["value"]
        case .reference:
            return answer.json.objectValue?["reference"] == expected.json.objectValue?["reference"]
        case .attachment:
            return nil
        default:
            return answer.json == expected.json
        }
    }

    /// Coding equality. Both engines need the same system, a Coding without a system matching only another
    /// without one; an empty string counts as absent (LHC-Forms tests JavaScript falsiness, HAPI leaves a
    /// blank value unset). Then LHC-Forms compares the codes when either has one, and without codes the
    /// displays, both non-empty (`_codingsEqual`, LHNCBC/lforms@24c71875 src/lib/lforms/lhc-form-data.ts:3847-3861);
    /// android-fhir compares the codes only, so two Codings without a code are equal whatever their displays
    /// (`equals`, google/android-fhir@28a50345 common/src/main/java/com/google/android/fhir/MoreTypes.kt:34-47).
    /// Neither reads `version` or `userSelected`.
    static func codingsEqual(_ a: [String: JSONValue], _ b: [String: JSONValue], engine: FHIREngine) -> Bool {
        codingsEqual(CodingText(a), CodingText(b), engine: engine)
    }

    /// The same, over what the comparison reads of each Coding.
    static func codingsEqual(_ a: CodingText, _ b: CodingText, engine: FHIREngine) -> Bool {
        guard a.system == b.system else { return false }
        switch engine {
        case .androidFHIR:
            return a.code == b.code
        case .lhcForms:
            if a.code != nil || b.code != nil { return a.code == b.code }
            guard let display = a.display else { return false }
            return display == b.display
        }
    }

    /// What Coding equality reads of a Coding: its system, code and display, each only when a non-empty string.
    struct CodingText: Equatable {
        var system: String?
        var code: String?
        var display: String?

        init(system: JSONValue?, code: JSONValue?, display: JSONValue?) {
            func text(_ value: JSONValue?) -> String? {
                guard let text = value?.stringValue, !text.isEmpty else { return nil }
                return text
            }
            (self.system, self.code, self.display) = (text(system), text(code), text(display))
        }

        init(_ coding: [String: JSONValue]) {
            self.init(system: coding["system"], code: coding["code"], display: coding["display"])
        }
    }

    /// The order of an answer against a condition's value (negative, zero, positive); nil for types without
    /// an order or of different types. Dates, times and strings compare as text, the reference's
    /// recommendation (§A1): right for values of one precision. android-fhir orders dates as instants
    /// (docs/fhir.md, "Known, not simulated").
    static func compare(_ answer: FHIR.Value, _ expected: FHIR.Value) -> Int? {
        if answer.type.isNumber, expected.type.isNumber, let a = answer.json.numberValue, let b = expected.json.numberValue {
            return a < b ? -1 : (a > b ? 1 : 0)
        }
        guard answer.type == expected.type, expected.type.isOrdered else { return nil }
        switch expected.type {
        case .quantity:
            guard unitsAgree(answer.json, expected.json), let a = answer.json.objectValue?["value"]?.numberValue,
                let b = expected.json.objectValue?["value"]?.numberValue
            else { return nil }
            return a < b ? -1 : (a > b ? 1 : 0)
        default:
            guard let a = answer.json.stringValue, let b = expected.json.stringValue else { return nil }
            return a < b ? -1 : (a > b ? 1 : 0)
        }
    }

    /// Quantities compare only when their units agree: the same code (and system), or the same unit text.
    private static func unitsAgree(_ a: JSONValue, _ b: JSONValue) -> Bool {
        let left = a.objectValue ?? [:]
        let right = b.objectValue ?? [:]
        if let code = right["code"], let other = left["code"] { return code == other && (right["system"] == nil || left["system"] == nil || right["system"] == left["system"]) }
        if let unit = right["unit"], let other = left["unit"] { return unit == other }
        return true
    }

    /// A short text of a value for messages and prompts: a Coding's code (and display), a Quantity's value
    /// and unit, a primitive as JSON.
    static func label(_ value: FHIR.Value) -> String {
        switch value.type {
        case .coding:
            let object = value.json.objectValue ?? [:]
            let code = object["code"]?.stringValue ?? ""
            if let display = object["display"]?.stringValue { return code.isEmpty ? display : "\(code) (\(display))" }
            return code
        case .quantity:
            let object = value.json.objectValue ?? [:]
            let number = object["value"].map(CanonicalJSON.compact) ?? "?"
            return ([number] + [object["unit"]?.stringValue ?? object["code"]?.stringValue].compactMap { $0 }).joined(separator: " ")
        default:
            return CanonicalJSON.compact(value.json)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
