import SurveyCore

/// What lint finds in a Questionnaire written for C3-PRO: an STU3-era file (`options`, `option`, enableWhen
/// without operator…) is C3-PRO's input, so lint also reports what makes ResearchKit throw while the task is
/// built (the app stops), the errors C3-PRO reports beside the task it still runs (items without a step,
/// enableWhen it cannot read), and where C3-PRO reads the file otherwise than an R4 engine. R4 files are not
/// C3-PRO's input and get none of these.
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
        for problem in task.buildProblems {
            found.append(finding(.error, problem.location, problem.message, hint: hint(problem.rule), rule: problem.rule))
        }
        for report in task.reports {
            found.append(finding(.error, report.location, report.message, hint: hint(report.rule), rule: report.rule))
        }
        if task.steps.isEmpty {
            found.append(
                finding(
                    .error, survey.items.first?.location ?? outline.location,
                    "no item becomes a step: C3-PRO hands ResearchKit an empty task, which shows nothing and can only be cancelled",
                    hint: "give the Questionnaire at least one question C3-PRO supports", rule: "c3pro-no-steps"))
        }
        for (index, item) in survey.items.enumerated() {
            found += itemFindings(item, index: index, task: task, finding: finding)
        }
        for step in task.steps {
            let item = survey.items[step.item]
            for requirement in step.requirements where requirement.owner == step.item {
                let condition = requirement.condition
                if let why = withoutResult(requirement, step: step, task: task) {
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

    /// What C3-PRO reads of one item otherwise than its author likely meant.
    private static func itemFindings(
        _ item: FHIR.Item, index: Int, task: FHIRC3PROTask,
        finding: (Diagnostic.Severity, SourceLocation, String, String, String) -> Diagnostic
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if item.c3pro.linkIdGenerated {
            found.append(
                finding(
                    .warning, item.location,
                    "the item has no linkId: C3-PRO names its step with a random UUID (SurveyReplay: '\(item.linkId)'), so no enableWhen can read it and each answer under it is wrapped in a group of its own",
                    "give every item a linkId", "c3pro-generated-linkid"))
        }
        if item.c3pro.typeMissing {
            found.append(
                finding(
                    .warning, item.location, "'\(item.linkId)' has no type: C3-PRO asks for a text answer and writes it as valueString",
                    "give the item its type", "c3pro-missing-type"))
        }
        if item.enableWhen.count + item.c3pro.unreadableConditions.count > 1, let location = item.enableWhenLocation {
            found.append(
                finding(
                    .warning, location,
                    "'\(item.linkId)' has \(item.enableWhen.count + item.c3pro.unreadableConditions.count) enableWhen: C3-PRO requires all of them, where an R4 engine without enableBehavior reads any (LHC-Forms) or fails (android-fhir)",
                    "keep one enableWhen, or nest the item in a group that carries the other", "c3pro-several-conditions"))
        }
        guard let step = task.stepByID[item.linkId].map({ task.steps[$0] }), step.item == index else { return found }
        switch step.format {
        case .scale(let scale)? where scale.preset == nil:
            found.append(
                finding(
                    .warning, item.location,
                    "the slider '\(item.linkId)' has the default \(scale.defaultValue), off its scale \(scale.min)…\(scale.max): ResearchKit presets nothing, so Next stays disabled until the respondent moves it",
                    "give questionnaire-defaultValue a value from \(scale.min) to \(scale.max), or leave it out to start at \(scale.min)", "c3pro-slider-default"))
        case .integer? where item.minValue != nil || item.maxValue != nil:
            found.append(
                finding(
                    .warning, item.location,
                    "'\(item.linkId)' has minValue or maxValue but is no slider (that takes both, as valueInteger, max above min): C3-PRO's integer field has no bounds",
                    "give both bounds for a slider, or check the value after submission", "c3pro-unbounded-integer"))
        case .choice(multiple: true)?:
            if step.isOptional {
                found.append(
                    finding(
                        .warning, item.location,
                        "'\(item.linkId)' is an optional multiple choice: skipped, it leaves ResearchKit an empty selection, which C3-PRO submits as an item with an empty answer list (FHIR JSON has no empty arrays)",
                        "make it required, or have the server drop empty answer lists", "c3pro-empty-answer"))
            }
            if let maxOccurs = item.maxOccurs {
                found.append(
                    finding(
                        .warning, item.location,
                        "'\(item.linkId)' has questionnaire-maxOccurs \(maxOccurs), which C3-PRO reads only to make it a multiple choice: ResearchKit takes any number of its choices",
                        "check the number of choices after submission", "c3pro-ignored-maxoccurs"))
            }
        case .text? where item.maxLength != nil:
            found.append(
                finding(
                    .warning, item.location, "'\(item.linkId)' has maxLength, which C3-PRO does not pass to ResearchKit: any length is taken",
                    "check the length after submission", "c3pro-ignored-maxlength"))
        default:
            break
        }
        return found
    }

    /// Why a requirement's question may have no result when the step comes up, or nil.
    private static func withoutResult(_ requirement: FHIRC3PROTask.Requirement, step: FHIRC3PROTask.Step, task: FHIRC3PROTask) -> String? {
        guard let source = requirement.step else { return "becomes no step, so it never has a result" }
        guard let own = task.stepByID[step.id] else { return nil }
        if source > own { return "comes after '\(step.id)', so it has no result yet when '\(step.id)' comes up" }
        if !task.steps[source].requirements.isEmpty { return "is itself conditional: on paths that pass it over it has no result" }
        return nil
    }

    private static func hint(_ rule: String) -> String {
        switch rule {
        case "c3pro-unsupported-item": "C3-PRO has answer formats for boolean, decimal, integer, quantity, date, dateTime, time, string, url, choice and open-choice: make it one of those (text → string)"
        case "c3pro-inline-options": "put the choices in a contained ValueSet and point options (answerValueSet) at it"
        case "c3pro-valueset-missing": "contain the ValueSet, or put it in a ValueSet*.json file beside the Questionnaire"
        case "c3pro-no-choices": "give the item options referring to a ValueSet with codes"
        case "c3pro-unsupported-enablewhen": "C3-PRO compares answerBoolean, answerString and answerCoding (with a code) for equality only"
        case "c3pro-slider-limits": "keep maxValue − minValue at 13 or less and both within ±10000, or drop one bound for an integer field"
        default: "give each item its own linkId"
        }
    }
}
