import SurveyCore

/// How the recorder shows SurveyNative questions and reads typed answers, and how `import` reads a
/// submitted payload (`{"answers": {...}}`).
extension SurveyNativeSurvey {
    public func prompt(for question: String, settings: SessionSettings) -> QuestionPrompt? {
        guard let slot = slotByID[question] else { return nil }
        let item = questions[slot]
        let (choices, hint): ([String], String) =
            switch item.kind {
            case .singleSelect(let options):
                (options.map { $0.isOther ? "\($0.title): (type text)" : $0.title }, "a number or the option's text; for Other: the number then the text, e.g. '4 Mint'")
            case .multiSelect(let options):
                (options.map { $0.isOther ? "\($0.title): (type text)" : $0.title }, "numbers to pick or unpick, separated by commas; for Other: the number then the text, e.g. '4 Oat milk'; then :next")
            case .yearPicker(let picker):
                (picker.range(today: settings.today).map { ["\($0.lowerBound)…\($0.upperBound)"] } ?? [], "a year, e.g. 1990")
            case .datePicker(let picker):
                (dateBounds(picker.bounds(today: settings.today)), "a date as yyyy-MM-dd")
            case .singleTextField, .singleTextArea: ([], "the text, as typed")
            case .multiTextField(let fields, _): (fields.map(\.label), "Label=text pairs separated by commas, e.g. 'Dogs=1, Cats=0'; then :next")
            case .dynamicLabelTextField(let labelSets, _, _): (labelSets.map { $0.joined(separator: " + ") }, "Label=text pairs of one unit, e.g. 'Feet=5, Inches=10'")
            case .addTextField: ([], "entries separated by commas (this also taps Next)")
            case .segmentSelect(let values): (values, "a number or the value")
            case .tableSelect(let options, let rows): (rows.map { "\($0): \(options.prefix(3).joined(separator: " / "))" }, "row=option pairs, e.g. 'exercise=Often'")
            case .unknown: ([], "this type cannot be answered")
            }
        var multipleChoice: QuestionPrompt.MultipleChoice?
        if case .multiSelect(let options) = item.kind {
            // A tap toggles an option; an Other row's text is one more string (reference §2).
            multipleChoice = QuestionPrompt.MultipleChoice(values: options.map { $0.isOther ? nil : .string($0.title) })
        }
        return QuestionPrompt(
            id: item.id, text: item.text, kind: item.kind.typeName, choices: choices, hint: hint + "; or any JSON value", multipleChoice: multipleChoice)
    }

    private func dateBounds(_ bounds: (min: CalendarDate?, max: CalendarDate?)) -> [String] {
        guard bounds.min != nil || bounds.max != nil else { return [] }
        return ["\(bounds.min.map(String.init(describing:)) ?? "…")…\(bounds.max.map(String.init(describing:)) ?? "…")"]
    }

    public func interpretInput(_ text: String, for question: String) -> Result<JSONValue, InputProblem> {
        let typed = text.trimmingSpaces
        if let first = typed.unicodeScalars.first, "[{\"".unicodeScalars.contains(first) {
            let bytes = Array(typed.utf8)
            switch JSONParser.parsePrefix(bytes, from: 0) {
            case .success(let parsed) where parsed.end == bytes.count: return .success(parsed.node.plain)
            case .success: return .failure(InputProblem("unexpected text after the JSON value"))
            case .failure(let error): return .failure(InputProblem("not valid JSON: \(error.message)"))
            }
        }
        guard let slot = slotByID[question] else { return .failure(InputProblem("no question '\(question)'")) }
        switch questions[slot].kind {
        case .singleSelect(let options):
            return choose(typed, from: options)
        case .segmentSelect(let values):
            if let number = Int(typed), values.indices.contains(number - 1), !values.contains(typed) {
                return .success(.string(values[number - 1]))
            }
            return .success(.string(typed))
        case .multiTextField, .dynamicLabelTextField, .tableSelect:
            var parts: [String: JSONValue] = [:]
            for pair in typed.split(separator: ",") {
                let sides = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
                guard sides.count == 2, !sides[0].isEmpty else {
                    return .failure(InputProblem("expected Label=text pairs separated by commas, e.g. 'Dogs=1, Cats=0'"))
                }
                parts[sides[0]] = .string(sides[1])
            }
            return .success(.object(parts))
        case .addTextField:
            return .success(.array(typed.split(separator: ",").map { .string(String($0).trimmingSpaces) }))
        case .multiSelect, .yearPicker, .datePicker, .singleTextField, .singleTextArea, .unknown:
            // A multiple choice is toggled by the recorder from the prompt's choices; what reaches here is text.
            return .success(.string(text))
        }
    }

    private func choose(_ typed: String, from options: [SurveyNative.Option]) -> Result<JSONValue, InputProblem> {
        let head = typed.prefix { $0 != " " }
        let rest = typed.dropFirst(head.count).drop { $0 == " " }
        if let number = Int(head) {
            guard options.indices.contains(number - 1) else {
                return .failure(InputProblem("there is no option \(number); pick 1…\(options.count)"))
            }
            let option = options[number - 1]
            if option.isOther { return .success(.object([option.title: .string(String(rest))])) }
            guard rest.isEmpty else { return .failure(InputProblem("option \(number) takes no text")) }
            return .success(.string(option.title))
        }
        for option in options where option.isOther && typed.hasPrefix(option.title + ":") {
            return .success(.object([option.title: .string(String(typed.dropFirst(option.title.count + 1)).trimmingSpaces)]))
        }
        return .success(.string(typed))
    }

    public func answers(inPayload payload: JSONCursor) throws(InputError) -> [(question: String, value: JSONValue)] {
        let object = try payload.object(for: "a SurveyNative payload")
        let answers = try object.required("answers", in: "the payload").object(for: "\"answers\"")
        return answers.members.map { ($0.key, $0.value.plain) }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
