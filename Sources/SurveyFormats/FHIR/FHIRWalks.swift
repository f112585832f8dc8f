import SurveyCore

/// The values random walks and generation try for an item: its options (alone, in pairs and all of them for
/// a repeating item), the values enableWhen conditions compare it with and their neighbours, its bounds and
/// one step beyond them (refused on purpose), and one plain value of its type. Every value has the shape a
/// scenario writes, so a walk never makes a scenario that does not fit.
extension FHIRSurvey {
    public func candidateValues(for question: String, settings: SessionSettings) -> [JSONValue] {
        guard let index = definition(of: question) else { return [] }
        let item = items[index]
        guard item.type.takesAnswers, !item.readOnly else { return [] }
        var singles: [JSONValue] = item.options.map(\.value.json)
        let literals = conditionsReading[index].filter { $0.op != .exists }.map(\.answer) + expressionLiterals(reading: index)
        switch item.type {
        case .boolean:
            singles = [true, false]
        case .integer, .decimal:
            var numbers: [Double] = literals.compactMap(\.json.numberValue).flatMap { [$0, $0 - 1, $0 + 1] }
            for bound in [item.minValue, item.maxValue].compactMap({ $0?.json.numberValue }) { numbers += [bound, bound - 1, bound + 1] }
            numbers.append(item.type == .integer ? 1 : 1.5)
            if item.type == .integer { numbers = numbers.map { $0.rounded() } }
            singles = numbers.map(JSONValue.number)
        case .date:
            singles = literals.filter { $0.type == .date }.map(\.json) + [.string(settings.today.description)]
            for bound in [item.minValue, item.maxValue].compactMap({ $0 }) where bound.type == .date { singles.append(bound.json) }
        case .dateTime:
            singles = literals.filter { $0.type == .dateTime }.map(\.json) + [.string("\(settings.today)T09:30:00Z")]
        case .time:
            singles = literals.filter { $0.type == .time }.map(\.json) + ["09:30:00"]
        case .string, .text:
            singles = literals.filter { $0.type == .string }.map(\.json) + ["Some text"]
            if let maxLength = item.maxLength, maxLength >= 0, maxLength < 10_000 { singles.append(.string(String(repeating: "x", count: maxLength + 1))) }
        case .url:
            singles = ["https://example.org"]
        case .choice:
            if item.options.isEmpty { singles = literals.filter { $0.type == .coding }.map(\.json) + [#"{"code":"example","system":"http://example.org"}"# as JSONValue] }
        case .openChoice:
            singles += literals.filter { $0.type == .string }.map(\.json) + ["Something else"]
        case .quantity:
            // In the item's own unit when it names one (C3-PRO's questionnaire-units), else a plain one.
            singles = literals.filter { $0.type == .quantity }.map(\.json) + [["value": 1, "unit": .string(item.c3pro.unit ?? "kg")]]
        case .attachment:
            singles = [["contentType": "text/plain", "title": "note.txt"]]
        case .reference:
            singles = [["reference": "Patient/example"]]
        case .group, .display:
            singles = []
        }
        var seen: Set<JSONValue> = []
        singles = singles.filter { seen.insert($0).inserted }
        guard item.repeats else { return singles }
        var lists: [JSONValue] = singles.map { .array([$0]) }
        if singles.count > 1 { lists += [.array(Array(singles.prefix(2))), .array(singles)] }
        return lists
    }

    /// The literals of the SDC expressions that read the item (`answer.value >= 25`, `code = 'x'`) and of the
    /// variables they read (`answer.value >= %adultAge` compares with what adultAge's `iif(…, 21, 18)` gives), as
    /// values of the types conditions compare: numbers, strings, dates, times, quantities.
    private func expressionLiterals(reading index: Int) -> [FHIR.Value] {
        var nodes: [Int] = []
        var seen: Set<Int> = []
        func add(_ node: Int) {
            guard seen.insert(node).inserted else { return }
            nodes.append(node)
            for variable in expressionProgram.nodes[node].variables.values.sorted() { add(variable) }
        }
        expressionProgram.readersOfItem[index].forEach(add)
        return nodes.flatMap { expressionProgram.nodes[$0].literals }.compactMap { literal -> FHIR.Value? in
            switch literal {
            case .integer(let number): FHIR.Value(.integer, .number(Double(number)))
            case .decimal(let number): Double(number.description).map { FHIR.Value(.decimal, .number($0)) }
            case .string(let text): FHIR.Value(.string, .string(text))
            case .dateTime(let date): FHIR.Value(date.kind == .date ? .date : date.kind == .time ? .time : .dateTime, .string(date.description))
            case .quantity(let quantity): Double(quantity.value.description).map { FHIR.Value(.quantity, ["value": .number($0), "unit": .string(quantity.unit)]) }
            case .boolean, .empty: nil
            }
        }
    }

    public func makeStepChecker() -> any StepChecker {
        FHIRStepChecker(survey: self)
    }

    /// An enableWhen object (`{"question": …, "operator": …, "answer<Type>": …}`) or a list of them (all must
    /// hold), for properties files; evaluated on the first instance of its source, with the standard rules.
    public func compileCondition(_ cursor: JSONCursor) throws(InputError) -> any SessionPredicate {
        let entries = cursor.elements ?? [cursor]
        var conditions: [FHIR.EnableWhen] = []
        for entry in entries {
            let object = try entry.object(for: "an enableWhen condition")
            let question = try object.required("question", in: "the condition").string(for: "\"question\"")
            guard itemByLinkId[question] != nil else {
                throw entry.error("the condition reads '\(question)', which no item has\(Spelling.suggestion(for: question, in: questionIDs))")
            }
            let name = try object.required("operator", in: "the condition").string(for: "\"operator\"")
            guard let op = FHIR.Operator(rawValue: name) else { throw entry.error("unknown operator \"\(name)\"; expected one of exists, =, !=, >, <, >=, <=") }
            let found = FHIRValues.members(object, prefix: "answer")
            guard found.count == 1, let member = found.first else { throw entry.error("expected one answer[x] in the condition") }
            let json = member.cursor.node.plain
            if let problem = FHIRValues.problem(json, as: member.type) { throw member.cursor.error("\(problem) for \"\(member.key)\"") }
            conditions.append(FHIR.EnableWhen(question: question, op: op, answer: FHIR.Value(member.type, json), location: entry.location))
        }
        return FHIRPredicate(conditions: conditions)
    }
}

/// A properties-file condition: every enableWhen holds on the session's answers now (a disabled source
/// counts as unanswered, as in the engine).
struct FHIRPredicate: SessionPredicate {
    let conditions: [FHIR.EnableWhen]

    func holds(in session: any SurveySession) -> Bool {
        if let session = session as? FHIRC3PROSession { return conditions.allSatisfy { session.holds($0) } }
        guard let session = session as? FHIRSession else { return false }
        return conditions.allSatisfy { session.holds($0) }
    }
}
