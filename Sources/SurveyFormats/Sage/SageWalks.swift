import SurveyCore

/// The values random walks and generation try for each step: every choice (and, for multiple choice, the
/// empty set, pairs and an exclusive choice with another, refused on purpose), range bounds and their
/// neighbours, the values the step's rules compare with and their neighbours.
extension SageSurvey {
    public func candidateValues(for question: String, settings: SessionSettings) -> [JSONValue] {
        guard let index = indexByID[question], steps[index].kind == .question else { return [] }
        let step = steps[index]
        let literals = step.rules.compactMap(\.matchingAnswer)
        var values: [JSONValue] = step.skipCheckbox.map { [$0] } ?? []
        if step.fields.count == 1, !step.answerIsObject, let field = step.fields.first {
            values += candidates(for: field, literals: literals, today: settings.today)
        } else {
            // One input at a time first, then every input answered last (what moves the step on).
            let perField = step.fields.map { candidates(for: $0, literals: [], today: settings.today) }
            values += literals.filter { $0.objectValue != nil }
            for (field, options) in zip(step.fields, perField) { values += options.dropFirst().prefix(3).map { .object([field.id: $0]) } }
            values.append(.object(Dictionary(zip(step.fields, perField).compactMap { field, values in values.first.map { (field.id, $0) } }, uniquingKeysWith: { first, _ in first })))
        }
        // Values a rule compares with come first and the others last, so that a run that keeps the last
        // value it tried (the Submit-reachability check) leaves the step on its plain path, not in a loop.
        var seen: Set<JSONValue> = []
        let unique = values.filter { seen.insert($0).inserted }
        let compared = Set(literals.flatMap { $0.arrayValue ?? [$0] })
        func isCompared(_ value: JSONValue) -> Bool { (value.arrayValue ?? [value]).contains(where: compared.contains) }
        return unique.filter(isCompared) + unique.filter { !isCompared($0) }
    }

    private func candidates(for field: Sage.Field, literals: [JSONValue], today: CalendarDate) -> [JSONValue] {
        if let components = field.components {
            return [.array(components.compactMap(\.first)), .array(components.compactMap(\.last))]
        }
        if let choices = field.choices {
            let plain = choices.compactMap { $0.isExclusive ? nil : $0.value }
            let exclusive = choices.filter(\.isExclusive).compactMap(\.value)
            var values: [JSONValue]
            if field.shape.isArray {
                values = [.array([])] + (plain + exclusive).map { .array([$0]) }
                if plain.count > 1 { values.append(.array(Array(plain.prefix(2)))) }
                if let first = plain.first, let only = exclusive.first { values.append(.array([first, only])) }
                values += literals.map { $0.arrayValue.map(JSONValue.array) ?? .array([$0]) }
            } else {
                values = choices.compactMap(\.value) + literals
            }
            if field.other != nil { values.append(field.shape.isArray ? .array([.string("Something else")]) : .string("Something else")) }
            return values
        }
        switch field.shape.base {
        case .boolean:
            return [true, false]
        case .integer, .decimal:
            var numbers: [Double] = []
            let bounds = field.bounds
            if field.typeName == "year" {
                numbers += [Double(today.year - 30), Double(today.year), Double(today.year + 1)]
            }
            if let low = bounds.minimum, let high = bounds.maximum { numbers.append(((low + high) / 2).rounded(.down)) }
            for bound in [bounds.minimum, bounds.maximum].compactMap({ $0 }) { numbers += [bound - 1, bound, bound + 1] }
            for literal in literals.compactMap(\.numberValue) { numbers += [literal - 1, literal, literal + 1] }
            if numbers.isEmpty { numbers = [1, 0] }
            if field.shape.base == .decimal { numbers.append((numbers[0] + 0.5)) }
            return numbers.map(JSONValue.number)
        case .string:
            var texts: [JSONValue] = ["Some text"] + literals.filter { $0.stringValue != nil }
            if let limit = field.text.maximumLength { texts.append(.string(String(repeating: "x", count: limit + 1))) }
            return texts
        case .date:
            var dates = [today, today.adding(days: -1), today.adding(days: 1)]
            dates += [field.bounds.minimumDate, field.bounds.maximumDate].compactMap { $0 }
            return dates.map { .string($0.description) } + literals.filter { $0.stringValue != nil }
        case .codable:
            return ["Some value"] + literals
        }
    }

    public func makeStepChecker() -> any StepChecker {
        SageStepChecker(survey: self)
    }

    /// The checkers of one walker's walks share what the other releases show after each path they take.
    public func makeStepCheckerSource() -> any StepCheckerSource {
        SageShadowTree(survey: self)
    }

    /// A condition for properties files, written as a survey rule is plus the step it tests:
    /// `{"step": "age", "ruleOperator": "ge", "matchingAnswer": 18}` (and `"field"` for a legacy form with
    /// several inputs); it holds when the rule would match the step's current answer.
    public func compileCondition(_ cursor: JSONCursor) throws(InputError) -> any SessionPredicate {
        let object = try cursor.object(for: "a condition written as a survey rule with \"step\"")
        let id = try object.required("step", in: "the condition").string(for: "\"step\"")
        guard let index = indexByID[id] else {
            throw object["step"]?.error("the task has no step '\(id)'\(Spelling.suggestion(for: id, in: questionIDs))") ?? cursor.error("no step")
        }
        let step = steps[index]
        var field = 0
        if let name = object["field"] {
            let fieldID = try name.string(for: "\"field\"")
            guard let position = step.fields.firstIndex(where: { $0.id == fieldID }) else {
                throw name.error("step '\(id)' has no input '\(fieldID)'\(Spelling.suggestion(for: fieldID, in: step.fields.map(\.id)))")
            }
            field = position
        }
        var ruleOperator: Sage.RuleOperator?
        if let raw = object["ruleOperator"] {
            let text = try raw.string(for: "\"ruleOperator\"")
            guard let parsed = Sage.RuleOperator(rawValue: text), generation.operators.contains(parsed) else {
                throw raw.error("unknown ruleOperator '\(text)'; expected one of \(generation.operators.map(\.rawValue).joined(separator: ", "))")
            }
            ruleOperator = parsed
        }
        let rule = Sage.Rule(
            step: index, field: field, skipTo: nil, written: ruleOperator,
            matchingAnswer: object["matchingAnswer"].flatMap { $0.isNull ? nil : $0.node.plain }, cohort: nil, location: object.location,
            targetLocation: object.location)
        return SagePredicate(rule: rule)
    }
}

/// A rule-shaped condition from a properties file, tested on the answer the step holds now, as the session's
/// engine compares.
struct SagePredicate: SessionPredicate {
    let rule: Sage.Rule

    func holds(in session: any SurveySession) -> Bool {
        guard let session = session as? SageSession else { return false }
        let step = session.survey.steps[rule.step]
        let field = step.fields.indices.contains(rule.field) ? step.fields[rule.field] : nil
        var answer = session.answer(for: step.id)
        if session.survey.generation == .legacy, step.fields.count > 1, let field { answer = answer?.objectValue?[field.id] }
        return rule.matches(.found(answer), field: field, answerIsObject: step.answerIsObject, engine: session.engine)
    }
}
