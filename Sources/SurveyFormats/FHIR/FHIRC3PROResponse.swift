import SurveyCore

/// The QuestionnaireResponse C3-PRO builds from a finished task (`ORKTaskResult+FHIR.swift`): one item per
/// path entry of a question step with an answer (skipped and instruction steps give none, except a skipped
/// multiple choice, whose result holds an empty selection: an item with `"answer": []`), each
/// wrapped in items named by the step's `linkIds` as C3-PRO pops them (the outermost group innermost, so
/// `g1 > g2 > q` comes out as `g2 > g1 > q`), then siblings sharing a linkId merged, recursively, into the
/// first (`deduplicateItemsByLinkId`: a later one gives only its nested items, its answers are dropped).
/// Everything nests under `item.item`, never `answer.item`. A scale's answer is always valueDecimal, a choice
/// a valueCoding split from "system code", a time has no seconds; `status` is always completed,
/// `questionnaire` a Reference to the task's identifier, and there is no `authored`.
enum FHIRC3PROResponse {
    static func response(of task: FHIRC3PROTask, survey: FHIRSurvey, results: [(step: Int, answers: [FHIR.Value])]) -> JSONValue {
        var items: [JSONValue] = []
        for (index, values) in results {
            let step = task.steps[index]
            guard let format = step.format, givesItem(values, format: format) else { continue }
            var item: JSONValue = .object(["linkId": .string(step.id), "answer": .array(values.map { answer($0, format: format) })])
            // `linkIds` lists the nearest group first; C3-PRO wraps from its end.
            for parent in step.wrappers.reversed() {
                item = .object(["linkId": .string(parent), "item": .array([item])])
            }
            items.append(item)
        }
        var response: [String: JSONValue] = [
            "resourceType": "QuestionnaireResponse",
            "status": "completed",
            "questionnaire": .object(["reference": .string(survey.taskIdentifier)]),
        ]
        let merged = deduplicated(items)
        if !merged.isEmpty { response["item"] = .array(merged) }
        return .object(response)
    }

    /// Whether a path entry's result becomes a response item: one with an answer does; so does a multiple
    /// choice's without one, since ResearchKit's question step turns a missing or skipped answer of a
    /// multiple choice into an empty selection, which C3-PRO writes as an item whose answer list is empty.
    static func givesItem(_ values: [FHIR.Value], format: FHIRC3PROTask.Format?) -> Bool {
        !values.isEmpty || format == .choice(multiple: true)
    }

    /// One answer as C3-PRO writes the result of its answer format.
    private static func answer(_ value: FHIR.Value, format: FHIRC3PROTask.Format) -> JSONValue {
        switch (value.type, format) {
        case (.coding, _):
            // The choice's "system code" split at its spaces: the system, then the rest joined by one space.
            let parts = FHIRC3PROTask.choiceKey(value.json).split(separator: " ")
            let code = parts.count > 1 ? parts.dropFirst().joined(separator: " ") : FHIRC3PROTask.missingCode
            return ["valueCoding": ["system": .string(String(parts.first ?? "")), "code": .string(code)]]
        case (.time, _):
            // FHIRTime(hour:minute:second: 0): ResearchKit's time of day has hours and minutes.
            let text = value.json.stringValue ?? ""
            return ["valueTime": .string(String(text.prefix(5)) + ":00")]
        case (.quantity, .quantity(let unit)):
            var quantity: [String: JSONValue] = ["value": value.json.objectValue?["value"] ?? .null]
            if let unit { quantity["unit"] = .string(unit) }
            return ["valueQuantity": .object(quantity)]
        default:
            return .object([value.member.key: value.member.value])
        }
    }

    /// Siblings with one linkId become the first of them, at its place, which keeps its answers and gets the
    /// later ones' nested items appended; then the same within each.
    private static func deduplicated(_ items: [JSONValue]) -> [JSONValue] {
        var order: [String] = []
        var byLinkId: [String: [String: JSONValue]] = [:]
        for item in items {
            let object = item.objectValue ?? [:]
            let linkId = object["linkId"]?.stringValue ?? ""
            guard var known = byLinkId[linkId] else {
                order.append(linkId)
                byLinkId[linkId] = object
                continue
            }
            let joined = (known["item"]?.arrayValue ?? []) + (object["item"]?.arrayValue ?? [])
            if !joined.isEmpty { known["item"] = .array(joined) }
            byLinkId[linkId] = known
        }
        return order.compactMap { linkId in
            guard var object = byLinkId[linkId] else { return nil }
            if let nested = object["item"]?.arrayValue { object["item"] = .array(deduplicated(nested)) }
            return .object(object)
        }
    }
}
