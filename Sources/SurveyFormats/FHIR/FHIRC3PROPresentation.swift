import SurveyCore

/// How the recorder shows a step under the c3pro profile: as ResearchKit draws it, a step with its title and
/// text (C3-PRO `c3_bestTitleAndText`), a question step with its answer format (a slider with its range,
/// preset, end labels and orientation; a picker with the clock it starts at; a quantity with its unit; single
/// or multiple choice).
extension FHIRC3PROTask {
    func prompt(for id: String, survey: FHIRSurvey) -> QuestionPrompt? {
        guard let index = stepByID[id] else { return nil }
        let step = steps[index]
        let item = survey.items[step.item]
        let detail = step.text.map { " — \($0)" } ?? ""
        let optional = step.isOptional ? ", optional (Skip)" : ""
        guard let format = step.format else {
            return QuestionPrompt(id: id, text: step.title, kind: "instruction step" + detail, choices: [], hint: "takes no answer: next")
        }
        let kind: String
        var choices: [String] = []
        var hint: String
        switch format {
        case .boolean: (kind, hint) = ("boolean", "yes or no")
        case .decimal: (kind, hint) = ("decimal", "a number")
        case .integer: (kind, hint) = ("integer", "a whole number")
        case .scale(let scale):
            let start = scale.preset.map { "starting at \($0)" } ?? "unset (its default \(scale.defaultValue) is off the scale)"
            kind = "scale \(scale.min)…\(scale.max), \(scale.isVertical ? "vertical" : "horizontal"), \(start)"
            choices = [scale.minLabel.map { "\(scale.min): \($0)" }, scale.maxLabel.map { "\(scale.max): \($0)" }].compactMap { $0 }
            hint = "a whole number from \(scale.min) to \(scale.max)"
        case .quantity(let unit):
            kind = "decimal" + (unit.map { " in \($0)" } ?? "")
            hint = "a number"
        case .date: (kind, hint) = ("date picker, starting at today", "YYYY-MM-DD")
        case .dateTime: (kind, hint) = ("date and time picker, starting at now (today 00:00 UTC)", "YYYY-MM-DDThh:mm:ssZ")
        case .time: (kind, hint) = ("time picker, starting at now (00:00)", "hh:mm:ss")
        case .text(let url): (kind, hint) = (url ? "text (url)" : "text", "the text")
        case .choice(let multiple):
            kind = multiple ? "multiple choice" : "single choice"
            choices = item.options.map { FHIRValues.label($0.value) }
            hint = "the choice's number or code" + (multiple ? "s, separated by commas" : "")
        }
        return QuestionPrompt(id: id, text: step.title, kind: kind + optional + detail, choices: choices, hint: hint + "; or any JSON value")
    }
}
