import SurveyCore

/// What a scenario's answer means for an item (§A2 item type → value mapping): a boolean, a number, a date
/// string, a Coding object, a Quantity object…, and a list of them for a repeating item. A choice answer
/// must be one of the options (a Coding matched by code, and by system when given) and is stored as the
/// option is written; an open-choice item also takes free text. `options`, when given, are the options an
/// SDC expression computed for the instance (answerExpression, answerOptionsToggleExpression).
extension FHIRSurvey {
    func interpret(_ json: JSONValue, forItem index: Int, options: [FHIR.Value]? = nil) -> Result<[FHIR.Value], InputProblem> {
        // The item's parts are read in place (`items[index].…`): an item is a large value to copy.
        let elements: [JSONValue]
        if items[index].repeats {
            guard let list = json.arrayValue else {
                return .failure(InputProblem("'\(items[index].linkId)' repeats: expected a list of answers, e.g. [\(example(for: index))]"))
            }
            elements = list
            if let maxOccurs = items[index].maxOccurs, list.count > maxOccurs {
                return .failure(InputProblem("'\(items[index].linkId)' takes at most \(maxOccurs) answers (questionnaire-maxOccurs), not \(list.count)"))
            }
        } else {
            if json.arrayValue != nil {
                return .failure(InputProblem("'\(items[index].linkId)' does not repeat: expected one answer, not a list"))
            }
            elements = [json]
        }
        var values: [FHIR.Value] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            switch value(element, forItem: index, options: options) {
            case .success(let value): values.append(value)
            case .failure(let message): return .failure(message)
            }
        }
        return .success(values)
    }

    private func value(_ json: JSONValue, forItem index: Int, options computed: [FHIR.Value]?) -> Result<FHIR.Value, InputProblem> {
        // The usual answers, found without copying the item: a well-typed value, one of the options.
        if items[index].rendering == nil {
            if let type = items[index].type.valueType {
                if FHIRValues.problem(json, as: type) == nil { return .success(FHIR.Value(type, json)) }
            } else if computed == nil, let option = writtenOption(matching: json, forItem: index) {
                return .success(option)
            }
        }
        let item = items[index]
        let options = computed ?? item.options.map(\.value)
        if case .lhcTextBox(let written)? = item.rendering {
            // LHC-Forms renders an item it has no data type for as a text box.
            guard let text = json.stringValue, !text.isEmpty else {
                let what = written.map { "a \($0) item" } ?? "an item without a type"
                return .failure(InputProblem("'\(item.linkId)' is \(what), which LHC-Forms renders as a text box: expected a non-empty string, found \(CanonicalJSON.compact(json))"))
            }
            return .success(FHIR.Value(.string, json))
        }
        if let type = item.type.valueType {
            if let problem = FHIRValues.problem(json, as: type) {
                return .failure(InputProblem("'\(item.linkId)' is \(item.type.withArticle) item: \(problem), found \(CanonicalJSON.compact(json))"))
            }
            return .success(FHIR.Value(type, json))
        }
        if let option = options.first(where: { Self.option($0, matches: json) }) {
            return .success(option)
        }
        if item.type == .openChoice, let text = json.stringValue, !text.isEmpty {
            return .success(FHIR.Value(.string, json))
        }
        if options.isEmpty, computed == nil, FHIRValues.problem(json, as: .coding) == nil {
            // No options in the file (an external value set): any Coding is taken.
            return .success(FHIR.Value(.coding, json))
        }
        let choices = options.prefix(8).map(FHIRValues.label).joined(separator: ", ")
        let more = options.count > 8 ? ", …" : ""
        let free = item.type == .openChoice ? ", or free text as a string" : ""
        return .failure(InputProblem("\(CanonicalJSON.compact(json)) is not an option of '\(item.linkId)'; expected one of \(choices)\(more)\(free)"))
    }

    /// The first of the item's own options a scenario value picks (`option(_:matches:)`). A Coding with a code
    /// is looked up among the options with that code, when all the item's options are Codings.
    private func writtenOption(matching json: JSONValue, forItem index: Int) -> FHIR.Value? {
        if let address = json.objectAddress, let coded = codedOptions.value(for: index, { FHIRCodedOptions(items[index].options) }) {
            // An option's own object (a walk's value) picks what its members pick, found without hashing them.
            if let own = coded.addresses.firstIndex(of: address) { return items[index].options[coded.picked[own]].value }
            if let given = json.objectValue, let code = given["code"] {
                return coded.position(code: code, system: given["system"]).map { items[index].options[$0].value }
            }
        }
        return items[index].options.first(where: { Self.option($0.value, matches: json) })?.value
    }

    /// Whether a scenario value picks an option: a Coding by code (and system when the value gives one),
    /// anything else by equal JSON.
    static func option(_ option: FHIR.Value, matches json: JSONValue) -> Bool {
        guard option.type == .coding else { return option.json == json }
        guard let given = json.objectValue, let wanted = option.json.objectValue else { return false }
        if let system = given["system"], system != wanted["system"] { return false }
        if let code = given["code"] { return code == wanted["code"] }
        return given["display"] != nil && given["display"] == wanted["display"]
    }

    /// Why values break the item's typing limits or bounds (enforced on input, as the reference's
    /// recommended rule 5 says), or nil. The first of each kind, as engines show one message.
    func limitProblem(_ values: [FHIR.Value], forItem index: Int) -> Outcome? {
        guard items[index].maxLength != nil || items[index].minValue != nil || items[index].maxValue != nil else { return nil }
        let item = items[index]
        for value in values {
            if let maxLength = item.maxLength, let text = value.json.stringValue, text.count > maxLength {
                return .rejected("'\(item.linkId)' takes at most \(maxLength) characters (maxLength); \"\(text)\" has \(text.count)")
            }
            if let low = item.minValue, let order = FHIRValues.compare(value, low), order < 0 {
                return .validationFailed("'\(item.linkId)' must be at least \(FHIRValues.label(low)) (minValue)")
            }
            if let high = item.maxValue, let order = FHIRValues.compare(value, high), order > 0 {
                return .validationFailed("'\(item.linkId)' must be at most \(FHIRValues.label(high)) (maxValue)")
            }
        }
        return nil
    }

    /// The values an item starts with: `initial`, else the options marked initialSelected (§A2); one only
    /// when the item does not repeat.
    func initialValues(_ index: Int) -> [FHIR.Value] {
        let item = items[index]
        guard item.type.takesAnswers else { return [] }
        let values = item.initial.isEmpty ? item.options.filter(\.initialSelected).map(\.value) : item.initial
        return item.repeats ? values : Array(values.prefix(1))
    }

    /// An answer of the item's shape, for messages.
    func example(for index: Int) -> String {
        let item = items[index]
        if let option = item.options.first { return CanonicalJSON.compact(option.value.json) }
        switch item.type.valueType {
        case .boolean?: return "true"
        case .decimal?: return "1.5"
        case .integer?: return "1"
        case .date?: return "\"2024-05-01\""
        case .dateTime?: return "\"2024-05-01T09:30:00Z\""
        case .time?: return "\"09:30:00\""
        case .string?, .uri?: return "\"text\""
        case .quantity?: return #"{"unit":"kg","value":70}"#
        case .reference?: return #"{"reference":"Patient/example"}"#
        case .attachment?: return #"{"contentType":"text/plain","title":"note.txt"}"#
        case .coding?, nil: return #"{"code":"a","system":"http://example.org"}"#
        }
    }
}

/// An item's options when all are Codings, by code, in document order, each with its system: a Coding given
/// with that code picks the first whose system it gives, or the first if it gives none (as
/// `FHIRSurvey.option(_:matches:)` says; a Coding given with a code never picks an option without one).
struct FHIRCodedOptions: Sendable {
    let byCode: [JSONValue: [(position: Int, system: JSONValue?)]]
    /// The objects of the options with a code by where their members are stored (`JSONValue.objectAddress`),
    /// and the option each picks (`position(code:system:)` of its own code and system): the survey holds
    /// these objects, so an address found here is that very object.
    private(set) var addresses: [UInt] = []
    private(set) var picked: [Int] = []

    /// Nil when an option is not a Coding (such an option is matched as whole JSON).
    init?(_ options: [FHIR.AnswerOption]) {
        var byCode: [JSONValue: [(position: Int, system: JSONValue?)]] = [:]
        for (position, option) in options.enumerated() {
            guard option.value.type == .coding, let coding = option.value.json.objectValue else { return nil }
            if let code = coding["code"] { byCode[code, default: []].append((position, coding["system"])) }
        }
        self.byCode = byCode
        for option in options {
            guard let address = option.value.json.objectAddress, let coding = option.value.json.objectValue, let code = coding["code"],
                let position = position(code: code, system: coding["system"])
            else { continue }
            addresses.append(address)
            picked.append(position)
        }
    }

    /// The option a Coding with this code and system (or none) picks.
    func position(code: JSONValue, system: JSONValue?) -> Int? {
        byCode[code]?.first { system == nil || system == $0.system }?.position
    }
}
