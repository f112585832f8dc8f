import SurveyCore

/// The values random walks and generation try for each question (reference §1, §2, §5, §7): every option,
/// boundary values from validations and picker ranges, the literals conditions compare the question with
/// and their neighbours, and refusals on purpose (a year off the picker, text failing a validation). Every
/// value has the shape the engine stores, so a walk never makes a scenario that does not fit the survey.
extension SurveyNativeSurvey {
    public func candidateValues(for question: String, settings: SessionSettings) -> [JSONValue] {
        guard let slot = slotByID[question] else { return [] }
        let literals = leavesAbout[slot]
        var values: [JSONValue]
        switch questions[slot].kind {
        case .singleSelect(let options):
            values = options.flatMap { option -> [JSONValue] in
                switch option {
                case .plain(let title): [.string(title)]
                case .other(let title, let validations): texts(for: validations, literals: []).map { .object([title: .string($0)]) }
                }
            }
        case .multiSelect(let options):
            // Each option once, even when the file lists one twice: the engine takes an answer's options once each.
            var seen: Set<String> = []
            let plain = options.compactMap { option -> String? in
                if case .plain(let title) = option, seen.insert(title).inserted { return title }
                return nil
            }
            values = [.array([])] + plain.map { .array([.string($0)]) }
            if plain.count > 1 { values += [.array(plain.prefix(2).map(JSONValue.string)), .array(plain.map(JSONValue.string))] }
            if case .other(_, let validations)? = options.first(where: \.isOther), let first = plain.first {
                values += texts(for: validations, literals: []).prefix(2).map { .array([.string(first), .string($0)]) }
            }
            values += literals.compactMap { literal -> JSONValue? in
                guard case .string(let text) = literal.operand, plain.contains(text) else { return nil }
                return .array([.string(text)])
            }
        case .yearPicker(let picker):
            var years: [Int] = []
            if let range = picker.range(today: settings.today) {
                years = [range.upperBound, range.lowerBound, (range.lowerBound + range.upperBound) / 2]
                if let initial = picker.initialYear.flatMap(Int.init), range.contains(initial) { years.insert(initial, at: 0) }
                years += [range.lowerBound - 1, range.upperBound + 1]
            }
            years += literals.flatMap { literal in neighbours(of: literal.operand).compactMap { Int($0) } }
            values = years.map { .string(String($0)) }
        case .datePicker(let picker):
            let bounds = picker.bounds(today: settings.today)
            var dates: [CalendarDate] = [settings.today]
            if let low = bounds.min { dates += [low, low.adding(days: -1)] }
            if let high = bounds.max { dates += [high, high.adding(days: 1)] }
            dates += literals.compactMap { $0.operand?.stringValue.flatMap(CalendarDate.init(iso:)) }
            values = dates.map { .string($0.description) }
        case .singleTextField(let maxChars, let validations):
            values = texts(for: validations, literals: literals).map(JSONValue.string)
            if case .limit(let limit) = maxChars, limit >= 0 {
                values += [.string(String(repeating: "9", count: limit + 1))]
            }
        case .singleTextArea:
            values = ["Some text", ""] + literals.compactMap { $0.operand?.stringValue.map(JSONValue.string) }
        case .multiTextField(let fields, let validations):
            let texts = texts(for: validations, literals: [])
            // Without fields there is nothing to type in: the question takes no answer.
            values = fields.isEmpty ? [] : [.object(Dictionary(fields.map { ($0.label, JSONValue.string(texts[0])) }, uniquingKeysWith: { first, _ in first }))]
            for field in fields {
                values += texts.dropFirst().map { .object([field.label: .string($0)]) }
            }
        case .dynamicLabelTextField(let labelSets, _, let validations):
            values = []
            for labels in labelSets where !labels.isEmpty {
                let perLabel = labels.map { label in texts(for: validations.filter { $0.forLabel == label }, literals: []) }
                values.append(.object(Dictionary(zip(labels, perLabel).map { ($0, JSONValue.string($1[0])) }, uniquingKeysWith: { first, _ in first })))
                for (label, texts) in zip(labels, perLabel) {
                    values += texts.dropFirst().map { .object([label: .string($0)]) }
                }
            }
        case .addTextField:
            values = [.array([.string("One")]), .array([]), .array([.string("One"), .string("Two")]), .array([.string(""), .string("Three")])]
            values += literals.compactMap { $0.operand?.stringValue.map { .array([.string($0)]) } }
        case .segmentSelect(let values_):
            values = values_.map(JSONValue.string)
        case .tableSelect(let options, let rows):
            let honoured = Array(options.prefix(3))
            // Without rows there is nothing to pick: the question takes no answer.
            values = rows.isEmpty ? [] : honoured.map { option in .object(Dictionary(rows.map { ($0, JSONValue.string(option)) }, uniquingKeysWith: { first, _ in first })) }
            for row in rows { values += honoured.map { .object([row: .string($0)]) } }
            if options.count > 3, let row = rows.first { values.append(.object([row: .string(options[3])])) }
        case .unknown:
            values = [.string("Answer")]
        }
        var seen: Set<JSONValue> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// Texts for a field with these validations: a value that passes every constant bound first, then each
    /// bound's neighbours (one of each side fails on purpose), then a non-number; and the literals
    /// conditions use, with their neighbours. A bound that is another question's answer gets the
    /// neighbours of that question's own candidate numbers, so some walks pass it and some fail it.
    private func texts(for validations: [SurveyNative.Validation], literals: [ConditionLeaf], followingAnswers: Bool = true) -> [String] {
        var low: Double?
        var high: Double?
        var boundaries: [String] = []
        for validation in validations {
            if followingAnswers, case .answer(let other) = validation.operand {
                boundaries += answerNumbers(of: other).flatMap { neighbours(of: .number($0)) }
                continue
            }
            guard case .value(let operand) = validation.operand, let bound = SurveyNativeComparison.number(operand) else { continue }
            switch validation.comparison {
            case .greaterThan, .greaterThanOrEqual: low = max(low ?? bound, bound)
            case .lessThan, .lessThanOrEqual: high = min(high ?? bound, bound)
            case .unimplemented: break
            }
            boundaries += neighbours(of: .number(bound))
        }
        let valid: Double =
            switch (low, high) {
            case (let low?, let high?): ((low + high) / 2).rounded(.down)
            case (let low?, nil): low + 1
            case (nil, let high?): high - 1
            case (nil, nil): 1
            }
        var texts = [CanonicalJSON.format(number: valid)] + boundaries
        texts += literals.flatMap { neighbours(of: $0.operand) }
        if !validations.isEmpty { texts.append("abc") }
        var seen: Set<String> = []
        return texts.filter { seen.insert($0).inserted }
    }

    /// The numbers a text question's candidate values hold (for validations against its answer).
    private func answerNumbers(of question: String) -> [Double] {
        guard let slot = slotByID[question], case .singleTextField(_, let validations) = questions[slot].kind else { return [] }
        return texts(for: validations, literals: leavesAbout[slot], followingAnswers: false).compactMap { SurveyNativeComparison.number(.string($0)) }
    }

    /// A literal and, for a number, the numbers one below and above it, as strings.
    private func neighbours(of operand: JSONValue?) -> [String] {
        guard let operand else { return [] }
        if let number = SurveyNativeComparison.number(operand), number.isFinite, abs(number) < 1e12 {
            return [number - 1, number, number + 1].map { CanonicalJSON.format(number: $0) }
        }
        return operand.stringValue.map { [$0] } ?? []
    }

    public func makeStepChecker() -> any StepChecker {
        SurveyNativeStepChecker(survey: self)
    }

    public func compileCondition(_ cursor: JSONCursor) throws(InputError) -> any SessionPredicate {
        guard cursor.object != nil else {
            throw cursor.error("expected a condition as SurveyNative writes show_if: an object with \"id\", \"subconditions\" or operation \"custom\"")
        }
        let (condition, warnings, crashes) = SurveyNativeDecoder.condition(cursor)
        let (compiled, unknownIDs, lacksValue) = SurveyNativeConditionIndex.compile(
            condition, file: cursor.file.path, slotByID: slotByID, crashes: crashes, questionIDs: { self.questionIDs })
        var problems = warnings.map { warning in
            var error = warning
            error.severity = .error
            return error
        }
        problems += unknownIDs
        if lacksValue { problems.append(cursor.diagnostic(.error, "the condition has no \"value\"; expected one")) }
        if !problems.isEmpty { throw InputError(problems) }
        return SurveyNativePredicate(condition: compiled)
    }
}

/// A condition from a properties file, tested on a session's current answers with the engine's semantics.
struct SurveyNativePredicate: SessionPredicate {
    let condition: CompiledCondition

    func holds(in session: any SurveySession) -> Bool {
        guard let session = session as? SurveyNativeSession else { return false }
        return (try? condition.evaluate(answers: session.state.answers, host: session.state.hostOutcomes)) ?? false
    }
}
