import FHIRPath
import SurveyCore

/// What every evaluation of a form's SDC expressions starts from under one settings: `%questionnaire` and the
/// launch contexts the form declares and the host gave, bound with the clock, each name once; the Questionnaire
/// items `%qitem` stands for; and what the engine throws on before any expression runs. Worked out once per
/// survey and settings and shared by those sessions (`FHIRSurvey.expressionConstants`); it holds nothing of the
/// survey, which keeps it, so no reference cycle keeps either alive.
final class FHIRExpressionConstants: Sendable {
    /// The constants, each name once, in name order.
    let list: [(name: String, value: FHIRPathCollection)]
    /// The constants bound with the clock: every evaluation layers its own variables over them.
    let bound: FHIRPathEnvironment
    /// The same without `%questionnaire`: what android-fhir's population sees.
    let population: FHIRPathEnvironment
    /// Each item's node in the Questionnaire tree, for `%qitem`.
    let questionnaireItems: [FHIRNode]
    /// What the engine throws on before any expression runs (android-fhir's launch context checks).
    let openingProblem: String?

    init(survey: FHIRSurvey, questionnaire: FHIRTree, settings: SessionSettings) {
        let engine = survey.engine
        let clock = FHIRPathClock(scenario: ScenarioClock(today: settings.today))
        questionnaireItems = survey.questionnaireItemNodes.get {
            var items: [FHIRNode] = []
            func visit(_ node: FHIRNode) {
                for child in node.children(named: "item") {
                    items.append(child)
                    visit(child)
                }
            }
            visit(questionnaire.root)
            return items
        }
        var constants: [String: FHIRPathCollection] = ["questionnaire": [.node(questionnaire.root)]]
        var problem: String?
        for context in survey.launchContexts {
            guard let resource = settings.launchContext[context.name] else { continue }
            let type = resource.objectValue?["resourceType"]?.stringValue ?? ""
            switch engine {
            case .lhcForms:
                // Bound only when its type is one the launch context and SDC's name allow
                // (`loadLaunchContext`'s addIfValid, LHNCBC/lforms@24c71875 src/fhir/common/sdc-common.js:331-360).
                let allowed: [String: Set<String>] = [
                    "patient": ["Patient"], "encounter": ["Encounter"], "location": ["Location"], "study": ["ResearchStudy"],
                    "user": ["Device", "PractitionerRole", "Practitioner", "RelatedPerson", "Organization", "Patient"],
                ]
                guard allowed[context.name].map({ $0.contains(type) }) ?? true, context.types.contains(type) else { continue }
            case .androidFHIR:
                // Every launchContext must name SDC's code system, or the view model throws as it starts
                // (validateLaunchContextExtension, google/android-fhir@28a50345
                // datacapture/src/main/java/com/google/android/fhir/datacapture/extensions/MoreQuestionnaires.kt:80-105).
                if problem == nil, let invalid = survey.launchContexts.first(where: { $0.nameSystem != "http://hl7.org/fhir/uv/sdc/CodeSystem/launchContext" }) {
                    problem = "IllegalStateException: \"The extension:name and/or extension:type do not follow the format specified in …sdc-questionnaire-launchContext\": the launchContext '\(invalid.name)' (\(survey.file):\(invalid.location.position)) does not name http://hl7.org/fhir/uv/sdc/CodeSystem/launchContext (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/extensions/MoreQuestionnaires.kt:80-105)"
                }
            }
            constants[context.name] = [.node(FHIRTree(json: resource).root)]
        }
        list = constants.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        bound = FHIRPathEnvironment(variableList: list, clock: clock)
        population = FHIRPathEnvironment(variableList: list.filter { $0.name != "questionnaire" }, clock: clock)
        openingProblem = problem
    }
}
