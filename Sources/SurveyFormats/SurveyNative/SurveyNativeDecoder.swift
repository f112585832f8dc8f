import SurveyCore

/// Reads a SurveyNative JSON file the way `SurveyQuestions.swift` does (reference §1), keeping every
/// location. Keys the engine force-casts at load make the file unusable (an error); keys it force-unwraps
/// only when a question is shown are recorded on the question, so the session can refuse the action that
/// would show it; keys it reads with `as?` are ignored when of the wrong type, with a warning.
struct SurveyNativeDecoder {
    private(set) var warnings: [Diagnostic] = []
    private var questions: [SurveyNative.Question] = []

    static func decode(_ root: JSONCursor) throws(InputError) -> (SurveyNativeSurvey, warnings: [Diagnostic]) {
        var decoder = SurveyNativeDecoder()
        let survey = try decoder.decodeSurvey(root)
        return (survey, decoder.warnings)
    }

    /// A condition written as `show_if` is, for properties files; with the warnings reading it gave.
    static func condition(_ cursor: JSONCursor) -> (Condition, warnings: [Diagnostic]) {
        var decoder = SurveyNativeDecoder()
        let condition = decoder.decodeCondition(cursor)
        return (condition, decoder.warnings)
    }

    private mutating func warn(_ cursor: JSONCursor, _ message: String, hint: String? = nil, rule: String) {
        warnings.append(cursor.diagnostic(.warning, message, hint: hint, rule: rule))
    }

    private mutating func decodeSurvey(_ root: JSONCursor) throws(InputError) -> SurveyNativeSurvey {
        let object = try root.object(for: "a SurveyNative survey")
        let questionsCursor = try object.required("questions", in: "the survey")
        guard let topLevel = questionsCursor.elements, topLevel.allSatisfy({ $0.object != nil }) else {
            throw questionsCursor.error(
                "expected \"questions\" to be an array of question objects; the real engine force-casts it and would crash loading this file")
        }
        guard !topLevel.isEmpty else {
            throw questionsCursor.error("expected at least one question; the engine starts on question 0")
        }
        let submitCursor = try object.required("submit", in: "the survey")
        guard let submitObject = submitCursor.object, submitObject.members.allSatisfy({ $0.value.kind == .string })
        else {
            throw submitCursor.error(
                "expected \"submit\" to be an object of strings (button_title, url); the real engine force-casts it to [String: String] and would crash loading this file")
        }
        let submit = SurveyNative.Submit(buttonTitle: submitObject["button_title"]?.stringValue, url: submitObject["url"]?.stringValue)
        if let autoFocus = object["auto_focus_text"], autoFocus.boolValue == nil {
            warn(autoFocus, "auto_focus_text is not true or false, so the engine ignores it", rule: "sn-ignored-key")
        }

        var topSlots: [Int] = []
        topSlots.reserveCapacity(topLevel.count)
        questions.reserveCapacity(topLevel.count)
        for (index, cursor) in topLevel.enumerated() {
            topSlots.append(try decodeQuestion(cursor, owner: index, isSubQuestion: false))
        }
        return try SurveyNativeSurvey(file: root.file.path, questions: questions, topLevel: topSlots, submit: submit)
    }

    /// Decodes one question and its sub-questions into `questions`; returns its slot.
    private mutating func decodeQuestion(_ cursor: JSONCursor, owner: Int, isSubQuestion: Bool) throws(InputError) -> Int {
        let object = try cursor.object(for: "a question")
        let id = try object.required("id", in: "this question").string(for: "\"id\"")
        let typeName = try object.required("question_type", in: "question '\(id)'").string(for: "\"question_type\" of '\(id)'")
        var crash: String?
        let kind = decodeKind(typeName, object, id: id, crash: &crash)

        let showIf: Condition?
        if let showIfCursor = object["show_if"] {
            if showIfCursor.object != nil {
                showIf = decodeCondition(showIfCursor)
            } else {
                warn(showIfCursor, "show_if of '\(id)' is not an object, so the engine ignores it and always shows the question", rule: "sn-ignored-key")
                showIf = nil
            }
        } else {
            showIf = nil
        }

        let slot = questions.count
        questions.append(
            SurveyNative.Question(
                id: id, text: object["question"]?.stringValue, header: object["header"]?.stringValue, kind: kind,
                showIf: showIf, subQuestions: [], owner: owner, isSubQuestion: isSubQuestion, location: object.location,
                choiceLocations: (object["options"]?.elements ?? object["values"]?.elements ?? []).map(\.location), crash: crash))

        guard let subCursor = object["sub_questions"] else { return slot }
        if isSubQuestion {
            warn(subCursor, "sub-questions cannot have sub-questions; the engine ignores these", rule: "sn-ignored-key")
            return slot
        }
        guard let subElements = subCursor.elements, subElements.allSatisfy({ $0.object != nil }) else {
            warn(subCursor, "sub_questions of '\(id)' is not an array of question objects, so the engine ignores it", rule: "sn-ignored-key")
            return slot
        }
        var subSlots: [Int] = []
        for element in subElements {
            subSlots.append(try decodeQuestion(element, owner: owner, isSubQuestion: true))
        }
        let question = questions[slot]
        questions[slot] = SurveyNative.Question(
            id: question.id, text: question.text, header: question.header, kind: question.kind, showIf: question.showIf,
            subQuestions: subSlots, owner: owner, isSubQuestion: false, location: question.location,
            choiceLocations: question.choiceLocations, crash: question.crash)
        return slot
    }

    // MARK: question types

    private mutating func decodeKind(
        _ typeName: String, _ object: JSONObjectCursor, id: String, crash: inout String?
    ) -> SurveyNative.Kind {
        func missing(_ key: String, _ expected: String) -> String {
            "'\(id)' has no \(expected) \"\(key)\", which the engine force-unwraps when it shows the question"
        }
        switch typeName {
        case "single_select", "multi_select":
            let options = decodeOptions(object, id: id, crash: &crash)
            return typeName == "single_select" ? .singleSelect(options) : .multiSelect(options)
        case "year_picker":
            return .yearPicker(decodeYearPicker(object, id: id, crash: &crash))
        case "date_picker":
            return .datePicker(decodeDatePicker(object, id: id, crash: &crash))
        case "single_text_field":
            return .singleTextField(maxChars: decodeMaxChars(object["max_chars"], id: id), validations: decodeValidations(object["validations"], id: id))
        case "single_text_area":
            for key in ["validations", "max_chars"] {
                if let ignored = object[key] {
                    warn(ignored, "single_text_area ignores \"\(key)\" (its cell type is text_area, reference §5)", rule: "sn-ignored-validation")
                }
            }
            return .singleTextArea
        case "multi_text_field":
            var fields: [SurveyNative.Field] = []
            if let fieldsCursor = object["fields"], let elements = fieldsCursor.elements {
                for element in elements {
                    guard let field = element.object,
                                field.members.allSatisfy({ $0.value.kind == .string }),
                          let label = field["label"]?.stringValue, field["input_type"]?.stringValue != nil
                    else {
                        crash = crash ?? "a field of '\(id)' is not an object of strings with \"label\" and \"input_type\", which the engine force-casts"
                        continue
                    }
                    fields.append(SurveyNative.Field(label: label, maxChars: decodeMaxChars(field["max_chars"], id: id)))
                }
            } else {
                crash = crash ?? missing("fields", "array")
            }
            return .multiTextField(fields: fields, validations: decodeValidations(object["validations"], id: id))
        case "dynamic_label_text_field":
            var labelSets: [[String]] = []
            if let elements = object["label_options"]?.elements {
                for element in elements {
                    if let label = element.stringValue {
                        labelSets.append([label])
                    } else if let labels = element.elements?.compactMap(\.stringValue), labels.count == element.elements?.count {
                        labelSets.append(labels)
                    } else {
                        crash = crash ?? "an entry of label_options of '\(id)' is neither a string nor an array of strings"
                    }
                }
            } else {
                crash = crash ?? missing("label_options", "array")
            }
            let metadataID = object["options_metadata"]?.object?["id"]?.stringValue
            return .dynamicLabelTextField(labelSets: labelSets, metadataID: metadataID, validations: decodeValidations(object["validations"], id: id))
        case "add_text_field":
            return .addTextField
        case "segment_select":
            guard let elements = object["values"]?.elements, let values = Optional(elements.compactMap(\.stringValue)),
                values.count == elements.count
            else {
                crash = crash ?? missing("values", "array of strings")
                return .segmentSelect(values: [])
            }
            return .segmentSelect(values: values)
        case "table_select":
            var options: [String] = []
            if let optionsCursor = object["options"], let elements = optionsCursor.elements, elements.allSatisfy({ $0.stringValue != nil }) {
                options = elements.compactMap(\.stringValue)
                if options.count > 3 {
                    warn(optionsCursor, "table_select '\(id)' has \(options.count) options but its cell has three buttons; only the first three can be picked", rule: "sn-table-select-options")
                }
            } else {
                crash = crash ?? missing("options", "array of strings")
            }
            var rows: [String] = []
            if let elements = object["table_questions"]?.elements {
                for element in elements {
                    guard let rowID = element.object?["id"]?.stringValue else {
                        crash = crash ?? "a table question of '\(id)' has no \"id\""
                        continue
                    }
                    rows.append(rowID)
                }
            } else {
                crash = crash ?? missing("table_questions", "array")
            }
            return .tableSelect(options: options, rows: rows)
        default:
            if let typeCursor = object["question_type"] {
                warn(typeCursor, "'\(typeName)' is not a SurveyNative question type; the engine shows it as text and it can never be answered, which blocks the survey", rule: "sn-unknown-type")
            }
            return .unknown(typeName)
        }
    }

    private mutating func decodeOptions(_ object: JSONObjectCursor, id: String, crash: inout String?) -> [SurveyNative.Option] {
        guard let elements = object["options"]?.elements else {
            crash = crash ?? "'\(id)' has no \"options\" array, which the engine force-casts when it shows the question"
            return []
        }
        var options: [SurveyNative.Option] = []
        for element in elements {
            if let title = element.stringValue {
                options.append(.plain(title))
            } else if let other = element.object {
                guard let title = other["title"]?.stringValue else {
                    crash = crash ?? "an Other option of '\(id)' has no \"title\""
                    continue
                }
                if other["type"]?.stringValue == nil {
                    crash = crash ?? "the Other option '\(title)' of '\(id)' has no \"type\", which the engine force-unwraps"
                }
                options.append(.other(title: title, validations: decodeValidations(other["validations"], id: id)))
            } else {
                crash = crash ?? "an option of '\(id)' is \(element.node.kindDescription), not a string or an Other object"
            }
        }
        return options
    }

    private mutating func decodeMaxChars(_ cursor: JSONCursor?, id: String) -> SurveyNative.MaxChars {
        guard let cursor else { return .unlimited }
        guard let text = cursor.stringValue else {
            warn(cursor, "max_chars of '\(id)' is \(cursor.node.kindDescription), not a string, so the engine treats the length as unlimited", hint: "write it as a string, e.g. \"2\"", rule: "sn-numeric-string")
            return .unlimited
        }
        guard let limit = Int(text) else {
            warn(cursor, "max_chars \"\(text)\" of '\(id)' is not an integer, so the field rejects all typing", rule: "sn-max-chars")
            return .rejectsAll(text)
        }
        return .limit(limit)
    }

    private mutating func decodeValidations(_ cursor: JSONCursor?, id: String) -> [SurveyNative.Validation] {
        guard let cursor else { return [] }
        guard let elements = cursor.elements else {
            warn(cursor, "validations of '\(id)' is not an array, so the engine ignores it", rule: "sn-ignored-key")
            return []
        }
        var validations: [SurveyNative.Validation] = []
        for element in elements {
            guard let entry = element.object else {
                warn(element, "a validation of '\(id)' is not an object, so the engine ignores it", rule: "sn-ignored-key")
                continue
            }
            let operand: SurveyNative.Validation.Operand
            if let other = entry["answer_to_question_id"]?.stringValue {
                operand = .answer(of: other)
            } else if let value = entry["value"] {
                operand = .value(value.node.plain)
            } else {
                operand = .none
            }
            let operation = entry["operation"]?.stringValue ?? ""
            if ["equals", "not equals"].contains(operation) {
                warn(element, "the engine does not implement the validation \"\(operation)\": it always fails", hint: "use the numeric comparisons, the only validations SurveyNative implements", rule: "sn-validation-always-fails")
            }
            validations.append(
                SurveyNative.Validation(
                    operation: operation, operand: operand, failMessage: entry["on_fail_message"]?.stringValue,
                    forLabel: entry["for_label"]?.stringValue, location: entry.location))
        }
        return validations
    }

    private mutating func decodeYearPicker(_ object: JSONObjectCursor, id: String, crash: inout String?) -> SurveyNative.YearPicker {
        func year(_ key: String) -> SurveyNative.YearSpec? {
            guard let cursor = object[key] else { return nil }
            guard let text = cursor.stringValue else {
                warn(cursor, "\(key) of '\(id)' is \(cursor.node.kindDescription), not a string, so the engine treats it as absent", hint: "write it as a string, e.g. \"1990\"", rule: "sn-numeric-string")
                return nil
            }
            if text == "current_year" { return .currentYear }
            guard let value = Int(text) else {
                crash = crash ?? "\(key) \"\(text)\" of '\(id)' is not a year; the engine's Int(_:)! crashes on it"
                return nil
            }
            return .year(value)
        }
        let minYear = year("min_year")
        let maxYear = year("max_year")
        var numYears: Int?
        switch year("num_years") {
        case .year(let count): numYears = count
        case .currentYear: crash = crash ?? "num_years of '\(id)' is \"current_year\", not a count"
        case nil: numYears = nil
        }
        let initial = object["initial_year"]?.stringValue
        return SurveyNative.YearPicker(
            minYear: minYear, maxYear: maxYear, numYears: numYears, initialYear: initial,
            descending: object["sort_order"]?.stringValue == "DESC")
    }

    private mutating func decodeDatePicker(_ object: JSONObjectCursor, id: String, crash: inout String?) -> SurveyNative.DatePicker {
        func date(_ key: String) -> SurveyNative.DateSpec? {
            guard let cursor = object[key] else { return nil }
            guard let text = cursor.stringValue else {
                warn(cursor, "\(key) of '\(id)' is \(cursor.node.kindDescription), not a string, so the engine treats it as absent", rule: "sn-ignored-key")
                return nil
            }
            if text == "current_date" { return .currentDate }
            guard let value = CalendarDate(iso: text) else {
                crash = crash ?? "\(key) \"\(text)\" of '\(id)' is not a yyyy-MM-dd date; the engine force-unwraps the parsed date"
                return nil
            }
            return .date(value)
        }
        _ = date("date")
        let minDate = date("min_date")
        let maxDate = date("max_date")
        var diff: (Int, Int, Int)?
        if let diffCursor = object["date_diff"] {
            if let members = diffCursor.object?.members, members.allSatisfy({ member in
                member.value.numberValue.map { $0 == $0.rounded() } ?? false
            }) {
                let value = diffCursor.node.plain.objectValue ?? [:]
                diff = (Int(value["year"]?.numberValue ?? 0), Int(value["month"]?.numberValue ?? 0), Int(value["day"]?.numberValue ?? 0))
            } else {
                warn(diffCursor, "date_diff of '\(id)' is not an object of whole numbers, so the engine ignores it", rule: "sn-ignored-key")
            }
        }
        return SurveyNative.DatePicker(minDate: minDate, maxDate: maxDate, diff: diff)
    }

    // MARK: conditions

    /// The dispatch of `conditionMet` (SQ:469-531): a dict with `id` is a simple condition, one with
    /// `subconditions` a tree, `operation: custom` a host condition; anything else is malformed and true.
    private mutating func decodeCondition(_ cursor: JSONCursor) -> Condition {
        guard let object = cursor.object else {
            warn(cursor, "a condition that is not an object is malformed; the engine treats it as true", rule: "sn-malformed-condition")
            return Condition(.constant(true, reason: "not an object", ignored: []), location: cursor.location)
        }
        let location = object.location
        let operation = object["operation"]?.stringValue
        if let question = object["id"]?.stringValue {
            return Condition(
                .leaf(ConditionLeaf(question: question, key: object["subid"]?.stringValue, operation: operation ?? "", operand: object["value"]?.node.plain)),
                location: location)
        }
        if let subconditions = object["subconditions"] {
            let children = (subconditions.elements ?? []).map { decodeCondition($0) }
            if subconditions.elements == nil {
                warn(subconditions, "subconditions is not an array", rule: "sn-malformed-condition")
            }
            switch operation {
            case "and": return Condition(.all(children), location: location)
            case "or": return Condition(.any(children), location: location)
            default:
                warn(cursor, "the tree operation \(operation.map { "\"\($0)\"" } ?? "(none)") is neither \"and\" nor \"or\"; the engine treats the condition as true", rule: "sn-malformed-condition")
                // Still a tree to the dependency map: its ids are collected through the subconditions.
                return Condition(.constant(true, reason: "unknown tree operation", ignored: children), location: location)
            }
        }
        if operation == "custom" {
            let extra = object["extra"]
            let inputs = object["ids"]?.elements?.compactMap(\.stringValue) ?? []
            return Condition(
                .host(HostCondition(key: extra?.object?["id"]?.stringValue, inputs: inputs, extra: extra?.node.plain)),
                location: location)
        }
        warn(cursor, "this condition has neither \"id\", \"subconditions\" nor operation \"custom\"; the engine treats it as true", rule: "sn-malformed-condition")
        return Condition(.constant(true, reason: "malformed", ignored: []), location: location)
    }
}
