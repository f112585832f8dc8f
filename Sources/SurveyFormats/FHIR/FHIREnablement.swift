import SurveyCore

/// How an engine decides one enableWhen condition from its source's answers: the standard rules are R4/R5 as
/// LHC-Forms and android-fhir implement them; the c3pro profile's are `FHIRC3PRORules`.
protocol FHIREnablementRules: Sendable {
    /// Whether the condition holds, given the answers of its source (empty when it is unanswered, disabled
    /// or missing: a disabled source counts as unanswered, §A1).
    func holds(_ condition: FHIR.EnableWhen, answers: [FHIR.Value]) -> Bool
    /// How several conditions combine when `enableBehavior` says so.
    func combine(_ behavior: FHIR.EnableBehavior?, _ outcomes: [FHIRTruth]) -> FHIRTruth
}

/// A condition's value when some sources cannot be known: an SDC expression SurveyReplay does not evaluate
/// decides them. Kleene's three-valued logic, so a known outcome is never hidden behind an unknown one.
enum FHIRTruth: Equatable, Sendable {
    case `true`, `false`, unknown

    init(_ flag: Bool) { self = flag ? .true : .false }
}

/// The operators of the R4B/R5 code system (§A1): `exists` against answered-ness; `=` and the orderings
/// true when any answer matches; `!=` by the option: "no answer equals" (R5 and LHC-Forms: true on an
/// unanswered source) or "any answer differs" (android-fhir: false on one, and true for [a, b] != a).
/// Values compare as the engine compares them (`FHIRValues.equal`: Codings differ between the engines).
struct FHIRStandardRules: FHIREnablementRules {
    enum NotEquals: String, Sendable {
        case noAnswerEquals = "no-answer-equals"
        case anyAnswerDiffers = "any-answer-differs"
    }

    let notEquals: NotEquals
    var engine: FHIREngine = .lhcForms

    func holds(_ condition: FHIR.EnableWhen, answers: [FHIR.Value]) -> Bool {
        let expected = condition.answer
        switch condition.op {
        case .exists:
            return !answers.isEmpty == (expected.json.boolValue ?? true)
        case .equals:
            return answers.contains { FHIRValues.equal($0, expected, engine: engine) == true }
        case .notEquals:
            switch notEquals {
            case .noAnswerEquals: return !answers.contains { FHIRValues.equal($0, expected, engine: engine) == true }
            case .anyAnswerDiffers: return answers.contains { FHIRValues.equal($0, expected, engine: engine) == false }
            }
        case .greater: return answers.contains { FHIRValues.compare($0, expected).map { $0 > 0 } ?? false }
        case .less: return answers.contains { FHIRValues.compare($0, expected).map { $0 < 0 } ?? false }
        case .greaterOrEqual: return answers.contains { FHIRValues.compare($0, expected).map { $0 >= 0 } ?? false }
        case .lessOrEqual: return answers.contains { FHIRValues.compare($0, expected).map { $0 <= 0 } ?? false }
        }
    }

    /// `any` when enableBehavior says any; `all` otherwise (one condition, or `all`: a file with several
    /// conditions and no behavior does not load, que-12).
    func combine(_ behavior: FHIR.EnableBehavior?, _ outcomes: [FHIRTruth]) -> FHIRTruth {
        if behavior == .any {
            if outcomes.contains(.true) { return .true }
            return outcomes.contains(.unknown) ? .unknown : .false
        }
        if outcomes.contains(.false) { return .false }
        return outcomes.contains(.unknown) ? .unknown : .true
    }
}

/// The engine an R4 session simulates: its enablement rules and the response it writes. The c3pro profile
/// navigates otherwise (one step at a time), so it runs its own session, `FHIRC3PROSession`.
struct FHIRProfile: Sendable {
    let rules: any FHIREnablementRules
    let response: any FHIRResponseWriter

    /// The standard profile for the engine the settings choose. `!=` follows that engine unless the
    /// `not-equals` option says otherwise.
    static func standard(_ settings: SessionSettings) -> FHIRProfile {
        let engine = FHIREngine.of(settings)
        let engineReading: FHIRStandardRules.NotEquals = engine == .androidFHIR ? .anyAnswerDiffers : .noAnswerEquals
        let reading = settings.options[FHIRSurvey.notEqualsOption].flatMap(FHIRStandardRules.NotEquals.init(rawValue:)) ?? engineReading
        return FHIRProfile(rules: FHIRStandardRules(notEquals: reading, engine: engine), response: FHIRStandardResponse())
    }
}
