import SurveyCore

/// The task result a finished task hands to the app (reference §1.4): the steps on the path only, in order,
/// each with its answers and their `answerType`, stamped from the scenario clock. Steps inside sections are
/// grouped in a section result with their own `stepHistory` (our reading; the reference lists no section
/// result). The successor writes `answerType` as `{"type": …}` and adds its identifiers (§1.4, last line).
struct SageResult {
    let survey: SageSurvey
    let session: SageSession
    let ending: SageSurvey.Ending

    var json: JSONValue {
        var task: [String: JSONValue] = [
            "identifier": .string(survey.identifier),
            "type": .string(survey.generation == .assessment ? "assessment" : "task"),
            "startDate": .string(session.taskStartDate),
            "endDate": .string(session.taskEndDate),
            "taskRunUUID": .string(runUUID),
            "stepHistory": .array(history),
            "asyncResults": .array([]),
        ]
        if survey.generation == .assessment {
            task["assessmentIdentifier"] = .string(survey.identifier)
            if let version = survey.versionString { task["versionString"] = .string(version) }
            if let schema = survey.schemaIdentifier { task["schemaIdentifier"] = .string(schema) }
        }
        return .object(task)
    }

    /// A fixed run id made from the task and the day, so that payloads are the same on every replay.
    private var runUUID: String {
        let first = StableHash.of([survey.identifier, session.clock.today.description])
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

    /// The path's results, grouped by the sections the steps are in.
    private var history: [JSONValue] {
        // A stack of open sections, each with the results gathered in it so far.
        var open: [(section: Int, results: [JSONValue], start: String, end: String)] = []
        var top: [JSONValue] = []
        func close() {
            let finished = open.removeLast()
            let result: JSONValue = .object([
                "identifier": .string(survey.sections[finished.section].name), "type": .string("section"),
                "startDate": .string(finished.start), "endDate": .string(finished.end), "stepHistory": .array(finished.results),
            ])
            if open.isEmpty { top.append(result) } else { open[open.count - 1].results.append(result) }
        }
        for index in session.history {
            var chain: [Int] = []
            var section = survey.steps[index].section
            while let inner = section {
                chain.insert(inner, at: 0)
                section = survey.sections[inner].parent
            }
            var shared = 0
            while shared < open.count, shared < chain.count, open[shared].section == chain[shared] { shared += 1 }
            while open.count > shared { close() }
            for inner in chain[shared...] { open.append((inner, [], session.startDate(of: index), session.endDate(of: index))) }
            let result = stepResult(index)
            if open.isEmpty {
                top.append(result)
            } else {
                open[open.count - 1].results.append(result)
                for level in open.indices { open[level].end = session.endDate(of: index) }
            }
        }
        while !open.isEmpty { close() }
        return top
    }

    private func stepResult(_ index: Int) -> JSONValue {
        let step = survey.steps[index]
        let values = session.values(of: index)
        var result: [String: JSONValue] = [
            "identifier": .string(step.name), "startDate": .string(session.startDate(of: index)), "endDate": .string(session.endDate(of: index)),
        ]
        switch (step.kind, survey.generation) {
        case (.display, _):
            result["type"] = .string("base")
        case (.question, .legacy):
            result["type"] = .string("collection")
            result["inputResults"] = .array(step.fields.map { field in answerResult(field.id, field: field, value: values[field.id], index: index) })
            if let skip = session.skipTarget(of: index) { result["skipToIdentifier"] = .string(skip) }
        case (.question, _):
            let value: JSONValue? = step.answerIsObject ? (values.isEmpty ? nil : .object(values)) : step.fields.first.flatMap { values[$0.id] }
            return answerResult(step.name, field: step.answerIsObject ? nil : step.fields.first, value: value, index: index)
        }
        return .object(result)
    }

    /// An answer result; `value` is omitted when there is none (reference §1.4).
    private func answerResult(_ identifier: String, field: Sage.Field?, value: JSONValue?, index: Int) -> JSONValue {
        var result: [String: JSONValue] = [
            "identifier": .string(identifier), "type": .string("answer"),
            "startDate": .string(session.startDate(of: index)), "endDate": .string(session.endDate(of: index)),
            "answerType": answerType(field),
        ]
        if let value { result["value"] = value }
        return .object(result)
    }

    private func answerType(_ field: Sage.Field?) -> JSONValue {
        guard let field else { return survey.generation == .assessment ? ["type": "object"] : ["baseType": "codable", "sequenceType": "dictionary"] }
        let base = field.shape.base
        if survey.generation == .assessment {
            let name: String =
                switch base {
                case .decimal: "number"
                case .date: "string"
                case .codable: "object"
                default: base.rawValue
                }
            return field.shape.isArray ? ["type": "array", "baseType": .string(name)] : ["type": .string(name)]
        }
        var type: [String: JSONValue] = ["baseType": .string(base.rawValue)]
        if field.shape.isArray { type["sequenceType"] = "array" }
        if survey.generation == .legacy { type["formDataType"] = .string(field.typeName) }
        return .object(type)
    }
}
