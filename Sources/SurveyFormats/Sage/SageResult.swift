import SurveyCore

/// The task result as the engine writes it when it hands it to the app: the task's result object with its
/// whole `stepHistory` (every visit from SageResearch 3.4.92 and in AssessmentModel, the path only before),
/// its path record (`nodePath` or `path` markers), and section results nested where the engine appended them.
/// Dates come from the scenario clock; the run UUID is a hash of the task and the day.
struct SageResult {
    let survey: SageSurvey
    let engine: SageEngine
    let handedOver: SageHandedOverResult

    var json: JSONValue { branch(handedOver.results.open[0].result, isTask: true) }

    /// A task or section result: `RSDTaskResultObject` (2.x/3.x with `schemaInfo`, 4.0–4.3 with the
    /// assessment identifiers), JsonModel's `AssessmentResultObject` / `BranchNodeResultObject`.
    private func branch(_ result: SageBranchResult, isTask: Bool) -> JSONValue {
        var object: [String: JSONValue] = [
            "identifier": .string(result.identifier),
            "startDate": .string(stamp(result.start)),
            "stepHistory": .array(result.stepHistory.map(entry)),
        ]
        if let end = result.end ?? (engine.resultStyle != .jsonModel ? result.start : nil) { object["endDate"] = .string(stamp(end)) }
        if !isTask, engine.writesSectionResults {
            // `SectionResultObject` (SageResearch 3.5.94–4.3.8), JsonModel's branch result (4.4+, AssessmentModel):
            // no run id, no schema info.
            object["type"] = "section"
        } else {
            switch engine.resultStyle {
            case .schemaInfo:
                object["type"] = "task"
                object["taskRunUUID"] = .string(runUUID)
                let info: (identifier: String?, revision: Int?) = isTask ? survey.schemaInfo : (nil, nil)
                object["schemaInfo"] = ["identifier": .string(info.identifier ?? result.identifier), "revision": .number(Double(info.revision ?? 1))]
            case .identifiers, .jsonModel:
                object["type"] = .string(engine.isAssessmentModel ? "assessment" : "task")
                object["taskRunUUID"] = .string(runUUID)
                addIdentifiers(&object)
                if let schema = engine.resultSchema { object["$schema"] = .string(schema) }
            }
        }
        switch engine.pathRecord {
        case .none: break
        case .nodePath: object["nodePath"] = .array(result.path.map { .string($0.identifier) })
        case .markers:
            object["path"] = .array(result.path.map { .object(["identifier": .string($0.identifier), "direction": .string($0.direction)]) })
        }
        return .object(object)
    }

    /// AssessmentModel writes the file's `versionString`; SageResearch 4.x also the schema identifier and the
    /// task's identifier as `assessmentIdentifier` (`AssessmentTaskObject.instantiateTaskResult()`).
    private func addIdentifiers(_ object: inout [String: JSONValue]) {
        if let version = survey.versionString { object["versionString"] = .string(version) }
        guard !engine.isAssessmentModel else { return }
        object["assessmentIdentifier"] = .string(survey.identifier)
        if let schema = survey.schemaIdentifier { object["schemaIdentifier"] = .string(schema) }
    }

    private func entry(_ entry: SageResultEntry) -> JSONValue {
        var object: [String: JSONValue] = ["identifier": .string(entry.identifier), "startDate": .string(stamp(entry.start))]
        if let end = entry.end { object["endDate"] = .string(stamp(end)) }
        let step = entry.step.map { survey.steps[$0] }
        switch entry.kind {
        case .branch:
            return handedOver.results.resolved(entry, engine: engine).map { branch($0, isTask: false) } ?? .null
        case .base:
            object["type"] = "base"
        case .collection:
            object["type"] = "collection"
            object["inputResults"] = .array(entry.inputs.map { input in legacyAnswer(input, field: step?.fields.first { $0.id == input.field }, at: entry) })
        case .answer:
            let answer = jsonModelAnswer(entry, step: step)
            switch entry.wrapping {
            case .none, .transient: return skipTarget(answer, entry)
            case .collection:
                // 4.0–4.4's `RSDCollectionResultObject`, made when Skip is tapped: its own dates, the answer
                // in `children` (SageResearch@4.0.1 `RSDCollectionResultObject.swift:73-75, 98-110`).
                object["type"] = "collection"
                object["children"] = [answer]
                let made = entry.wrappedAt ?? entry.start
                object["startDate"] = .string(stamp(made))
                object["endDate"] = .string(stamp(made))
            }
        }
        return skipTarget(.object(object), entry)
    }

    /// SageResearch's navigation results carry the skip button's `skipToIdentifier` (4.5's wrapper does not
    /// serialise it).
    private func skipTarget(_ result: JSONValue, _ entry: SageResultEntry) -> JSONValue {
        guard var object = result.objectValue, let skipTo = entry.skipTo, entry.wrapping != .transient, !engine.isAssessmentModel else { return result }
        object["skipToIdentifier"] = .string(skipTo)
        return .object(object)
    }

    /// `RSDAnswerResultObject` of a form field: `answerType` `{baseType, sequenceType?, formDataType}`,
    /// `value` left out when nil.
    private func legacyAnswer(_ input: (field: String, value: JSONValue?), field: Sage.Field?, at entry: SageResultEntry) -> JSONValue {
        var type: [String: JSONValue] = ["baseType": .string(field?.shape.base.rawValue ?? "codable")]
        if field?.shape.isArray == true { type["sequenceType"] = "array" }
        if let field { type["formDataType"] = .string(field.typeName) }
        var object: [String: JSONValue] = [
            "identifier": .string(input.field), "type": "answer", "answerType": .object(type),
            "startDate": .string(stamp(entry.start)), "endDate": .string(stamp(entry.end ?? entry.start)),
        ]
        if let value = input.value { object["value"] = value }
        return .object(object)
    }

    /// JsonModel's (and SageResearch 3.x's) `AnswerResultObject`: `answerType` `{type}` (`{type: array,
    /// baseType}` for a multiple choice), `questionText`, `value` left out when nil.
    private func jsonModelAnswer(_ entry: SageResultEntry, step: Sage.Step?) -> JSONValue {
        var object: [String: JSONValue] = ["identifier": .string(entry.identifier), "type": "answer", "startDate": .string(stamp(entry.start))]
        if let end = entry.end { object["endDate"] = .string(stamp(end)) }
        if let text = step?.questionText { object["questionText"] = .string(text) }
        if let step {
            if step.answerIsObject || step.fields.isEmpty {
                object["answerType"] = ["type": "object"]
            } else if step.fields[0].shape.isArray {
                object["answerType"] = ["type": "array", "baseType": .string(step.fields[0].resultType)]
            } else {
                object["answerType"] = ["type": .string(step.fields[0].resultType)]
            }
        }
        if let value = entry.value { object["value"] = value }
        return .object(object)
    }

    private func stamp(_ elapsed: Int) -> String {
        ScenarioClock(today: handedOver.today, elapsed: elapsed).timestamp(zulu: false)
    }

    /// A fixed run id made from the task and the day, so that payloads are the same on every replay.
    private var runUUID: String {
        let first = StableHash.of([survey.identifier, handedOver.today.description])
        let text = [first, StableHash.mix(first)].map { part in
            let hex = String(part, radix: 16, uppercase: true)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        var uuid = ""
        for (offset, character) in text.enumerated() {
            if [8, 12, 16, 20].contains(offset) { uuid.append("-") }
            uuid.append(character)
        }
        return uuid
    }
}

/// The results as they stood when the task result was handed to the app: later changes are not in it. The
/// JSON is written from it only when someone reads the payload (walks and the step checker's shadow sessions
/// never do), and the copies it holds are shared with the session until the session changes them.
struct SageHandedOverResult: Sendable {
    let results: SageNavigators
    let today: CalendarDate
}
