import SurveyCore

/// How an engine decides one enableWhen condition from its source's answers: the standard rules are R4/R5 as
/// LHC-Forms and android-fhir implement them; the c3pro profile's are `FHIRC3PRORules`.
protocol FHIREnablementRules: Sendable {
    /// Whether the condition holds, given the answers of its source (empty when it is unanswered, disabled
    /// or missing: a disabled source counts as unanswered, §A1).
    func holds(_ condition: FHIR.EnableWhen, answers: [FHIR.Value]) -> Bool
    /// How several conditions combine when `enableBehavior` says so.
    func combine(_ behavior: FHIR.EnableBehavior?, _ outcomes: [Bool]) -> Bool
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

    /// `any` when enableBehavior says any; `all` otherwise (one condition, or `all`; several conditions without
    /// a behavior are LHC-Forms' any, set at load, and android-fhir's throw, `FHIRProfile.combine`: que-12).
    func combine(_ behavior: FHIR.EnableBehavior?, _ outcomes: [Bool]) -> Bool {
        behavior == .any ? outcomes.contains(true) : !outcomes.contains(false)
    }
}

/// One enableWhen condition as an R4 engine evaluates it: its truth, or what the engine throws evaluating it
/// (the engine fails, so the action that led there breaks the form).
enum FHIRConditionValue: Equatable {
    case truth(Bool)
    case failure(String)
}

/// The engine an R4 session simulates: how it evaluates a condition, how it combines an item's conditions,
/// and the response it writes. The c3pro profile navigates otherwise (one step at a time), so it runs its own
/// session, `FHIRC3PROSession`.
struct FHIRProfile: Sendable {
    let engine: FHIREngine
    /// The reading of `!=`: the engine's unless the `not-equals` option says otherwise.
    let notEquals: FHIRStandardRules.NotEquals
    let response: any FHIRResponseWriter

    /// The standard profile for the engine the settings choose.
    static func standard(_ settings: SessionSettings) -> FHIRProfile {
        let engine = FHIREngine.of(settings)
        let engineReading: FHIRStandardRules.NotEquals = engine == .androidFHIR ? .anyAnswerDiffers : .noAnswerEquals
        let reading = settings.options[FHIRSurvey.notEqualsOption].flatMap(FHIRStandardRules.NotEquals.init(rawValue:)) ?? engineReading
        return FHIRProfile(engine: engine, notEquals: reading, response: FHIRStandardResponse())
    }

    /// Whether a condition holds, read against the item it reads (nil: no item has its linkId) and the
    /// answers the engine sees there (none when unanswered; a disabled source: see the session), or what the
    /// engine throws.
    func evaluate(_ condition: FHIR.EnableWhen, source: FHIR.Item?, answers: [FHIR.Value]) -> FHIRConditionValue {
        evaluate(condition, source: engine == .lhcForms ? source.map(FHIRLHCForms.Source.init) : nil, answers: answers)
    }

    /// The same, with what skip logic reads of the source item worked out (nil: no item, or not LHC-Forms).
    func evaluate(_ condition: FHIR.EnableWhen, source: FHIRLHCForms.Source?, answers: [FHIR.Value]) -> FHIRConditionValue {
        switch engine {
        case .lhcForms:
            // `exists` compares answered-ness with the value's truthiness, read at load (lhc-form-data.ts:3878-3880).
            guard condition.op != .exists, let source, let trigger = condition.lhcTrigger else {
                return .truth(FHIRStandardRules(notEquals: notEquals, engine: engine).holds(condition, answers: answers))
            }
            switch FHIRLHCForms.evaluate(condition, trigger: trigger, source: source, answers: answers, notEquals: notEquals) {
            case .success(let holds): return .truth(holds)
            case .failure(let error): return .failure("TypeError: \(error.reason) (LHNCBC/lforms@24c71875 src/lib/lforms/lhc-form-data.ts:3847-3906)")
            }
        case .androidFHIR:
            switch FHIRAndroid.evaluate(condition, answers: answers, notEquals: notEquals) {
            case .success(let holds): return .truth(holds)
            case .failure(let failure): return .failure(failure.reason)
            }
        }
    }

    /// An item's enablement from its conditions, each evaluated by `value(index)` in order and only as far as
    /// the engine goes: all stops at the first false, any at the first true. LHC-Forms reads a behavior other
    /// than all and any as neither, so it evaluates nothing and never enables the item (`_checkSkipLogic`,
    /// lhc-form-data.ts:3994-4020); android-fhir throws when several conditions have no behavior
    /// (EnablementEvaluator.kt:166-172).
    func combine(_ item: FHIR.Item, _ value: (Int) -> FHIRConditionValue) -> FHIRConditionValue {
        combine(count: item.enableWhen.count, behavior: item.enableBehavior, linkId: item.linkId, value)
    }

    /// The same, for `count` conditions joined by `behavior`, of the item with this linkId.
    func combine(count: Int, behavior: FHIR.EnableBehavior?, linkId: @autoclosure () -> String, _ value: (Int) -> FHIRConditionValue) -> FHIRConditionValue {
        if let failure = combineFailure(count: count, behavior: behavior, linkId: linkId()) { return .failure(failure) }
        if behavior == .neither { return .truth(false) }
        let any = behavior == .any
        for index in 0..<count {
            switch value(index) {
            case .failure(let reason): return .failure(reason)
            case .truth(true) where any: return .truth(true)
            case .truth(false) where !any: return .truth(false)
            case .truth: break
            }
        }
        return .truth(!any)
    }

    /// What android-fhir throws combining an item's conditions: several without a behavior.
    private func combineFailure(count: Int, behavior: FHIR.EnableBehavior?, linkId: @autoclosure () -> String) -> String? {
        guard engine == .androidFHIR, count > 1, behavior == nil else { return nil }
        return "IllegalStateException: \"Unrecognized enable when behavior null\": '\(linkId())' has \(count) enableWhen and no enableBehavior (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/enablement/EnablementEvaluator.kt:166-172)"
    }

    /// Whether evaluating some item's enablement can make the engine throw in this Questionnaire, whatever the
    /// answers: a condition throwing on an answer of a type its source takes, conditions android-fhir cannot
    /// combine, an item android-fhir has no view for, or SDC expressions that can fail the engine
    /// (`FHIRExpressionProgram.mayThrow`). A session saves its state before each action only when it can, to
    /// undo an action that breaks the form.
    func mayThrow(_ survey: FHIRSurvey) -> Bool {
        if survey.expressionProgram.mayThrow(under: engine) { return true }
        for item in survey.items {
            if combineFailure(count: item.enableWhen.count, behavior: item.enableBehavior, linkId: item.linkId) != nil { return true }
            if engine == .androidFHIR, case .androidThrowsWhenShown? = item.rendering { return true }
            for condition in item.enableWhen {
                for source in survey.itemsByLinkId[condition.question] ?? [] {
                    let item = survey.items[source]
                    // LHC-Forms keeps a text box's answers as strings, whatever the type written.
                    let textBox = if case .lhcTextBox? = item.rendering { true } else { false }
                    for type in item.answerTypes + (textBox ? [.string] : []) {
                        if case .failure = evaluate(condition, source: item, answers: [FHIR.Value.sample(of: type)]) { return true }
                    }
                }
            }
        }
        return false
    }
}

extension FHIR.Value {
    /// A value of the type, for asking whether a condition throws on one.
    static func sample(of type: FHIR.ValueType) -> FHIR.Value {
        switch type {
        case .boolean: FHIR.Value(type, true)
        case .decimal: FHIR.Value(type, 1.5)
        case .integer: FHIR.Value(type, 1)
        case .date: FHIR.Value(type, "2024-01-01")
        case .dateTime: FHIR.Value(type, "2024-01-01T00:00:00Z")
        case .time: FHIR.Value(type, "09:00:00")
        case .string: FHIR.Value(type, "text")
        case .uri: FHIR.Value(type, "http://example.org")
        case .coding: FHIR.Value(type, ["system": "http://example.org", "code": "a"])
        case .quantity: FHIR.Value(type, ["value": 1, "unit": "kg"])
        case .reference: FHIR.Value(type, ["reference": "Patient/example"])
        case .attachment: FHIR.Value(type, ["contentType": "text/plain"])
        }
    }
}
