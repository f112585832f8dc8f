import SurveyCore

/// What a scenario's answer means for a C3-PRO question step, checked against its ResearchKit answer format
/// (C3-PRO `c3_asAnswerFormat`): a boolean; a number (whole for an integer, with no bounds; on the slider for
/// a scale); a number or a Quantity for a quantity, whose unit is the item's (the respondent types only the
/// number); a full date, a date and time, a time; text of any length (C3-PRO gives ResearchKit no maxLength);
/// one option of the ValueSet, or a list of any number of them for a multiple choice (questionnaire-maxOccurs
/// bounds nothing). The value is stored with the type the response writes.
extension FHIRC3PROTask {
    func interpret(_ json: JSONValue, step index: Int, survey: FHIRSurvey) -> Result<[FHIR.Value], FHIRSession.Refusal> {
        let step = steps[index]
        let item = survey.items[step.item]
        func refused(_ outcome: Outcome) -> Result<[FHIR.Value], FHIRSession.Refusal> { .failure(FHIRSession.Refusal(value: outcome)) }
        func refuse(_ expected: String) -> Result<[FHIR.Value], FHIRSession.Refusal> {
            refused(.rejected("'\(step.id)' takes \(expected), not \(CanonicalJSON.compact(json))"))
        }
        func single(_ type: FHIR.ValueType, _ value: JSONValue) -> Result<[FHIR.Value], FHIRSession.Refusal> { .success([FHIR.Value(type, value)]) }
        switch step.format {
        case nil:
            return refused(.rejected("'\(step.id)' is an instruction step, which takes no answer"))
        case .boolean?:
            guard json.boolValue != nil else { return refuse("true or false") }
            return single(.boolean, json)
        case .decimal?:
            guard json.numberValue != nil else { return refuse("a number") }
            return single(.decimal, json)
        case .integer?:
            // integerAnswerFormat(withUnit: nil): no minimum or maximum; the response writes an Int32.
            guard let number = json.numberValue, number == number.rounded(), abs(number) < 2_147_483_648 else { return refuse("a whole number") }
            return single(.integer, json)
        case .scale(let scale)?:
            guard let number = json.numberValue, number == number.rounded(), number >= Double(scale.min), number <= Double(scale.max) else {
                return refuse("a whole number on its slider, \(scale.min) to \(scale.max)")
            }
            // A scale's answer is written as valueDecimal, even for an integer item (§A3).
            return single(.decimal, json)
        case .quantity(let unit)?:
            let number = json.numberValue ?? json.objectValue?["value"]?.numberValue
            guard let number else { return refuse("a number (its unit is \(unit.map { "'\($0)'" } ?? "not given")), or a Quantity {\"value\": 1.5}") }
            if let given = json.objectValue?["unit"]?.stringValue, given != unit {
                let measured = unit.map { "is measured in '\($0)' (questionnaire-units)" } ?? "has no unit (no questionnaire-units): the respondent types only the number"
                return refused(.rejected("'\(step.id)' \(measured), not '\(given)'"))
            }
            var quantity: [String: JSONValue] = ["value": .number(number)]
            if let unit { quantity["unit"] = .string(unit) }
            return single(.quantity, .object(quantity))
        case .date?:
            guard let text = json.stringValue, CalendarDate(iso: text) != nil else { return refuse("a date from its date picker, YYYY-MM-DD") }
            return single(.date, json)
        case .dateTime?:
            guard let text = json.stringValue, text.contains("T"), FHIRValues.isDateTime(text) else { return refuse("a date and time, YYYY-MM-DDThh:mm:ssZ") }
            return single(.dateTime, json)
        case .time?:
            guard let text = json.stringValue, FHIRValues.isTime(text) else { return refuse("a time of day, hh:mm:ss") }
            return single(.time, json)
        case .text(let url)?:
            guard let text = json.stringValue, !text.isEmpty else { return refuse("non-empty text") }
            return single(url ? .uri : .string, json)
        case .choice(let multiple)?:
            let picked: [JSONValue]
            if multiple {
                guard let list = json.arrayValue, !list.isEmpty else { return refuse("a list of its choices, e.g. [\(example(item))]") }
                picked = list
            } else {
                if json.arrayValue != nil { return refuse("one choice (it is single choice: repeats is not true, or maxOccurs is 1)") }
                picked = [json]
            }
            var chosen = Set<Int>()
            for value in picked {
                guard let option = item.options.firstIndex(where: { FHIRSurvey.option($0.value, matches: value) }) else {
                    let choices = item.options.prefix(8).map { FHIRValues.label($0.value) }.joined(separator: ", ")
                    return refused(.rejected("\(CanonicalJSON.compact(value)) is not a choice of '\(step.id)'; expected one of \(choices)\(item.options.count > 8 ? ", …" : "")"))
                }
                chosen.insert(option)
            }
            // questionnaire-maxOccurs only makes a choice single (1) or multiple: ResearchKit's multiple choice
            // takes any number of its choices. ResearchKit reports the selected choices in the order they are listed.
            return .success(chosen.sorted().map { item.options[$0].value })
        }
    }

    private func example(_ item: FHIR.Item) -> String {
        item.options.first.map { CanonicalJSON.compact($0.value.json) } ?? #"{"code":"a"}"#
    }
}
