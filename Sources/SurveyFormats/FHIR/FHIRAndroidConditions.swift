import SurveyCore

/// android-fhir's enableWhen (google/android-fhir@28a50345): `EnablementEvaluator.evaluateEnableWhen` tests
/// `exists` against whether the response item has answers, and every other operator by a predicate over its
/// answers, true when one answer satisfies it (datacapture/.../enablement/EnablementEvaluator.kt:178-207,
/// 257-281). The predicate compares with `equals` and `compareTo` of common/.../MoreTypes.kt:34-85, which
/// throw on what they cannot compare: that is the engine failing, and the session refuses the action.
///
/// Where those two compare values as SurveyReplay's reference rules do not, docs/fhir.md says which is
/// simulated: the failures and `equals`' class test are; instants and UCUM units in `compareTo` are not
/// (dates and Quantities order by the reference's rules, `FHIRValues.compare`).
enum FHIRAndroid {
    /// A Kotlin exception android-fhir throws.
    struct Failure: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Whether the condition holds over the answers android-fhir's response item has (cleared ones are gone),
    /// or what evaluating it throws. `!=` is "some answer differs" unless the `not-equals` option says "no
    /// answer equals".
    static func evaluate(_ condition: FHIR.EnableWhen, answers: [FHIR.Value], notEquals: FHIRStandardRules.NotEquals) -> Result<Bool, Failure> {
        if let failure = condition.androidFailure { return .failure(Failure(failure)) }
        let expected = condition.answer
        switch condition.op {
        case .exists:
            return .success(!answers.isEmpty == (expected.json.boolValue ?? true))
        case .equals:
            return anyAnswer(answers) { try equals($0, expected) }
        case .notEquals:
            if notEquals == .noAnswerEquals { return anyAnswer(answers) { try equals($0, expected) }.map { !$0 } }
            return anyAnswer(answers) { try !equals($0, expected) }
        case .greater: return anyAnswer(answers) { try compare($0, expected).map { $0 > 0 } ?? false }
        case .less: return anyAnswer(answers) { try compare($0, expected).map { $0 < 0 } ?? false }
        case .greaterOrEqual: return anyAnswer(answers) { try compare($0, expected).map { $0 >= 0 } ?? false }
        case .lessOrEqual: return anyAnswer(answers) { try compare($0, expected).map { $0 <= 0 } ?? false }
        }
    }

    /// `answer.any { predicate }`: stops at the first answer that satisfies it, so a later one is never
    /// compared.
    private static func anyAnswer(_ answers: [FHIR.Value], _ predicate: (FHIR.Value) throws -> Bool) -> Result<Bool, Failure> {
        do {
            for answer in answers where try predicate(answer) { return .success(true) }
            return .success(false)
        } catch {
            return .failure(error as? Failure ?? Failure("\(error)"))
        }
    }

    /// `equals(a, b)` (MoreTypes.kt:34-47): values of different classes are unequal (an integer answer and
    /// answerDecimal too); primitives compare their values; Codings their system and code (display ignored, an
    /// absent system equal only to an absent one); References their reference; anything else (a Quantity)
    /// throws NotImplementedError.
    static func equals(_ answer: FHIR.Value, _ expected: FHIR.Value) throws(Failure) -> Bool {
        guard answer.type == expected.type else { return false }
        switch expected.type {
        case .coding:
            return FHIRValues.codingsEqual(expected.json.objectValue ?? [:], answer.json.objectValue ?? [:], engine: .androidFHIR)
        case .reference:
            return answer.json.objectValue?["reference"] == expected.json.objectValue?["reference"]
        case .quantity, .attachment:
            throw Failure("NotImplementedError: \"Comparison for type \(expected.type.rawValue) not supported.\" (MoreTypes.kt:46)")
        case .decimal, .integer:
            return answer.json.numberValue == expected.json.numberValue
        default:
            return answer.json == expected.json
        }
    }

    /// `compareTo` (MoreTypes.kt:49-85): values of different FHIR types throw IllegalArgumentException (an
    /// integer answer against answerDecimal too); integers, decimals, dates, dateTimes and Quantities have an
    /// order (here the reference's: nil for Quantities whose units differ); any other type throws
    /// NotImplementedError.
    static func compare(_ answer: FHIR.Value, _ expected: FHIR.Value) throws(Failure) -> Int? {
        guard answer.type == expected.type else {
            throw Failure("IllegalArgumentException: \"Cannot compare different data types: \(fhirType(answer.type)) and \(fhirType(expected.type))\" (MoreTypes.kt:50-54)")
        }
        switch expected.type {
        case .integer, .decimal, .date, .dateTime, .quantity:
            return FHIRValues.compare(answer, expected)
        default:
            throw Failure("NotImplementedError: compareTo has no order for \(fhirType(expected.type)) (MoreTypes.kt:81-83)")
        }
    }

    /// The FHIR type name `fhirType()` gives a value of the type.
    private static func fhirType(_ type: FHIR.ValueType) -> String {
        switch type {
        case .coding, .quantity, .reference, .attachment: type.rawValue
        default: type.rawValue.prefix(1).lowercased() + type.rawValue.dropFirst()
        }
    }
}
