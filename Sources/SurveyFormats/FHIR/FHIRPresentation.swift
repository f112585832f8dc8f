import SurveyCore

/// How the recorder shows items and reads typed answers, and how `import` reads a QuestionnaireResponse.
extension FHIRSurvey {
    public var hostConditionKeys: [String] { [] }

    public func prompt(for question: String, settings: SessionSettings) -> QuestionPrompt? {
        if settings.profile == Self.c3proProfile { return task().prompt(for: question, survey: self) }
        guard let index = definition(of: question) else { return nil }
        let item = items[index]
        var kind = item.type.rawValue
        if let control = item.itemControl { kind += ", shown as \(control)" }
        if item.repeats { kind += item.type == .group ? " (repeating: add/remove instances)" : " (repeats)" }
        let choices = item.options.map { FHIRValues.label($0.value) }
        let hint: String =
            switch item.type {
            case .group, .display: "takes no answer"
            case .boolean: "yes or no"
            case .integer, .decimal: "a number"
            case .choice: item.repeats ? "the options' numbers to pick or unpick, separated by commas" : "the option's number or code"
            case .openChoice: "the option's number or code, or free text"
            case .quantity: "a number and a unit, e.g. '70 kg'"
            case .date, .dateTime, .time, .string, .text, .url: "the value, e.g. \(example(for: index))"
            case .attachment, .reference: "the JSON object, e.g. \(example(for: index))"
            }
        let format = item.entryFormat.map { " (entry format \($0))" } ?? ""
        // Check boxes: each tap toggles an option.
        let multipleChoice = item.type == .choice && item.repeats ? QuestionPrompt.MultipleChoice(values: item.options.map { $0.value.json }) : nil
        return QuestionPrompt(
            id: question, text: item.text, kind: kind, choices: choices, hint: hint + format + "; or any JSON value", multipleChoice: multipleChoice)
    }

    public func interpretInput(_ text: String, for question: String) -> Result<JSONValue, InputProblem> {
        let typed = text.trimmingSpaces
        if let first = typed.unicodeScalars.first, "[{\"".unicodeScalars.contains(first) {
            do throws(InputError) {
                return .success(try JSONParser.parse(SourceFile(path: "input", text: typed)).plain)
            } catch {
                return .failure(InputProblem("not valid JSON: \(error.diagnostics.first?.message ?? "")"))
            }
        }
        guard let index = definition(of: question) else { return .failure(InputProblem("no item '\(question)'")) }
        let item = items[index]
        let parts = item.repeats ? typed.split(separator: ",").map { String($0).trimmingSpaces } : [typed]
        var values: [JSONValue] = []
        for part in parts where !part.isEmpty {
            switch single(part, item: item) {
            case .success(let value): values.append(value)
            case .failure(let problem): return .failure(problem)
            }
        }
        if item.repeats { return .success(.array(values)) }
        return values.first.map { .success($0) } ?? .failure(InputProblem("type an answer"))
    }

    private func single(_ typed: String, item: FHIR.Item) -> Result<JSONValue, InputProblem> {
        switch item.type {
        case .boolean:
            switch typed.lowercased() {
            case "yes", "y", "true": return .success(true)
            case "no", "n", "false": return .success(false)
            default: return .failure(InputProblem("type yes or no"))
            }
        case .integer, .decimal:
            guard let number = Double(typed) else { return .failure(InputProblem("type a number")) }
            return .success(.number(number))
        case .quantity:
            let pieces = typed.split(separator: " ", maxSplits: 1).map(String.init)
            guard let number = pieces.first.flatMap(Double.init) else { return .failure(InputProblem("type a number and a unit, e.g. '70 kg'")) }
            var quantity: [String: JSONValue] = ["value": .number(number)]
            if pieces.count > 1 { quantity["unit"] = .string(pieces[1]) }
            return .success(.object(quantity))
        case .choice, .openChoice:
            if let number = Int(typed), item.options.indices.contains(number - 1) { return .success(item.options[number - 1].value.json) }
            if let option = item.options.first(where: { $0.value.json.objectValue?["code"]?.stringValue == typed || $0.value.json == .string(typed) }) {
                return .success(option.value.json)
            }
            if item.type == .openChoice { return .success(.string(typed)) }
            return .failure(InputProblem("there is no option '\(typed)'; type 1…\(item.options.count) or a code"))
        default:
            return .success(.string(typed))
        }
    }

    /// The answers of a QuestionnaireResponse as C3-PRO writes it (the c3pro profile's `import`): every item
    /// named by its linkId alone (C3-PRO has no repeating groups), answers under `item.item` or `answer.item`,
    /// and items without a linkId or with one that names no item and without answers read through as
    /// wrappers (C3-PRO's sample responses wrap each answer in such an item).
    func answers(inC3PROResponse list: [JSONCursor]) throws(InputError) -> [PayloadReading.Answer] {
        var result: [PayloadReading.Answer] = []
        try c3proItems(list, into: &result)
        return result
    }

    private func c3proItems(_ list: [JSONCursor], into result: inout [PayloadReading.Answer]) throws(InputError) {
        for entry in list {
            let object = try entry.object(for: "a response item")
            if object["answer"] == nil, object["linkId"].map({ $0.stringValue.map { itemByLinkId[$0] == nil } ?? false }) ?? true {
                if let nested = object["item"] { try c3proItems(try nested.array(for: "\"item\""), into: &result) }
                continue
            }
            let linkId = try object.required("linkId", in: "the response item").string(for: "\"linkId\"")
            let item = itemByLinkId[linkId].map { items[$0] }
            if let answers = object["answer"] {
                var values: [JSONValue] = []
                var nestedLists: [[JSONCursor]] = []
                for answer in try answers.array(for: "\"answer\"") {
                    let answerObject = try answer.object(for: "an answer")
                    guard let value = FHIRValues.members(answerObject, prefix: "value").first else {
                        throw answer.error("the answer has no value[x]; expected valueBoolean, valueCoding, valueString…")
                    }
                    values.append(value.cursor.node.plain)
                    if let nested = answerObject["item"] { nestedLists.append(try nested.array(for: "\"item\"")) }
                }
                let repeats = item?.repeats == true
                // An empty answer list (C3-PRO writes one for a skipped multiple choice) is no answer.
                if !values.isEmpty {
                    result.append(PayloadReading.Answer(question: linkId, value: repeats || values.count > 1 ? .array(values) : (values.first ?? .null), location: answers.location))
                }
                // The items under an answer come after it: they exist only once the question is answered.
                for nested in nestedLists { try c3proItems(nested, into: &result) }
            }
            if let nested = object["item"] { try c3proItems(try nested.array(for: "\"item\""), into: &result) }
        }
    }
}
