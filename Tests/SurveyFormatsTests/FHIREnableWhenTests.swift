import SurveyCore
import Testing

@testable import SurveyFormats

/// A source item type with the values its operator tests use: `literal` is the condition's answer[x]; `equal`,
/// `greater` and `less` answers compare so with it (`greater`/`less` nil for types without order).
struct SourceType: Sendable, CustomTestStringConvertible {
    let name: String
    let item: String
    let answerKey: String
    let literal: String
    let equal: JSONValue
    let different: JSONValue
    let greater: JSONValue?
    let less: JSONValue?
    /// The engine the rows run under: LHC-Forms, except for a reference item, which LHC-Forms renders as a
    /// text box (`FHIRLHCForms.DataType`).
    var engine: FHIREngine = .lhcForms

    var testDescription: String { name }

    static let all: [SourceType] = [
        SourceType(name: "boolean", item: fhirItem("source", "boolean"), answerKey: "answerBoolean", literal: "true", equal: true, different: false, greater: nil, less: nil),
        SourceType(name: "decimal", item: fhirItem("source", "decimal"), answerKey: "answerDecimal", literal: "2.5", equal: 2.5, different: 3.5, greater: 3.5, less: 1.5),
        SourceType(name: "integer", item: fhirItem("source", "integer"), answerKey: "answerInteger", literal: "5", equal: 5, different: 6, greater: 6, less: 4),
        SourceType(name: "date", item: fhirItem("source", "date"), answerKey: "answerDate", literal: #""2024-05-01""#, equal: "2024-05-01", different: "2024-06-01", greater: "2024-06-01", less: "2024-04-01"),
        SourceType(
            name: "dateTime", item: fhirItem("source", "dateTime"), answerKey: "answerDateTime", literal: #""2024-05-01T10:00:00Z""#, equal: "2024-05-01T10:00:00Z",
            different: "2024-05-01T11:00:00Z", greater: "2024-05-01T11:00:00Z", less: "2024-05-01T09:00:00Z"),
        SourceType(name: "time", item: fhirItem("source", "time"), answerKey: "answerTime", literal: #""10:00:00""#, equal: "10:00:00", different: "11:00:00", greater: "11:00:00", less: "09:00:00"),
        SourceType(name: "string", item: fhirItem("source", "string"), answerKey: "answerString", literal: #""m""#, equal: "m", different: "n", greater: "n", less: "l"),
        SourceType(
            name: "Coding", item: fhirItem("source", "choice", codingOptions(["a", "b"])), answerKey: "answerCoding", literal: #"{"system": "http://example.org/s", "code": "a"}"#,
            equal: coding("a"), different: coding("b"), greater: nil, less: nil),
        SourceType(
            name: "Quantity", item: fhirItem("source", "quantity"), answerKey: "answerQuantity", literal: #"{"value": 70, "unit": "kg"}"#, equal: ["value": 70, "unit": "kg"],
            different: ["value": 80, "unit": "kg"], greater: ["value": 80, "unit": "kg"], less: ["value": 60, "unit": "kg"]),
        SourceType(
            name: "Reference", item: fhirItem("source", "reference"), answerKey: "answerReference", literal: #"{"reference": "Patient/1"}"#,
            equal: ["reference": "Patient/1"], different: ["reference": "Patient/2"], greater: nil, less: nil, engine: .androidFHIR),
    ]
}

/// How the source of a condition is left before the condition is read.
enum SourceState: CustomStringConvertible {
    case answered(JSONValue)
    case unanswered
    /// Answered, then disabled by its own enableWhen: it counts as unanswered (§A1).
    case disabled(JSONValue)

    var description: String {
        switch self {
        case .answered(let value): "answered \(value)"
        case .unanswered: "unanswered"
        case .disabled(let value): "answered \(value) then disabled"
        }
    }
}

/// Whether `target`, enabled by `source OP literal`, is enabled with the source in `state`. The source is
/// enabled while `gate` is unanswered (`gate exists false`); answering the gate disables it.
func targetEnabled(_ type: SourceType, _ op: String, literal: String? = nil, _ state: SourceState, options: [String: String] = [:]) throws -> Bool {
    let sourceItem = type.item.replacingOccurrences(
        of: #""type":"#, with: #""enableWhen": [\#(condition("gate", "exists", #""answerBoolean": false"#))], "type":"#)
    let answer = op == "exists" ? "\"answerBoolean\": \(literal ?? "true")" : "\"\(type.answerKey)\": \(literal ?? type.literal)"
    let session = try fhirSession(
        [fhirItem("gate", "boolean"), sourceItem, fhirItem("target", "string", enableWhen: [condition("source", op, answer)])],
        options: options.merging([FHIRSurvey.engineOption: type.engine.rawValue]) { given, _ in given })
    switch state {
    case .answered(let value):
        session.play(.answer("source", value))
    case .unanswered:
        break
    case .disabled(let value):
        session.play(.answer("source", value), .answer("gate", true))
        #expect(!session.isVisible("source"))
    }
    return session.isVisible("target")
}

@Suite("FHIR enableWhen: each operator against each answer type")
struct FHIREnableWhenTests {
    @Test("exists true holds when the source has an answer, not when it is unanswered or disabled", arguments: SourceType.all)
    func existsTrue(type: SourceType) throws {
        #expect(try targetEnabled(type, "exists", .answered(type.equal)))
        #expect(try !targetEnabled(type, "exists", .unanswered))
        #expect(try !targetEnabled(type, "exists", .disabled(type.equal)))
    }

    @Test("exists false holds when the source is unanswered or disabled, not when it has an answer", arguments: SourceType.all)
    func existsFalse(type: SourceType) throws {
        #expect(try !targetEnabled(type, "exists", literal: "false", .answered(type.equal)))
        #expect(try targetEnabled(type, "exists", literal: "false", .unanswered))
        #expect(try targetEnabled(type, "exists", literal: "false", .disabled(type.equal)))
    }

    @Test("= holds when the answer equals the value; false when it differs, is unanswered or disabled", arguments: SourceType.all)
    func equals(type: SourceType) throws {
        #expect(try targetEnabled(type, "=", .answered(type.equal)))
        #expect(try !targetEnabled(type, "=", .answered(type.different)))
        #expect(try !targetEnabled(type, "=", .unanswered))
        #expect(try !targetEnabled(type, "=", .disabled(type.equal)))
    }

    @Test("!= holds when no answer equals the value, so also when unanswered or disabled (R5, LHC-Forms)", arguments: SourceType.all)
    func notEquals(type: SourceType) throws {
        let r5 = [FHIRSurvey.notEqualsOption: "no-answer-equals"]
        #expect(try !targetEnabled(type, "!=", .answered(type.equal), options: r5))
        #expect(try targetEnabled(type, "!=", .answered(type.different), options: r5))
        #expect(try targetEnabled(type, "!=", .unanswered, options: r5))
        #expect(try targetEnabled(type, "!=", .disabled(type.different), options: r5))
    }

    @Test("!= under the android-fhir option is false when unanswered or disabled", arguments: SourceType.all)
    func notEqualsAndroid(type: SourceType) throws {
        let android = [FHIRSurvey.notEqualsOption: "any-answer-differs"]
        #expect(try !targetEnabled(type, "!=", .answered(type.equal), options: android))
        #expect(try targetEnabled(type, "!=", .answered(type.different), options: android))
        #expect(try !targetEnabled(type, "!=", .unanswered, options: android))
        #expect(try !targetEnabled(type, "!=", .disabled(type.different), options: android))
    }

    @Test("> < >= <= compare ordered types; never true when unanswered or disabled", arguments: SourceType.all.filter { $0.greater != nil })
    func orderings(type: SourceType) throws {
        let greater = try #require(type.greater)
        let less = try #require(type.less)
        #expect(try targetEnabled(type, ">", .answered(greater)))
        #expect(try !targetEnabled(type, ">", .answered(type.equal)))
        #expect(try targetEnabled(type, "<", .answered(less)))
        #expect(try !targetEnabled(type, "<", .answered(type.equal)))
        #expect(try targetEnabled(type, ">=", .answered(type.equal)))
        #expect(try !targetEnabled(type, ">=", .answered(less)))
        #expect(try targetEnabled(type, "<=", .answered(type.equal)))
        #expect(try !targetEnabled(type, "<=", .answered(greater)))
        for op in [">", "<", ">=", "<="] {
            #expect(try !targetEnabled(type, op, .unanswered), "\(op) unanswered")
            #expect(try !targetEnabled(type, op, .disabled(type.equal)), "\(op) disabled")
        }
    }

    @Test(
        "orderings on unordered types: never true on booleans in LHC-Forms (its BL case has no range, lhc-form-data.ts:3957-3972); on a choice item LHC-Forms throws once it is answered (no trigger value for _codingsEqual, :3886-3906); android-fhir's compareTo throws on booleans, Codings and References (MoreTypes.kt:81-83)")
    func orderingsOnUnorderedTypes() throws {
        let boolean = try #require(SourceType.all.first { $0.name == "boolean" })
        let coding = try #require(SourceType.all.first { $0.name == "Coding" })
        let reference = try #require(SourceType.all.first { $0.name == "Reference" })
        for op in [">", "<", ">=", "<="] {
            #expect(try !targetEnabled(boolean, op, .answered(boolean.equal)), "\(op)")
            #expect(try !targetEnabled(boolean, op, .unanswered), "\(op)")
            #expect(try !targetEnabled(coding, op, .unanswered), "\(op)")
            for type in [boolean, coding, reference] {
                var android = type
                android.engine = .androidFHIR
                #expect(try !targetEnabled(android, op, .unanswered), "\(op) \(type.name) unanswered: android-fhir compares no answer")
            }
        }
        for (type, engine, error) in [(coding, FHIREngine.lhcForms, "TypeError"), (boolean, .androidFHIR, "NotImplementedError"), (coding, .androidFHIR, "NotImplementedError"), (reference, .androidFHIR, "NotImplementedError")] {
            let session = try fhirSession(
                type.item, fhirItem("target", "string", enableWhen: [condition("source", ">", "\"\(type.answerKey)\": \(type.literal)")]),
                options: [FHIRSurvey.engineOption: engine.rawValue])
            let outcome = session.perform(.answer("source", type.equal)).outcome
            #expect(outcome.kind == .rejected && outcome.message?.contains(error) == true, "\(type.name) under \(engine.name)")
            #expect(session.answer(for: "source") == nil, "the refused answer leaves the session as it was")
        }
    }

    @Test("with several answers, = and the orderings hold when any answer matches, != when none equals")
    func repeatingSource() throws {
        func enabled(_ op: String, _ answer: String, _ answers: JSONValue, options: [String: String] = [:]) throws -> Bool {
            let session = try fhirSession(
                [fhirItem("source", "integer", #""repeats": true"#), fhirItem("target", "string", enableWhen: [condition("source", op, answer)])], options: options)
            session.play(.answer("source", answers))
            return session.isVisible("target")
        }
        #expect(try enabled("=", #""answerInteger": 2"#, [1, 2]))
        #expect(try enabled(">", #""answerInteger": 1"#, [0, 2]))
        #expect(try !enabled(">", #""answerInteger": 2"#, [0, 2]))
        #expect(try !enabled("!=", #""answerInteger": 2"#, [1, 2]))
        #expect(try enabled("!=", #""answerInteger": 3"#, [1, 2]))
        // android-fhir: any answer differs (EnablementEvaluator.kt:203, 264-266), its engine's default.
        #expect(try enabled("!=", #""answerInteger": 2"#, [1, 2], options: [FHIRSurvey.notEqualsOption: "any-answer-differs"]))
        #expect(try enabled("!=", #""answerInteger": 2"#, [1, 2], options: [FHIRSurvey.engineOption: "android-fhir"]))
        #expect(try !enabled("!=", #""answerInteger": 2"#, [2, 2], options: [FHIRSurvey.engineOption: "android-fhir"]))
    }

    /// Whether `target`, enabled by `source = condition`, shows once `picked` (one of `options`) is chosen.
    private func codingEnables(_ expected: String, options: [String], picked: JSONValue, engine: FHIREngine = .lhcForms) throws -> Bool {
        let optionList = options.map { #"{"valueCoding": \#($0)}"# }.joined(separator: ", ")
        let session = try fhirSession(
            fhirItem("source", "choice", #""answerOption": [\#(optionList)]"#), fhirItem("target", "string", enableWhen: [condition("source", "=", #""answerCoding": \#(expected)"#)]),
            options: [FHIRSurvey.engineOption: engine.rawValue])
        session.play(.answer("source", picked))
        return session.isVisible("target")
    }

    @Test(
        "a Coding without a system matches only a Coding without a system, in both engines: system and code are compared, display, version and userSelected ignored while a code is there (LHC-Forms _codingsEqual and its skip-logic spec; android-fhir MoreTypes equals)",
        arguments: FHIREngine.allCases)
    func codingSystemAndCode(engine: FHIREngine) throws {
        let withSystem = [#"{"system": "http://loinc.org", "code": "Y", "display": "Yes"}"#, #"{"system": "http://loinc.org", "code": "N", "display": "No"}"#]
        let loincY: JSONValue = ["system": "http://loinc.org", "code": "Y"]
        // LHNCBC/lforms@24c71875 test/playwright/integration/lforms_skiplogic.spec.ts:86: a trigger without a system
        // does not match answers that have one (src/lib/lforms/lhc-form-data.ts:3850).
        #expect(try !codingEnables(#"{"code": "Y"}"#, options: withSystem, picked: loincY, engine: engine))
        #expect(try codingEnables(#"{"system": "http://loinc.org", "code": "Y", "display": "Other words", "version": "2.7", "userSelected": true}"#, options: withSystem, picked: loincY, engine: engine))
        #expect(try !codingEnables(#"{"system": "http://snomed.info/sct", "code": "Y"}"#, options: withSystem, picked: loincY, engine: engine))
        #expect(try !codingEnables(#"{"system": "http://loinc.org", "code": "N"}"#, options: withSystem, picked: loincY, engine: engine))
        // lforms_skiplogic.spec.ts:128: a trigger with a system does not match answers without one.
        let withoutSystem = [#"{"code": "Y", "display": "Yes"}"#, #"{"code": "N", "display": "No"}"#]
        #expect(try !codingEnables(#"{"system": "http://loinc.org", "code": "Y"}"#, options: withoutSystem, picked: ["code": "Y"], engine: engine))
        #expect(try codingEnables(#"{"code": "Y"}"#, options: withoutSystem, picked: ["code": "Y"], engine: engine))
        #expect(try codingEnables(#"{"system": "", "code": "Y"}"#, options: withoutSystem, picked: ["code": "Y"], engine: engine))
    }

    @Test("Codings without a code: LHC-Forms compares their displays (both present), android-fhir finds any two equal (null codes are equal)")
    func codingWithoutCode() throws {
        let options = [#"{"display": "Yes"}"#, #"{"display": "No"}"#]
        // LHNCBC/lforms@24c71875 src/lib/lforms/lhc-form-data.ts:3851-3856 (text equality without codes);
        // google/android-fhir@28a50345 common/src/main/java/com/google/android/fhir/MoreTypes.kt:43.
        #expect(try codingEnables(#"{"display": "Yes"}"#, options: options, picked: ["display": "Yes"], engine: .lhcForms))
        #expect(try !codingEnables(#"{"display": "Yes"}"#, options: options, picked: ["display": "No"], engine: .lhcForms))
        #expect(try codingEnables(#"{"display": "Yes"}"#, options: options, picked: ["display": "Yes"], engine: .androidFHIR))
        #expect(try codingEnables(#"{"display": "Yes"}"#, options: options, picked: ["display": "No"], engine: .androidFHIR))
    }

    @Test("an integer answer compares with answerDecimal by value, as LHC-Forms does")
    func integerAgainstDecimal() throws {
        let session = try fhirSession(fhirItem("source", "integer"), fhirItem("target", "string", enableWhen: [condition("source", ">", #""answerDecimal": 2.5"#)]))
        session.play(.answer("source", 3))
        #expect(session.isVisible("target"))
        session.play(.answer("source", 2))
        #expect(!session.isVisible("target"))
    }

    @Test(
        "a value of another type: LHC-Forms compares JavaScript values, so answerString \"5\" never equals 5 (===) but != is loose (\"5\" != 5 is false) and the orderings coerce (lhc-form-data.ts:3931-3956); android-fhir's equals tests the class first, so = is false and != true (MoreTypes.kt:35), and its compareTo throws (MoreTypes.kt:50-54)")
    func typeMismatch() throws {
        let items = comparedItems("source", "integer", answer: #""answerString": "5""#)
        let lhc = try fhirSession(items)
        lhc.play(.answer("source", 5))
        #expect(lhc.visibleQuestions == ["source"])
        lhc.play(.answer("source", 6))
        #expect(lhc.visibleQuestions == ["source", "ne", "gt"])
        let android = try fhirSession(Array(items.prefix(3)), options: [FHIRSurvey.engineOption: "android-fhir"])
        android.play(.answer("source", 5))
        #expect(android.visibleQuestions == ["source", "ne"])
        let ordering = try fhirSession(items[0], items[3], options: [FHIRSurvey.engineOption: "android-fhir"])
        #expect(ordering.perform(.answer("source", 6)).outcome.message?.contains("IllegalArgumentException") == true)
    }

    @Test(
        "Quantities: LHC-Forms compares the trigger's value with the answer's, whatever the units (sdc-import.js:91-92, lhc-form-data.ts:3931-3956); android-fhir's reading keeps the reference's rule that units must agree, and its = throws on a Quantity (MoreTypes.kt:46)")
    func quantityUnits() throws {
        let items = [fhirItem("source", "quantity"), fhirItem("target", "string", enableWhen: [condition("source", ">", #""answerQuantity": {"value": 70, "unit": "kg"}"#)])]
        let lhc = try fhirSession(items)
        lhc.play(.answer("source", ["value": 200, "unit": "lb"]))
        #expect(lhc.isVisible("target"))
        lhc.play(.answer("source", ["value": 60, "unit": "kg"]))
        #expect(!lhc.isVisible("target"))
        let android = try fhirSession(items, options: [FHIRSurvey.engineOption: "android-fhir"])
        android.play(.answer("source", ["value": 200, "unit": "lb"]))
        #expect(!android.isVisible("target"))
        android.play(.answer("source", ["value": 80, "unit": "kg"]))
        #expect(android.isVisible("target"))
        let equality = try fhirSession(
            fhirItem("source", "quantity"), fhirItem("target", "string", enableWhen: [condition("source", "=", #""answerQuantity": {"value": 70, "unit": "kg"}"#)]),
            options: [FHIRSurvey.engineOption: "android-fhir"])
        #expect(equality.perform(.answer("source", ["value": 70, "unit": "kg"])).outcome.message?.contains("NotImplementedError") == true)
    }
}
