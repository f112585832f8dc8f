import SurveyCore

/// How `import` reads a QuestionnaireResponse. The profile decides the reading, never the response's shape:
/// under `r4` the response is matched against the Questionnaire's structure (`FHIRResponseReader`); under
/// `c3pro` it is read as C3-PRO writes it (`answers(inC3PROResponse:)`).
extension FHIRSurvey {
    public func readPayload(_ payload: JSONCursor, settings: SessionSettings) throws(InputError) -> PayloadReading {
        let object = try payload.object(for: "a QuestionnaireResponse")
        let kind = try object.required("resourceType", in: "the QuestionnaireResponse").string(for: "\"resourceType\"")
        guard kind == "QuestionnaireResponse" else {
            throw object.cursor.error("expected \"resourceType\": \"QuestionnaireResponse\", found \"\(kind)\"")
        }
        let list = try object["item"].map { cursor throws(InputError) in try cursor.array(for: "\"item\"") } ?? []
        if settings.profile == Self.c3proProfile {
            return PayloadReading(file: payload.file.path, answers: try answers(inC3PROResponse: list))
        }
        var reader = FHIRResponseReader(survey: self, file: payload.file.path)
        try reader.read(list, parent: nil, prefix: "")
        return PayloadReading(file: payload.file.path, answers: reader.answers, problems: reader.problems)
    }

    public func answers(inPayload payload: JSONCursor) throws(InputError) -> [(question: String, value: JSONValue)] {
        try readPayload(payload, settings: SessionSettings()).answers.map { ($0.question, $0.value) }
    }
}

/// Reads an R4 QuestionnaireResponse against the Questionnaire (§A2): each response item is matched with an
/// item among those the Questionnaire has at that place (children of a group under `item`, of a question
/// under `answer.item`); the n-th sibling with a repeating group's linkId is its instance n, the n-th with a
/// linkId several sibling items share is the n-th of them (que-2). What a scenario cannot reproduce is listed
/// at its place with why, never dropped silently: a response item without linkId or naming no item there, a
/// repeat of an item or group that does not repeat, several answers on an item that does not repeat, an
/// answer of a type the item's answers never have, answers on a group or display item.
struct FHIRResponseReader {
    let survey: FHIRSurvey
    let file: String
    /// Which items may stand where, worked out once a survey.
    private let places: FHIRResponsePlaces
    private(set) var answers: [PayloadReading.Answer] = []
    private(set) var problems: [Diagnostic] = []

    init(survey: FHIRSurvey, file: String) {
        self.survey = survey
        self.file = file
        places = survey.places
    }

    /// Reads the response items of one level: those under the item `parent` (nil at the top level), among
    /// whose children (`FHIRResponsePlaces`) each is looked up; `prefix` starts the ids of their instances.
    mutating func read(_ list: [JSONCursor], parent: Int?, prefix: String) throws(InputError) {
        // How many siblings so far read each linkId, by its first candidate: a linkId has the same candidates
        // wherever it stands under one parent, and two linkIds none in common.
        var occurrences: [Int: Int] = [:]
        for entry in list { try read(entry, parent: parent, prefix: prefix, occurrences: &occurrences) }
    }

    /// Reads one top-level response item that follows `earlier` top-level items read as the same item (the
    /// same first candidate). Reading a response's top-level items one by one this way, each with the number
    /// of those before it, gives what reading their list gives: the list's reading carries nothing else from
    /// one item to the next.
    mutating func read(topLevel entry: JSONCursor, earlier: Int) throws(InputError) {
        var occurrences: [Int: Int] = [:]
        if earlier > 0, let linkId = entry.object?["linkId"]?.stringValue, let first = places.items(linkId, under: nil).first {
            occurrences[first] = earlier
        }
        try read(entry, parent: nil, prefix: "", occurrences: &occurrences)
    }

    /// One response item among its siblings; `occurrences` counts the siblings read so far by first candidate.
    private mutating func read(_ entry: JSONCursor, parent: Int?, prefix: String, occurrences: inout [Int: Int]) throws(InputError) {
        let object = try entry.object(for: "a response item")
        guard let linkId = object["linkId"]?.stringValue, !linkId.isEmpty else {
            try lose(object, because: "the response item has no linkId, which R4 requires (1..1), so the Questionnaire item it answers is unknown")
            return
        }
        let candidates = places.items(linkId, under: parent)
        guard let first = candidates.first else {
            try lose(object, because: missing(linkId, parent: parent))
            return
        }
        let count = (occurrences[first] ?? 0) + 1
        occurrences[first] = count
        if survey.items[first].isRepeatingGroup {
            try readGroup(object, item: first, prefix: "\(prefix)\(survey.items[first].id)#\(count)/")
            return
        }
        guard count <= candidates.count else {
            let item = survey.items[first]
            let why =
                item.repeats
                ? "the response repeats the item '\(linkId)': a repeating question's answers go in one item (qrs-2), so this item \(count) is not reproduced"
                : "the response repeats '\(linkId)', which does not repeat (the Questionnaire has \(candidates.count) \(item.type.rawValue) item\(candidates.count == 1 ? "" : "s") '\(linkId)' here): the scenario cannot reproduce its item \(count)"
            try lose(object, because: why)
            return
        }
        let index = candidates[count - 1]
        if survey.items[index].type.takesAnswers {
            try readQuestion(object, item: index, prefix: prefix)
        } else {
            try readGroup(object, item: index, prefix: prefix)
        }
    }

    /// A group or display item (or one instance of a repeating group): it takes no answers; its items are read.
    private mutating func readGroup(_ object: JSONObjectCursor, item index: Int, prefix: String) throws(InputError) {
        let item = survey.items[index]
        if let answerList = object["answer"] {
            for answer in try answerList.array(for: "\"answer\"") {
                try lose(answer, because: "'\(item.linkId)' is \(item.type.withArticle) item, which takes no answers")
            }
        }
        if let nested = object["item"] {
            try read(try nested.array(for: "\"item\""), parent: index, prefix: prefix)
        }
    }

    private mutating func readQuestion(_ object: JSONObjectCursor, item index: Int, prefix: String) throws(InputError) {
        let item = survey.items[index]
        let id = prefix + item.id
        var values: [JSONValue] = []
        var nestedLists: [(number: Int, items: [JSONCursor])] = []
        // Worked out once for all the answers (a choice item's from its options).
        let types = item.answerTypes
        for answer in try object["answer"].map({ cursor throws(InputError) in try cursor.array(for: "\"answer\"") }) ?? [] {
            let answerObject = try answer.object(for: "an answer")
            guard let value = FHIRValues.members(answerObject, prefix: "value").first else {
                throw answer.error("the answer has no value[x]; expected valueBoolean, valueCoding, valueString…")
            }
            let json = value.cursor.node.plain
            if !types.contains(value.type) {
                let expected = types.map { "value" + $0.rawValue }.joined(separator: " or ")
                try lose(answer, because: "\(value.key) on the \(item.type.rawValue) item '\(item.linkId)', whose answers are \(expected) (§A2): the session cannot take it")
                continue
            }
            if !item.repeats, !values.isEmpty {
                try lose(answer, because: "'\(item.linkId)' does not repeat, yet the response gives it several answers: the scenario answers the first only")
                continue
            }
            values.append(json)
            if let nested = answerObject["item"] { nestedLists.append((values.count, try nested.array(for: "\"item\""))) }
        }
        if !values.isEmpty {
            answers.append(PayloadReading.Answer(question: id, value: item.repeats ? .array(values) : values[0], location: object["answer"]?.location ?? object.cursor.location))
        }
        // The items under an answer exist once it is given (§A2: children of questions under answer.item).
        for nested in nestedLists {
            try read(nested.items, parent: index, prefix: item.repeats ? "\(id)#\(nested.number)/" : prefix)
        }
        if let nested = object["item"] {
            let list = try nested.array(for: "\"item\"")
            if item.repeats || values.isEmpty {
                for child in list {
                    try lose(
                        try child.object(for: "a response item"),
                        because: "it sits under the question '\(item.linkId)' in item.item; R4 puts items under a question in answer.item of the answer they belong to (qrs-1)\(values.isEmpty ? ", and the question has no answer" : "")")
                }
            } else {
                try read(list, parent: index, prefix: prefix)
            }
        }
    }

    /// Why a linkId cannot stand at this place.
    private func missing(_ linkId: String, parent: Int?) -> String {
        let place = parent.map { "under '\(survey.items[$0].linkId)'" } ?? "at the top level"
        guard let elsewhere = survey.itemsByLinkId[linkId]?.first else {
            return "the Questionnaire has no item '\(linkId)'\(Spelling.suggestion(for: linkId, in: survey.items.map(\.linkId)))"
        }
        let there = survey.items[elsewhere].parent.map { "under '\(survey.items[$0].linkId)'" } ?? "at the top level"
        return "the Questionnaire has no item '\(linkId)' \(place) (its '\(linkId)' is \(there))"
    }

    /// Lists every answer inside a response item (its own and its nested items'), each as not reproduced.
    private mutating func lose(_ object: JSONObjectCursor, because reason: String) throws(InputError) {
        for answer in try object["answer"].map({ cursor throws(InputError) in try cursor.array(for: "\"answer\"") }) ?? [] {
            try lose(answer, because: reason)
        }
        for nested in try object["item"].map({ cursor throws(InputError) in try cursor.array(for: "\"item\"") }) ?? [] {
            try lose(try nested.object(for: "a response item"), because: reason)
        }
    }

    /// One answer (and the items under it) not reproduced, at its place, with its value and why.
    private mutating func lose(_ answer: JSONCursor, because reason: String) throws(InputError) {
        let object = try answer.object(for: "an answer")
        let value = FHIRValues.members(object, prefix: "value").first.map { "\($0.key) \(CanonicalJSON.compact($0.cursor.node.plain))" } ?? "an answer without value[x]"
        problems.append(answer.diagnostic(.warning, "\(value) is not reproduced: \(reason)"))
        for nested in try object["item"].map({ cursor throws(InputError) in try cursor.array(for: "\"item\"") }) ?? [] {
            try lose(try nested.object(for: "a response item"), because: "it is under an answer that is not reproduced")
        }
    }
}

extension FHIRSurvey {
    /// Which items may stand where in a response, worked out when a response is first read back.
    var places: FHIRResponsePlaces { responsePlaces.get { FHIRResponsePlaces(self) } }
}

/// The Questionnaire items that may stand at each place of a response, by linkId, in document order: at the
/// top level, and under each item (its children). Worked out once a survey, for reading responses back.
struct FHIRResponsePlaces: Sendable {
    private let top: [String: [Int]]
    private let under: [[String: [Int]]]
    /// A linkId that sibling items share (que-2 forbids it), if any: response items with it are matched by
    /// their order among it, so one the response leaves out moves those after it onto the wrong item.
    let sharedLinkId: String?

    init(_ survey: FHIRSurvey) {
        func index(_ children: [Int]) -> [String: [Int]] {
            var byLinkId: [String: [Int]] = [:]
            for child in children { byLinkId[survey.items[child].linkId, default: []].append(child) }
            return byLinkId
        }
        top = index(survey.topLevel)
        under = survey.items.map { index($0.children) }
        sharedLinkId = ([top] + under).lazy.compactMap { $0.filter { $0.value.count > 1 }.keys.min() }.min()
    }

    /// The items with this linkId among those under `parent` (the top level for nil).
    func items(_ linkId: String, under parent: Int?) -> [Int] {
        (parent.map { under[$0] } ?? top)[linkId] ?? []
    }

}
