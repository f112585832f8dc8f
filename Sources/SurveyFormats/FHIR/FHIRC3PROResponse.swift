import SurveyCore

/// The QuestionnaireResponse C3-PRO builds from a finished task (§A3, `ORKTaskResult+FHIR.swift`): one item
/// per answered question step on the path (unanswered and skipped ones left out), each wrapped in items
/// named by its ancestors' linkIds, then siblings sharing a linkId merged, recursively
/// (`deduplicateItemsByLinkId`). Everything nests under `item.item`, never `answer.item`, so a question with
/// nested questions gets both `answer` and `item` (what R4's qrs-1 forbids). A scale's answer is always
/// valueDecimal, a choice a valueCoding split from "system code"; `status` is always completed,
/// `questionnaire` a Reference to the task's identifier, and there is no `authored`.
enum FHIRC3PROResponse {
    static func response(of task: FHIRC3PROTask, survey: FHIRSurvey, path: [Int], answers: [Int: [FHIR.Value]]) -> JSONValue {
        var items: [JSONValue] = []
        for index in path {
            let step = task.steps[index]
            guard step.isQuestion, let values = answers[index], !values.isEmpty else { continue }
            var item: JSONValue = .object(["linkId": .string(step.id), "answer": .array(values.map(answer))])
            for parent in step.parents.reversed() {
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

    private static func answer(_ value: FHIR.Value) -> JSONValue {
        guard value.type == .coding else { return .object([value.member.key: value.member.value]) }
        let key = FHIRC3PROTask.choiceKey(value.json)
        let space = key.firstIndex(of: " ") ?? key.endIndex
        let coding: JSONValue = .object(["system": .string(String(key[..<space])), "code": .string(String(key[space...].dropFirst()))])
        return .object(["valueCoding": coding])
    }

    /// Siblings with one linkId become one item, at the place of the first, their answers and nested items
    /// joined in order; then the same within each.
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
            for key in ["answer", "item"] {
                let joined = (known[key]?.arrayValue ?? []) + (object[key]?.arrayValue ?? [])
                if !joined.isEmpty { known[key] = .array(joined) }
            }
            byLinkId[linkId] = known
        }
        return order.compactMap { linkId in
            guard var object = byLinkId[linkId] else { return nil }
            if let nested = object["item"]?.arrayValue { object["item"] = .array(deduplicated(nested)) }
            return .object(object)
        }
    }
}
