import SurveyCore

/// What lint finds in a Questionnaire written for C3-PRO: an STU3-era file (`options`, `option`, enableWhen
/// without operator…) is C3-PRO's input, so lint also reports what C3-PRO rejects (the task fails to prepare)
/// and where its enableWhen reads otherwise than an R4 engine (§A3). R4 files are not C3-PRO's input and get
/// none of these.
enum FHIRC3PROLint {
    static func findings(_ outline: FHIROutline) -> [Diagnostic] {
        guard let form = outline.stu3Form else { return [] }
        let survey = FHIRSurvey(outline)
        let task = FHIRC3PROTask(survey)
        func finding(_ severity: Diagnostic.Severity, _ location: SourceLocation, _ message: String, hint: String, rule: String) -> Diagnostic {
            Diagnostic(severity, file: outline.file, location: location, message: message, hint: hint, rule: rule)
        }
        let formName: String =
            switch form.pointer.step {
            case .key(let key)?: "\"\(key)\""
            default: "an enableWhen without operator"
            }
        var found = [
            finding(
                .note, form, "this Questionnaire is STU3-era, C3-PRO's input: it uses \(formName), which R4 does not have",
                hint: "SurveyReplay reads them as their R4 counterparts (answerValueSet, answerOption, initial, exists, =); `profile c3pro` simulates C3-PRO",
                rule: "fhir-stu3-input")
        ]
        for failure in task.failures {
            found.append(finding(.error, failure.location, "C3-PRO cannot prepare this Questionnaire: \(failure.message)", hint: hint(failure.rule), rule: failure.rule))
        }
        for step in task.steps {
            let item = survey.items[step.item]
            for requirement in step.requirements where requirement.owner == step.item {
                let condition = requirement.condition
                if let why = withoutResult(requirement, step: step, task: task, survey: survey) {
                    found.append(
                        finding(
                            .warning, condition.location,
                            "'\(condition.question)' \(why): C3-PRO counts '\(condition.description)' as satisfied and shows '\(step.id)', where an R4 engine hides it",
                            hint: "make '\(condition.question)' a question step that comes before '\(step.id)' on every path", rule: "c3pro-requirement-without-result"))
                }
                if let source = requirement.step, case .choice(multiple: true)? = task.steps[source].format, condition.answer.type == .coding {
                    found.append(
                        finding(
                            .warning, condition.location,
                            "'\(condition.question)' is a multiple choice: C3-PRO compares its whole answer with [\(FHIRValues.label(condition.answer))], so '\(step.id)' shows only when that one option alone is chosen",
                            hint: "an R4 engine shows it whenever the option is among those chosen", rule: "c3pro-multiple-choice-equality"))
                }
            }
            if step.isQuestion, !item.children.isEmpty {
                found.append(
                    finding(
                        .warning, item.location,
                        "the question '\(item.linkId)' has nested items: C3-PRO writes them beside its answer under item.item, where R4 wants answer.item (qrs-1)",
                        hint: "put the nested questions in a group after the question", rule: "c3pro-answer-and-item"))
            }
        }
        return found
    }

    /// Why a requirement's question may have no result when the step comes up, or nil.
    private static func withoutResult(_ requirement: FHIRC3PROTask.Requirement, step: FHIRC3PROTask.Step, task: FHIRC3PROTask, survey: FHIRSurvey) -> String? {
        guard let source = requirement.step else { return "becomes no step (a group or display item without text), so it never has a result" }
        guard let own = task.stepByID[step.id] else { return nil }
        if source > own { return "comes after '\(step.id)', so it has no result yet when '\(step.id)' comes up" }
        if !task.steps[source].requirements.isEmpty { return "is itself conditional: on paths that pass it over it has no result" }
        return nil
    }

    private static func hint(_ rule: String) -> String {
        switch rule {
        case "c3pro-unsupported-item": "C3-PRO has no answer format for attachment and reference items; leave them out of its questionnaires"
        case "c3pro-inline-options": "put the choices in a contained ValueSet and point options (answerValueSet) at it"
        case "c3pro-valueset-missing": "contain the ValueSet, or put it in a ValueSet*.json file beside the Questionnaire"
        case "c3pro-no-choices": "give the item options referring to a ValueSet"
        case "c3pro-unsupported-enablewhen": "C3-PRO compares answerBoolean, answerString and answerCoding for equality only"
        case "c3pro-duplicate-step": "give each item its own linkId"
        default: "give the Questionnaire at least one question"
        }
    }
}
