import SurveyCore
import SurveyFormats

/// R4 Questionnaires of `size` items made for C3-PRO (profile `c3pro`), within what it turns into a task
/// (docs/fhir.md, C3-PRO): groups nested one to five deep with a text (instruction steps) and display items;
/// questions of the types it renders (boolean, decimal, integer sliders, string, date, dateTime, time, single
/// and multiple choices from a contained ValueSet, quantity with a unit), a third of them required (the
/// others have a Skip button); enableWhen `=` on booleans, strings and single choices, the only conditions it
/// reads, mostly on recent items, sometimes on a later one (a requirement without a result), several ANDed
/// with enableBehavior `all` as C3-PRO reads them. No repeating groups (C3-PRO has none), no initial values.
/// ResearchKit's limit of 13 steps is each slider's, not the task's (docs/fhir.md, "a slider of more than 13
/// steps"), so a task may have any number of steps; every slider runs from 0 to 10.
public struct SyntheticC3PRO: SyntheticSurvey {
    public init() {}

    public var format: String { FHIRFormat.name }
    public var settings: SessionSettings { SessionSettings(profile: FHIRSurvey.c3proProfile) }

    public func text(size: Int, seed: UInt64) -> String {
        SyntheticQuestionnaire(dialect: .c3pro, size: size, seed: seed).text
    }
}

extension SyntheticDialect {
    static let c3pro = SyntheticDialect(
        types: [
            (.boolean, 24), (.choice, 18), (.multipleChoice, 5), (.slider, 8), (.decimal, 6), (.string, 16), (.date, 6), (.dateTime, 3),
            (.time, 3), (.quantity, 4),
        ],
        operators: { type in
            switch type {
            case .boolean, .string, .choice: ["="]
            default: []
            }
        },
        maximumDepth: 5, repeatingGroups: false, initialValues: false, behaviors: ["all"], choicesFromValueSets: true)
}
