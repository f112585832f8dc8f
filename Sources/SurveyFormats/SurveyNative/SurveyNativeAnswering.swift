import SurveyCore

/// How each question type takes an answer and a tap on Next (reference §2, §5, §6). One `answer` action is
/// one whole interaction (pick, type and commit); a value the survey cannot hold at all (a missing option,
/// the wrong shape) does not fit the survey, while one the engine refuses (a year off the picker, text over
/// `max_chars`, a failed validation) is a refusal.
extension SurveyNativeSession {
    func answer(_ slot: Int, with value: JSONValue) throws(EngineCrash) -> Outcome {
        switch survey.questions[slot].kind {
        case .singleSelect(let options):
            return try answerSingleSelect(slot, options, value)
        case .multiSelect(let options):
            return try answerMultiSelect(slot, options, value)
        case .yearPicker(let picker):
            guard let text = value.stringValue, let year = Int(text), String(year) == text else {
                return misfit(slot, found: value)
            }
            guard let range = picker.range(today: today) else {
                return .rejected("the year picker of '\(survey.questions[slot].id)' offers no years (its minimum is after its maximum)")
            }
            guard range.contains(year) else {
                return .rejected("the year picker of '\(survey.questions[slot].id)' offers \(range.lowerBound)…\(range.upperBound) (today is \(today)), not \(year)")
            }
            try commit(slot, value)
        case .datePicker(let picker):
            guard let text = value.stringValue, let date = CalendarDate(iso: text) else {
                return misfit(slot, found: value)
            }
            let bounds = picker.bounds(today: today)
            if let low = bounds.min, date < low {
                return .rejected("the date picker of '\(survey.questions[slot].id)' starts at \(low) (today is \(today)); \(date) is before it")
            }
            if let high = bounds.max, date > high {
                return .rejected("the date picker of '\(survey.questions[slot].id)' ends at \(high) (today is \(today)); \(date) is after it")
            }
            try commit(slot, value)
        case .singleTextField(let maxChars, let validations):
            guard let text = value.stringValue else { return misfit(slot, found: value) }
            if let refusal = typingRefusal(text, maxChars, field: survey.questions[slot].id) { return .rejected(refusal) }
            if let message = try firstFailure(validations, text: text) { return .validationFailed(message) }
            try commit(slot, value)
        case .singleTextArea:
            guard value.stringValue != nil else { return misfit(slot, found: value) }
            try commit(slot, value)
        case .multiTextField(let fields, let validations):
            return try answerMultiTextField(slot, fields, validations, value)
        case .dynamicLabelTextField(let labelSets, let metadataID, let validations):
            return try answerDynamicLabels(slot, labelSets, metadataID, validations, value)
        case .addTextField:
            guard let texts = strings(in: value) else { return misfit(slot, found: value) }
            // Next sends the non-empty texts in field order through `update` (AddTextFieldTableViewCell.swift:54-63).
            try commit(slot, .array(texts.filter { !$0.isEmpty }.map(JSONValue.string)))
        case .segmentSelect(let values):
            guard let choice = value.stringValue, values.contains(choice) else { return misfit(slot, found: value) }
            try commit(slot, value)
        case .tableSelect(let options, let rows):
            return try answerTableSelect(slot, options, rows, value)
        case .unknown(let typeName):
            return .rejected("'\(survey.questions[slot].id)' has the unknown type '\(typeName)': the engine shows its text only and it can never be answered")
        }
        return .ok
    }

    private func answerSingleSelect(_ slot: Int, _ options: [SurveyNative.Option], _ value: JSONValue) throws(EngineCrash) -> Outcome {
        switch value {
        case .string(let choice):
            guard options.contains(.plain(choice)) else { return misfit(slot, found: value) }
            // Leaving a selected Other option first writes {"Other": ""} (reference, "Other quirks").
            if let title = selectedOtherTitle(slot, options) {
                try commit(slot, .object([title: ""]))
            }
            try commit(slot, value)
            return .ok
        case .object(let parts):
            guard parts.count == 1, let (title, typed) = parts.first, let text = typed.stringValue,
                case .other(_, let validations)? = options.first(where: { $0.title == title && $0.isOther })
            else { return misfit(slot, found: value) }
            // Tapping the row stores {title: ""}; Next on the row then commits the typed text if valid.
            if selectedOtherTitle(slot, options) != title {
                try commit(slot, .object([title: ""]))
            }
            if let message = try firstFailure(validations, text: text) { return .validationFailed(message) }
            try commit(slot, value)
            return .ok
        default:
            return misfit(slot, found: value)
        }
    }

    private func answerMultiSelect(_ slot: Int, _ options: [SurveyNative.Option], _ value: JSONValue) throws(EngineCrash) -> Outcome {
        guard case .array(let elements) = value else { return misfit(slot, found: value) }
        // Each element an option or, at most once, the Other text; no option twice.
        var otherText: String?
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element, !elements[..<index].contains(element) else { return misfit(slot, found: value) }
            if !options.contains(.plain(text)) {
                guard otherText == nil, options.contains(where: \.isOther) else { return misfit(slot, found: value) }
                otherText = text
            }
        }
        // Selected options are stored in tap order (SQ:1158-1169); the value lists them in that order. Taps
        // on options only toggle (no advance, SQ:1292-1298). Ticking Other toggles the text it has, "" at
        // first (SQ:1293-1294); its text is sent through `update` (SQ:1371-1397), which may move the survey
        // on, only when end-editing changes it and it passes Other's validations
        // (OtherOptionTableViewCell.swift:22-38, 82-87).
        let current = currentOtherText(slot, options)
        let typed = otherText ?? ""
        guard case .other(_, let validations)? = options.first(where: \.isOther), typed != (current ?? "") else {
            // No Other text sent: ticking Other stores "", and an edit that leaves the text as it was sends
            // nothing.
            try toggle(slot, value)
            return .ok
        }
        if let message = try firstFailure(validations, text: typed) {
            // End-editing sends nothing: the Other entry keeps what it held ("" from the tick, or the earlier
            // text), and no message shows (only the Other row's own Next would show one, and a multi_select
            // hides it: SQ:407-418).
            let kept = elements.map { otherText != nil && $0 == .string(typed) ? JSONValue.string(current ?? "") : $0 }
            try toggle(slot, .array(kept))
            return otherText == nil ? .ok : .validationFailed(message)
        }
        // The text is sent through `update` (unticking Other sends "" first), then the taps stand as listed.
        try commit(slot, value)
        return .ok
    }

    /// The Other text a multi_select answer holds now (its entry that is no option), or nil when Other is not
    /// ticked (`otherAnswer`, SQ:1193-1206).
    private func currentOtherText(_ slot: Int, _ options: [SurveyNative.Option]) -> String? {
        guard case .array(let elements)? = state.answers[slot] else { return nil }
        return elements.lazy.compactMap(\.stringValue).first { text in !options.contains(.plain(text)) }
    }

    private func answerMultiTextField(
        _ slot: Int, _ fields: [SurveyNative.Field], _ validations: [SurveyNative.Validation], _ value: JSONValue
    ) throws(EngineCrash) -> Outcome {
        guard case .object(let parts) = value, !parts.isEmpty, parts.values.allSatisfy({ $0.stringValue != nil }),
            parts.keys.allSatisfy({ key in fields.contains { $0.label == key } })
        else { return misfit(slot, found: value) }
        for field in fields {
            guard let text = parts.scanning(field.label)?.stringValue else { continue }
            if let refusal = typingRefusal(text, field.maxChars, field: "\(survey.questions[slot].id)/\(field.label)") { return .rejected(refusal) }
            // The question's validations apply to every field (reference §5).
            if let message = try firstFailure(validations, text: text) { return .validationFailed(message) }
        }
        // Each field is stored under its label as it is edited; fields never edited stay absent.
        var merged = takeObject(at: slot)
        merged.merge(parts) { _, new in new }
        try commit(slot, .object(merged))
        return .ok
    }

    private func answerDynamicLabels(
        _ slot: Int, _ labelSets: [[String]], _ metadataID: String?, _ validations: [SurveyNative.Validation], _ value: JSONValue
    ) throws(EngineCrash) -> Outcome {
        guard case .object(let parts) = value, !parts.isEmpty, parts.values.allSatisfy({ $0.stringValue != nil }),
            let setIndex = labelSets.firstIndex(where: { labels in parts.keys.allSatisfy(labels.contains) })
        else { return misfit(slot, found: value) }
        // The answer is keyed by the labels of the chosen set; empty fields are stored as "".
        var values = [String: JSONValue](minimumCapacity: labelSets[setIndex].count)
        for label in labelSets[setIndex] { values[label] = parts.scanning(label) ?? "" }
        if let message = try dynamicLabelFailure(values, labels: labelSets[setIndex], validations) {
            return .validationFailed(message)
        }
        if let metadataID { state.labelSetDefaults[metadataID] = setIndex }
        try commit(slot, .object(values))
        return .ok
    }

    private func answerTableSelect(_ slot: Int, _ options: [String], _ rows: [String], _ value: JSONValue) throws(EngineCrash) -> Outcome {
        guard case .object(let parts) = value, !parts.isEmpty,
            parts.allSatisfy({ row, choice in rows.contains(row) && choice.stringValue.map(options.contains) == true })
        else { return misfit(slot, found: value) }
        for row in rows {
            guard let choice = parts.scanning(row)?.stringValue, let index = options.firstIndex(of: choice), index >= 3 else { continue }
            return .rejected("option '\(choice)' of '\(survey.questions[slot].id)' cannot be picked: the table cell has three buttons, for the first three options only")
        }
        // Each radio tap stores {row: option} into the question's dictionary (SQ:1236-1246), row by row.
        for row in rows {
            guard let choice = parts.scanning(row) else { continue }
            var merged = takeObject(at: slot)
            merged[row] = choice
            try commit(slot, .object(merged))
        }
        return .ok
    }

    // MARK: Next

    /// Which questions have a Next button: multi-select, text inputs, add-text, and a single-select whose
    /// Other row is selected (reference §6, "Need an explicit Next").
    func hasNextButton(_ slot: Int) -> Bool {
        switch survey.questions[slot].kind {
        case .multiSelect, .multiTextField, .addTextField, .singleTextField, .singleTextArea, .dynamicLabelTextField:
            return true
        case .singleSelect(let options):
            return selectedOtherTitle(slot, options) != nil
        case .yearPicker, .datePicker, .segmentSelect, .tableSelect, .unknown:
            return false
        }
    }

    /// The Next a bare `next` taps: in the active question's section, the first unfinished question with a
    /// Next button (the parent, then its shown sub-questions), else the first with one.
    func nextButtonInActiveSection() -> Int? {
        guard !state.skipped[state.active] else { return nil }
        let subQuestions = survey.questions[activeSlot].subQuestions
        var firstWithButton: Int?
        for position in -1..<subQuestions.count {
            let member = position < 0 ? activeSlot : subQuestions[position]
            guard position < 0 || state.subShown[member], hasNextButton(member) else { continue }
            if !isComplete(member) { return member }
            if firstWithButton == nil { firstWithButton = member }
        }
        return firstWithButton
    }

    func noNextButton(_ slot: Int) -> String {
        let question = survey.questions[slot]
        let advances: String =
            switch question.kind {
            case .singleSelect: "it advances when an option is picked"
            case .segmentSelect: "it advances when a value is picked"
            case .tableSelect: "it advances when every row is answered"
            case .yearPicker, .datePicker: "it advances when the picker's Done is tapped (answer it)"
            case .unknown: "its type is unknown to the engine"
            default: "it advances when answered"
            }
        return "'\(question.id)' (\(question.kind.typeName)) has no Next button: \(advances)"
    }

    /// Why a bare `next` has nothing to tap while the active question is hidden, and what moves the survey on.
    func hiddenActiveQuestion() -> String {
        let active = survey.questions[activeSlot].id
        if isDeadEnd {
            return "the active question '\(active)' is the last and is hidden, so no question waits and Submit never shows until an answer change shows '\(active)' again (reference §6, the dead end)"
        }
        let nexts = visibleWithNextButton(limit: 3).map { "next \(survey.questions[$0].id)" }
        let tap = nexts.isEmpty ? "" : "tap Next on a visible question (\(nexts.joined(separator: ", "))) or "
        return "the active question '\(active)' is hidden: a multi_select option tap hid it, and such a tap does not move the survey on (SQ:1292-1298), so no question waits and Submit is not shown; \(tap)answer a visible question other than by a multi_select option: either runs sectionsToInsert, which moves past the hidden question"
    }

    func tapNext(_ slot: Int) throws(EngineCrash) -> Outcome {
        switch survey.questions[slot].kind {
        case .singleTextField(_, let validations):
            // The text field's Next calls markFinished, then commits its text, which must pass validation.
            try markFinished(slot)
            let text = state.answers[slot]?.stringValue ?? ""
            if let message = try firstFailure(validations, text: text) { return .validationFailed(message) }
            try commit(slot, .string(text))
        case .dynamicLabelTextField(let labelSets, let metadataID, let validations):
            // Next validates the fields on screen first, and finishes the question only if they pass.
            let setIndex = currentLabelSet(slot, labelSets, metadataID)
            let labels = setIndex < labelSets.count ? labelSets[setIndex] : []
            let values = state.answers[slot]?.objectValue ?? Dictionary(labels.map { ($0, JSONValue.string("")) }, uniquingKeysWith: { first, _ in first })
            if let message = try dynamicLabelFailure(values, labels: labels, validations) { return .validationFailed(message) }
            try markFinished(slot)
        case .singleSelect(let options):
            // Next on the selected Other row commits its text, if valid.
            guard let title = selectedOtherTitle(slot, options), case .other(_, let validations)? = options.first(where: { $0.title == title && $0.isOther })
            else { return .rejected(noNextButton(slot)) }
            let text = state.answers[slot]?.objectValue?[title]?.stringValue ?? ""
            if let message = try firstFailure(validations, text: text) { return .validationFailed(message) }
            try commit(slot, .object([title: .string(text)]))
        case .addTextField:
            // Next sends the texts in the fields, the stored ones (AddTextFieldTableViewCell.swift:54-63).
            try commit(slot, state.answers[slot] ?? .array([]))
        default:
            try markFinished(slot)
        }
        return .ok
    }

    // MARK: helpers

    /// The object answer at `slot` (empty when there is none), taken out of the state so that updating it
    /// writes in place rather than copying it; the caller commits the updated object at once.
    private func takeObject(at slot: Int) -> [String: JSONValue] {
        guard case .object(let parts)? = state.answers[slot] else { return [:] }
        state.answers[slot] = .null
        return parts
    }

    private func firstFailure(_ validations: [SurveyNative.Validation], text: String) throws(EngineCrash) -> String? {
        try SurveyNativeComparison.firstFailure(of: validations, text: { _ in text }, answerOf: answer(for:), checked: validationReporter)
    }

    /// Validations of a dynamic-label question apply to their `for_label` field, skipped when that label is
    /// not in the set on screen (DefaultValidator.swift:34-49).
    private func dynamicLabelFailure(
        _ values: [String: JSONValue], labels: [String], _ validations: [SurveyNative.Validation]
    ) throws(EngineCrash) -> String? {
        try SurveyNativeComparison.firstFailure(
            of: validations,
            text: { forLabel throws(EngineCrash) -> String? in
                guard let label = forLabel else {
                    throw EngineCrash(reason: "a dynamic-label validation has no \"for_label\", which the engine force-unwraps")
                }
                return labels.contains(label) ? (values.scanning(label)?.stringValue ?? "") : nil
            },
            answerOf: answer(for:), checked: validationReporter)
    }

    /// The label set a dynamic-label question shows: the one its answer uses, else the one last chosen for
    /// its `options_metadata.id`, else the first.
    private func currentLabelSet(_ slot: Int, _ labelSets: [[String]], _ metadataID: String?) -> Int {
        if let keys = state.answers[slot]?.objectValue?.keys, !keys.isEmpty,
            let index = labelSets.firstIndex(where: { Set(keys).isSubset(of: $0) })
        {
            return index
        }
        return metadataID.flatMap { state.labelSetDefaults[$0] } ?? 0
    }

    private func selectedOtherTitle(_ slot: Int, _ options: [SurveyNative.Option]) -> String? {
        guard case .object(let parts)? = state.answers[slot], parts.count == 1, let title = parts.keys.first,
            options.contains(where: { $0.title == title && $0.isOther })
        else { return nil }
        return title
    }

    /// `max_chars` limits typing (a string only; a non-integer string blocks all typing). Lengths are
    /// counted as UIKit does, in UTF-16 units. The field's name is only worked out for a refusal.
    private func typingRefusal(_ text: String, _ maxChars: SurveyNative.MaxChars, field: @autoclosure () -> String) -> String? {
        switch maxChars {
        case .unlimited: return nil
        case .limit(let limit):
            let length = text.utf16.count
            return length > limit ? "'\(field())' takes at most \(limit) characters (max_chars); \(length) were typed" : nil
        case .rejectsAll(let raw):
            return text.isEmpty ? nil : "'\(field())' rejects all typing: its max_chars \"\(raw)\" is not an integer"
        }
    }

    private func strings(in value: JSONValue) -> [String]? {
        guard case .array(let elements) = value else { return nil }
        let texts = elements.compactMap(\.stringValue)
        return texts.count == elements.count ? texts : nil
    }

    /// The value has a shape or an option the question does not have: the scenario does not fit the survey.
    private func misfit(_ slot: Int, found: JSONValue) -> Outcome {
        let question = survey.questions[slot]
        return .doesNotFit("'\(question.id)' is a \(question.kind.typeName); expected \(expectedShape(question.kind)), found \(CanonicalJSON.compact(found))")
    }

    /// The answers a question of this kind takes, in words.
    private func expectedShape(_ kind: SurveyNative.Kind) -> String {
        switch kind {
        case .singleSelect(let options):
            "one of its options (\(list(options.map(\.title)))), an Other option as {\"Title\": \"text\"}"
        case .multiSelect(let options):
            "an array of its options (\(list(options.filter { !$0.isOther }.map(\.title))))\(options.contains(where: \.isOther) ? " and at most one Other text" : ""), each once"
        case .yearPicker: "a year as a string, e.g. \"1990\""
        case .datePicker: "a date as a \"yyyy-MM-dd\" string"
        case .singleTextField, .singleTextArea: "a string"
        case .multiTextField(let fields, _): "an object of field texts keyed by label (\(list(fields.map(\.label))))"
        case .dynamicLabelTextField(let labelSets, _, _):
            "an object keyed by the labels of one label set (\(labelSets.map { "[\(list($0))]" }.joined(separator: " or ")))"
        case .addTextField: "an array of strings"
        case .segmentSelect(let values): "one of its values (\(list(values)))"
        case .tableSelect(let options, let rows): "an object of row id to option (rows \(list(rows)); options \(list(options)))"
        case .unknown: "nothing: it cannot be answered"
        }
    }

    private func list(_ items: [String]) -> String {
        items.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension SurveyNative.Option {
    var isOther: Bool {
        if case .other = self { return true }
        return false
    }
}
