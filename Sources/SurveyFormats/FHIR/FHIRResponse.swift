import SurveyCore

/// What a response is written from: the session's instances, their enablement and answers, and the clock.
struct FHIRResponseInput {
    let survey: FHIRSurvey
    let tree: FHIRInstanceTree
    let enablement: [Bool]
    /// Each instance's answers, by its position in the tree (kept whether or not it is enabled).
    let answersByPosition: [[FHIR.Value]]
    let today: CalendarDate

    init(survey: FHIRSurvey, tree: FHIRInstanceTree, enablement: [Bool], answersByPosition: [[FHIR.Value]], today: CalendarDate) {
        self.survey = survey
        self.tree = tree
        self.enablement = enablement
        self.answersByPosition = answersByPosition
        self.today = today
    }

    /// The same with the answers by instance id.
    init(survey: FHIRSurvey, tree: FHIRInstanceTree, enablement: [Bool], answers: [String: [FHIR.Value]], today: CalendarDate) {
        var byPosition = [[FHIR.Value]](repeating: [], count: tree.instances.count)
        for (id, values) in answers {
            if let position = tree.indexByID[id] { byPosition[position] = values }
        }
        self.init(survey: survey, tree: tree, enablement: enablement, answersByPosition: byPosition, today: today)
    }

    /// The answers that count: those of enabled instances (computed values included).
    func answers(at position: Int) -> [FHIR.Value] {
        enablement[position] ? answersByPosition[position] : []
    }

    /// The enabled required instances without an answer (a required group: without an answered
    /// descendant), in document order. `required` is ignored unless the item is enabled (§A1).
    var unansweredRequired: [String] {
        var missing: [String] = []
        for (position, instance) in tree.instances.enumerated() {
            let item = survey.items[instance.item]
            guard item.required, enablement[position] else { continue }
            let answered =
                item.type.takesAnswers
                ? !answers(at: position).isEmpty
                : (position + 1..<instance.end).contains { !answers(at: $0).isEmpty }
            if !answered { missing.append(instance.id) }
        }
        return missing
    }
}

/// Writes the QuestionnaireResponse of an R4 session (the c3pro session builds C3-PRO's, `FHIRC3PROResponse`).
protocol FHIRResponseWriter: Sendable {
    func response(of input: FHIRResponseInput) -> JSONValue
}

/// The R4 response as android-fhir (`getQuestionnaireResponse`) and LHC-Forms (`getFormData` with
/// noEmptyValue and noDisabledItem) export it (§A2): children of groups under `item.item`, children of
/// questions under `answer.item` of the answer they belong to, one item per repeating question, one sibling
/// per repeating-group instance; disabled items, unanswered questions, display items and groups without an
/// answered descendant left out. `status` is completed only when every enabled required item is answered;
/// `authored` is the scenario's day at midnight UTC.
struct FHIRStandardResponse: FHIRResponseWriter {
    func response(of input: FHIRResponseInput) -> JSONValue {
        var response = envelope(of: input)
        let items = children(of: nil, answer: nil, input)
        if !items.isEmpty { response["item"] = .array(items) }
        return .object(response)
    }

    /// The response's members but its items.
    func envelope(of input: FHIRResponseInput) -> [String: JSONValue] {
        var envelope: [String: JSONValue] = [
            "resourceType": "QuestionnaireResponse",
            "status": .string(input.unansweredRequired.isEmpty ? "completed" : "in-progress"),
            "authored": .string("\(input.today)T00:00:00Z"),
        ]
        if let canonical = input.survey.canonical { envelope["questionnaire"] = .string(canonical) }
        return envelope
    }

    /// The response items of the instances directly under `parent` (the top level for nil), for one answer
    /// of a question parent.
    private func children(of parent: Int?, answer: Int?, _ input: FHIRResponseInput) -> [JSONValue] {
        childPositions(of: parent, answer: answer, input).compactMap { item(at: $0, input) }
    }

    /// The positions of the instances directly under `parent` (the top level for nil), for one answer of a
    /// question parent: those whose response items `children(of:answer:_:)` writes there, when written.
    func childPositions(of parent: Int?, answer: Int?, _ input: FHIRResponseInput) -> [Int] {
        let range = parent.map { ($0 + 1)..<input.tree.instances[$0].end } ?? 0..<input.tree.instances.count
        var result: [Int] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let instance = input.tree.instances[position]
            if instance.answerIndex == answer || parent == nil { result.append(position) }
            position = instance.end
        }
        return result
    }

    /// The response item of the instance at `position` with everything under it, nil when it is left out. The
    /// response's items are those of its top-level instances, in order.
    func item(at position: Int, _ input: FHIRResponseInput) -> JSONValue? {
        let instance = input.tree.instances[position]
        let item = input.survey.items[instance.item]
        guard input.enablement[position] else { return nil }
        var result = [String: JSONValue](minimumCapacity: 3)
        result["linkId"] = .string(item.linkId)
        if let text = item.text { result["text"] = .string(text) }
        switch item.type {
        case .display:
            return nil
        case .group:
            let nested = children(of: position, answer: nil, input)
            guard !nested.isEmpty else { return nil }
            result["item"] = .array(nested)
        default:
            // LHC-Forms exports no answer for an item without a data type of its own (`_lfItemValueToFhirAnswer`
            // knows no field for 'string', src/fhir/STU3R4-common/sdc-export.js:66-146).
            if case .lhcTextBox? = item.rendering { return nil }
            let answers = input.answers(at: position)
            guard !answers.isEmpty else { return nil }
            result["answer"] = .array(
                answers.enumerated().map { index, value in
                    var entry = [String: JSONValue](minimumCapacity: 2)
                    entry[value.type.memberKey] = value.json
                    let nested = item.children.isEmpty ? [] : children(of: position, answer: index, input)
                    if !nested.isEmpty { entry["item"] = .array(nested) }
                    return .object(entry)
                })
        }
        return .object(result)
    }
}
