import SurveyCore

/// Reads a SurveyNative JSON file the way `SurveyQuestions.swift` does (reference §1), keeping every
/// location. Keys the engine force-casts at load make the file unusable (an error); keys it force-unwraps
/// only when a question is shown are recorded on the question, so the session can refuse the action that
/// would show it, and as findings where they are; keys it reads with `as?` are ignored when of the wrong
/// type, with a warning.
struct SurveyNativeDecoder {
    /// Whether reading goes on past a problem that makes the file unusable, recording it: lint reports
    /// them all, while a load stops at the first.
    private let readsOn: Bool
    /// What reading found: keys the engine ignores or misreads, what crashes it, and, when reading on, the
    /// problems that stop a load.
    private(set) var findings: [Diagnostic] = []
    /// The conditions evaluating which crashes the engine on a force-cast (a simple condition or a tree
    /// without an `operation` string), by where they are, with why.
    private(set) var conditionCrashes: [SourcePosition: String] = [:]
    private var questions: [SurveyNative.Question] = []

    private init(readsOn: Bool) {
        self.readsOn = readsOn
    }

    static func decode(_ root: JSONCursor) throws(InputError) -> (SurveyNativeSurvey, findings: [Diagnostic]) {
        var decoder = SurveyNativeDecoder(readsOn: false)
        let outline = try decoder.decodeSurvey(root)
        return (try SurveyNativeSurvey(outline), decoder.findings)
    }

    /// As much of a file as can be read, for lint: a question without an id is left out, one without a type
    /// is of an unknown type, and so on, each problem recorded. No outline when not even the list of
    /// questions can be read.
    static func read(_ root: JSONCursor) -> (SurveyNativeOutline?, findings: [Diagnostic]) {
        var decoder = SurveyNativeDecoder(readsOn: true)
        do throws(InputError) {
            let outline = try decoder.decodeSurvey(root)
            return (outline, decoder.findings)
        } catch {
            return (nil, decoder.findings + fileShape(error).diagnostics)
        }
    }

    /// A condition written as `show_if` is, for properties files; with what reading it found and the parts of
    /// it whose evaluation crashes the engine.
    static func condition(_ cursor: JSONCursor) -> (Condition, findings: [Diagnostic], crashes: [SourcePosition: String]) {
        var decoder = SurveyNativeDecoder(readsOn: false)
        let condition = decoder.decodeCondition(cursor)
        return (condition, decoder.findings, decoder.conditionCrashes)
    }

    private mutating func report(
        _ severity: Diagnostic.Severity, _ cursor: JSONCursor, _ message: String, hint: String, rule: String
    ) {
        findings.append(cursor.diagnostic(severity, message, hint: hint, rule: rule))
    }

    /// The errors that stop a load, as lint reports them: with a rule and a hint (a load reports them as
    /// the strict readers of `JSONCursor` word them).
    private static func fileShape(_ error: InputError) -> InputError {
        InputError(
            error.diagnostics.map { diagnostic in
                var located = diagnostic
                located.rule = located.rule ?? "sn-file-shape"
                if located.hint == nil { located.hint = "give the file the shape of reference §1: the engine force-casts it while loading" }
                return located
            })
    }

    /// A problem that makes the file unusable: it stops a load; when reading on it is recorded.
    private mutating func fail(_ error: InputError) throws(InputError) {
        guard readsOn else { throw error }
        findings += SurveyNativeDecoder.fileShape(error).diagnostics
    }

    /// What `read` gives, or nil once its error is recorded (reading on); a load stops at the error.
    private mutating func recovering<Value>(_ read: () throws(InputError) -> Value) throws(InputError) -> Value? {
        do throws(InputError) {
            return try read()
        } catch {
            try fail(error)
            return nil
        }
    }

    /// A key the engine force-unwraps or force-casts when it shows the question: the question keeps the
    /// first such reason (the session refuses to show it), and each is a finding where it is.
    private mutating func crashes(_ reason: String, at cursor: JSONCursor, question id: String, hint: String, _ crash: inout String?) {
        crash = crash ?? reason
        report(.error, cursor, "the real engine crashes when it shows '\(id)': \(reason)", hint: hint, rule: "sn-crash-on-show")
    }

    private mutating func decodeSurvey(_ root: JSONCursor) throws(InputError) -> SurveyNativeOutline {
        let object = try root.object(for: "a SurveyNative survey")
        let questionsCursor = try object.required("questions", in: "the survey")
        let notQuestions = questionsCursor.error(
            "expected \"questions\" to be an array of question objects; the real engine force-casts it and would crash loading this file")
        guard let elements = questionsCursor.elements else { throw notQuestions }
        guard !elements.isEmpty else {
            throw questionsCursor.error("expected at least one question; the engine starts on question 0")
        }
        let topLevel = elements.filter { $0.object != nil }
        if topLevel.count < elements.count { try fail(notQuestions) }
        let submit = try decodeSubmit(object)
        if let autoFocus = object["auto_focus_text"], autoFocus.boolValue == nil {
            report(.warning, autoFocus, "auto_focus_text is not true or false, so the engine ignores it", hint: "write true or false", rule: "sn-ignored-key")
        }

        var topSlots: [Int] = []
        topSlots.reserveCapacity(topLevel.count)
        questions.reserveCapacity(topLevel.count)
        for cursor in topLevel {
            if let slot = try decodeQuestion(cursor, owner: topSlots.count, isSubQuestion: false) { topSlots.append(slot) }
        }
        return SurveyNativeOutline(file: root.file.path, questions: questions, topLevel: topSlots, submit: submit, conditionCrashes: conditionCrashes)
    }

    /// `submit` is force-cast to `[String: String]` at load; `button_title` is force-unwrapped when Submit
    /// shows and `URL(string: url)` when the answers are posted (reference §1, §3).
    private mutating func decodeSubmit(_ survey: JSONObjectCursor) throws(InputError) -> SurveyNative.Submit {
        let missing = SurveyNative.Submit(buttonTitle: nil, url: nil)
        guard let submitCursor = try recovering({ () throws(InputError) in try survey.required("submit", in: "the survey") }) else {
            return missing
        }
        guard let object = submitCursor.object, object.members.allSatisfy({ $0.value.kind == .string }) else {
            try fail(
                submitCursor.error(
                    "expected \"submit\" to be an object of strings (button_title, url); the real engine force-casts it to [String: String] and would crash loading this file"))
            return missing
        }
        let submit = SurveyNative.Submit(buttonTitle: object["button_title"]?.stringValue, url: object["url"]?.stringValue)
        if submit.buttonTitle == nil {
            report(
                .error, submitCursor, "submit has no \"button_title\", which the engine force-unwraps: it crashes when it shows Submit",
                hint: "add \"button_title\": \"Submit\"", rule: "sn-submit-crash")
        }
        if let url = object["url"], let text = url.stringValue, !SurveyNativeSurvey.isValidURL(text) {
            report(
                .error, url, "submit.url \"\(text)\" is not a URL; the engine force-unwraps URL(string:) and crashes when it posts the answers",
                hint: "write an absolute URL such as \"https://example.org/answers\"", rule: "sn-submit-crash")
        } else if submit.url == nil {
            report(
                .error, submitCursor, "submit has no \"url\"; the engine force-unwraps URL(string:) and crashes when it posts the answers",
                hint: "add \"url\": \"https://…\", where the answers are posted", rule: "sn-submit-crash")
        }
        return submit
    }

    /// Decodes one question and its sub-questions into `questions`; returns its slot, or nil when it has no
    /// id and is left out (reading on).
    private mutating func decodeQuestion(_ cursor: JSONCursor, owner: Int, isSubQuestion: Bool) throws(InputError) -> Int? {
        let object = try cursor.object(for: "a question")
        guard let id = try recovering({ () throws(InputError) in try object.required("id", in: "this question").string(for: "\"id\"") })
        else { return nil }
        let typeName = try recovering({ () throws(InputError) in
            try object.required("question_type", in: "question '\(id)'").string(for: "\"question_type\" of '\(id)'")
        })
        var crash: String?
        let kind = typeName.map { decodeKind($0, object, id: id, crash: &crash) } ?? .unknown("")

        let showIf: Condition?
        if let showIfCursor = object["show_if"] {
            if showIfCursor.object != nil {
                showIf = decodeCondition(showIfCursor)
            } else {
                report(
                    .error, showIfCursor, "show_if of '\(id)' is not an object, so the engine ignores it and always shows the question",
                    hint: "write a condition object: {\"id\": …, \"operation\": …, \"value\": …}", rule: "sn-malformed-condition")
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
            report(.warning, subCursor, "sub-questions cannot have sub-questions; the engine ignores these", hint: "move them to the top-level question", rule: "sn-ignored-key")
            return slot
        }
        guard let subElements = subCursor.elements, subElements.allSatisfy({ $0.object != nil }) else {
            report(
                .warning, subCursor, "sub_questions of '\(id)' is not an array of question objects, so the engine ignores it",
                hint: "write an array of question objects", rule: "sn-ignored-key")
            return slot
        }
        var subSlots: [Int] = []
        for element in subElements {
            if let subSlot = try decodeQuestion(element, owner: owner, isSubQuestion: true) { subSlots.append(subSlot) }
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
        let kind: SurveyNative.Kind
        switch typeName {
        case "single_select", "multi_select":
            let options = decodeOptions(object, id: id, crash: &crash)
            kind = typeName == "single_select" ? .singleSelect(options) : .multiSelect(options)
        case "year_picker":
            kind = .yearPicker(decodeYearPicker(object, id: id, crash: &crash))
        case "date_picker":
            kind = .datePicker(decodeDatePicker(object, id: id, crash: &crash))
        case "single_text_field":
            kind = .singleTextField(maxChars: decodeMaxChars(object["max_chars"], id: id), validations: decodeValidations(object["validations"], id: id))
        case "single_text_area":
            kind = .singleTextArea
        case "multi_text_field":
            var fields: [SurveyNative.Field] = []
            if let fieldsCursor = object["fields"], let elements = fieldsCursor.elements {
                for element in elements {
                    guard let field = element.object,
                        field.members.allSatisfy({ $0.value.kind == .string }),
                        let label = field["label"]?.stringValue, field["input_type"]?.stringValue != nil
                    else {
                        crashes(
                            "a field of '\(id)' is not an object of strings with \"label\" and \"input_type\", which the engine force-casts",
                            at: element, question: id, hint: "write each field as {\"label\": \"…\", \"input_type\": \"…\"}, every value a string",
                            &crash)
                        continue
                    }
                    fields.append(SurveyNative.Field(label: label, maxChars: decodeMaxChars(field["max_chars"], id: id)))
                }
            } else {
                crashes(missing("fields", "array"), at: object.cursor, question: id, hint: "add \"fields\": [{\"label\": …, \"input_type\": …}]", &crash)
            }
            kind = .multiTextField(fields: fields, validations: decodeValidations(object["validations"], id: id))
        case "dynamic_label_text_field":
            var labelSets: [[String]] = []
            if let elements = object["label_options"]?.elements {
                for element in elements {
                    if let label = element.stringValue {
                        labelSets.append([label])
                    } else if let labels = element.elements?.compactMap(\.stringValue), labels.count == element.elements?.count {
                        labelSets.append(labels)
                    } else {
                        crashes(
                            "an entry of label_options of '\(id)' is neither a string nor an array of strings", at: element, question: id,
                            hint: "write a label (\"Centimeters\") or an array of labels ([\"Feet\", \"Inches\"])", &crash)
                    }
                }
            } else {
                crashes(missing("label_options", "array"), at: object.cursor, question: id, hint: "add \"label_options\": [\"…\"]", &crash)
            }
            let metadataID = object["options_metadata"]?.object?["id"]?.stringValue
            kind = .dynamicLabelTextField(labelSets: labelSets, metadataID: metadataID, validations: decodeValidations(object["validations"], id: id))
        case "add_text_field":
            kind = .addTextField
        case "segment_select":
            if let elements = object["values"]?.elements, let values = Optional(elements.compactMap(\.stringValue)), values.count == elements.count {
                kind = .segmentSelect(values: values)
            } else {
                crashes(missing("values", "array of strings"), at: object.cursor, question: id, hint: "add \"values\": [\"1\", \"2\", …]", &crash)
                kind = .segmentSelect(values: [])
            }
        case "table_select":
            var options: [String] = []
            if let optionsCursor = object["options"], let elements = optionsCursor.elements, elements.allSatisfy({ $0.stringValue != nil }) {
                options = elements.compactMap(\.stringValue)
                if options.count > 3 {
                    report(
                        .warning, optionsCursor,
                        "table_select '\(id)' has \(options.count) options but its cell has three buttons; only the first three can be picked (reference §1)",
                        hint: "keep three options, or split the table", rule: "sn-table-select-options")
                }
            } else {
                crashes(missing("options", "array of strings"), at: object.cursor, question: id, hint: "add \"options\": [\"Yes\", \"No\"]", &crash)
            }
            var rows: [String] = []
            if let elements = object["table_questions"]?.elements {
                for element in elements {
                    guard let rowID = element.object?["id"]?.stringValue else {
                        crashes(
                            "a table question of '\(id)' has no \"id\"", at: element, question: id,
                            hint: "give each table question {\"title\": …, \"id\": …}", &crash)
                        continue
                    }
                    rows.append(rowID)
                }
            } else {
                crashes(
                    missing("table_questions", "array"), at: object.cursor, question: id,
                    hint: "add \"table_questions\": [{\"title\": …, \"id\": …}]", &crash)
            }
            kind = .tableSelect(options: options, rows: rows)
        default:
            if let typeCursor = object["question_type"] {
                report(
                    .error, typeCursor,
                    "'\(typeName)' is not a SurveyNative question type; the engine shows it as text and it can never be answered, which blocks the survey",
                    hint: "use a question type of reference §1",
                    rule: "sn-unknown-type")
            }
            return .unknown(typeName)
        }
        reportIgnoredKeys(of: kind, object, id: id)
        return kind
    }

    /// Keys a question type has no use for (reference §1, §5): validations outside text fields, dynamic
    /// labels and Other options; `max_chars` outside single text fields and the fields of a multi_text_field;
    /// the keyboard of an add_text_field, whose cell never applies it.
    private mutating func reportIgnoredKeys(of kind: SurveyNative.Kind, _ object: JSONObjectCursor, id: String) {
        if case .addTextField = kind, let keyboard = object["input_type"], keyboard.stringValue != "default" {
            report(
                .warning, keyboard, "add_text_field '\(id)' ignores \"input_type\": its cell never applies the keyboard (reference §1)",
                hint: "remove it; a number pad cannot be had on an add_text_field", rule: "sn-ignored-key")
        }
        // Most questions have neither key, so the reasons are only worked out for a key that is there.
        for key in ["validations", "max_chars"] {
            guard let ignored = object[key], let why = SurveyNativeDecoder.whyIgnored(key, by: kind) else { continue }
            report(
                .warning, ignored, "\(kind.typeName) '\(id)' ignores \"\(key)\" (\(why), reference §5)",
                hint: "remove it, or use a question type that honours it", rule: "sn-ignored-validation")
        }
    }

    /// Why a question of this kind ignores `validations` or `max_chars`, or nil when it honours the key.
    private static func whyIgnored(_ key: String, by kind: SurveyNative.Kind) -> String? {
        let validations = key == "validations"
        switch kind {
        case .singleTextField:
            return nil
        case .multiTextField:
            return validations ? nil : "each field is limited by its own max_chars"
        case .dynamicLabelTextField:
            return validations ? nil : "only a single_text_field and the fields of a multi_text_field limit typing"
        case .singleTextArea:
            return "its cell type is text_area"
        case .singleSelect, .multiSelect:
            return validations ? "only the validations of its Other option apply" : "only a single_text_field and the fields of a multi_text_field limit typing"
        case .addTextField, .yearPicker, .datePicker, .segmentSelect, .tableSelect, .unknown:
            return validations ? "the engine does not validate a \(kind.typeName)" : "only a single_text_field and the fields of a multi_text_field limit typing"
        }
    }

    private mutating func decodeOptions(_ object: JSONObjectCursor, id: String, crash: inout String?) -> [SurveyNative.Option] {
        guard let elements = object["options"]?.elements else {
            crashes(
                "'\(id)' has no \"options\" array, which the engine force-casts when it shows the question", at: object.cursor, question: id,
                hint: "add \"options\": [\"Yes\", \"No\"]", &crash)
            return []
        }
        var options: [SurveyNative.Option] = []
        for element in elements {
            if let title = element.stringValue {
                options.append(.plain(title))
            } else if let other = element.object {
                guard let title = other["title"]?.stringValue else {
                    crashes("an Other option of '\(id)' has no \"title\"", at: element, question: id, hint: "add \"title\": \"Other\"", &crash)
                    continue
                }
                if other["type"]?.stringValue == nil {
                    crashes(
                        "the Other option '\(title)' of '\(id)' has no \"type\", which the engine force-unwraps", at: element, question: id,
                        hint: "add \"type\": \"freeform\" (or \"number\" for the number pad)", &crash)
                }
                options.append(.other(title: title, validations: decodeValidations(other["validations"], id: id)))
            } else {
                crashes(
                    "an option of '\(id)' is \(element.node.kindDescription), not a string or an Other object", at: element, question: id,
                    hint: "write the option as a string", &crash)
            }
        }
        return options
    }

    private mutating func decodeMaxChars(_ cursor: JSONCursor?, id: String) -> SurveyNative.MaxChars {
        guard let cursor else { return .unlimited }
        guard let text = cursor.stringValue else {
            report(
                .warning, cursor, "max_chars of '\(id)' is \(cursor.node.kindDescription), not a string, so the engine treats the length as unlimited",
                hint: "write it as a string, e.g. \"2\"", rule: "sn-numeric-string")
            return .unlimited
        }
        guard let limit = Int(text) else {
            report(
                .error, cursor, "max_chars \"\(text)\" of '\(id)' is not an integer, so the field rejects all typing (reference §5)",
                hint: "write a whole number as a string, e.g. \"2\"", rule: "sn-max-chars")
            return .rejectsAll(text)
        }
        return .limit(limit)
    }

    private mutating func decodeValidations(_ cursor: JSONCursor?, id: String) -> [SurveyNative.Validation] {
        guard let cursor else { return [] }
        guard let elements = cursor.elements else {
            report(.warning, cursor, "validations of '\(id)' is not an array, so the engine ignores it", hint: "write an array of validation objects", rule: "sn-ignored-key")
            return []
        }
        var validations: [SurveyNative.Validation] = []
        for element in elements {
            guard let entry = element.object else {
                report(.warning, element, "a validation of '\(id)' is not an object, so the engine ignores it", hint: "write a validation object", rule: "sn-ignored-key")
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
            if let failure = SurveyNativeDecoder.alwaysFails(operation, operand) {
                report(
                    .error, element, "this validation of '\(id)' always fails, so no text passes it: \(failure) (reference §5)",
                    hint: "compare with a number using greater than, greater than or equal to, less than or less than or equal to, the only validations SurveyNative implements",
                    rule: "sn-validation-always-fails")
            }
            validations.append(
                SurveyNative.Validation(
                    operation: operation, operand: operand, failMessage: entry["on_fail_message"]?.stringValue,
                    forLabel: entry["for_label"]?.stringValue, location: entry.location))
        }
        return validations
    }

    /// Why a validation fails whatever is typed, seen from the entry alone: `DefaultValidator` knows only the
    /// four numeric comparisons (one of them holds for some pair of numbers; any other operation never does)
    /// and compares through Double, so a value that is not a number, or none, never passes.
    static func alwaysFails(_ operation: String, _ operand: SurveyNative.Validation.Operand) -> String? {
        guard SurveyNative.Validation.Comparison(operation) != .unimplemented else {
            return operation.isEmpty ? "it has no \"operation\"" : "the engine does not implement the validation \"\(operation)\""
        }
        switch operand {
        case .none: return "it has neither \"value\" nor \"answer_to_question_id\""
        case .value(let value) where SurveyNativeComparison.number(value) == nil: return "its value \(CanonicalJSON.compact(value)) is not a number"
        case .value, .answer: return nil
        }
    }

    private mutating func decodeYearPicker(_ object: JSONObjectCursor, id: String, crash: inout String?) -> SurveyNative.YearPicker {
        func string(_ key: String, example: String) -> (String, JSONCursor)? {
            guard let cursor = object[key] else { return nil }
            guard let text = cursor.stringValue else {
                report(
                    .warning, cursor, "\(key) of '\(id)' is \(cursor.node.kindDescription), not a string, so the engine treats it as absent",
                    hint: "write it as a string, e.g. \"\(example)\"", rule: "sn-numeric-string")
                return nil
            }
            return (text, cursor)
        }
        func year(_ key: String) -> SurveyNative.YearSpec? {
            guard let (text, cursor) = string(key, example: "1990") else { return nil }
            if text == "current_year" { return .currentYear }
            guard let value = Int(text) else {
                crashes(
                    "\(key) \"\(text)\" of '\(id)' is not a year; the engine's Int(_:)! crashes on it", at: cursor, question: id,
                    hint: "write a year such as \"1990\", or \"current_year\"", &crash)
                return nil
            }
            return .year(value)
        }
        let minYear = year("min_year")
        let maxYear = year("max_year")
        var numYears: Int?
        if let (text, cursor) = string("num_years", example: "100") {
            if let count = Int(text) {
                numYears = count
            } else {
                crashes(
                    "num_years \"\(text)\" of '\(id)' is not a count; the engine's Int(_:)! crashes on it", at: cursor, question: id,
                    hint: "write a number of years such as \"100\"", &crash)
            }
        }
        let initial = string("initial_year", example: "1990")?.0
        if let order = object["sort_order"], !["DESC", "ASC"].contains(order.stringValue) {
            report(
                .warning, order, "sort_order of '\(id)' is \(CanonicalJSON.compact(order.node.plain)), not \"DESC\", so the engine lists the years ascending (reference §7)",
                hint: "write \"DESC\" (newest first) or \"ASC\"", rule: "sn-ignored-key")
        }
        return SurveyNative.YearPicker(
            minYear: minYear, maxYear: maxYear, numYears: numYears, initialYear: initial,
            descending: object["sort_order"]?.stringValue == "DESC")
    }

    private mutating func decodeDatePicker(_ object: JSONObjectCursor, id: String, crash: inout String?) -> SurveyNative.DatePicker {
        func date(_ key: String) -> SurveyNative.DateSpec? {
            guard let cursor = object[key] else { return nil }
            guard let text = cursor.stringValue else {
                report(
                    .warning, cursor, "\(key) of '\(id)' is \(cursor.node.kindDescription), not a string, so the engine treats it as absent",
                    hint: "write it as a string, e.g. \"2020-01-31\" or \"current_date\"", rule: "sn-ignored-key")
                return nil
            }
            if text == "current_date" { return .currentDate }
            guard let value = CalendarDate(iso: text) else {
                crashes(
                    "\(key) \"\(text)\" of '\(id)' is not a yyyy-MM-dd date; the engine force-unwraps the parsed date", at: cursor, question: id,
                    hint: "write the date as yyyy-MM-dd, e.g. \"2020-01-31\", or \"current_date\"", &crash)
                return nil
            }
            return .date(value)
        }
        _ = date("date")
        let minDate = date("min_date")
        let maxDate = date("max_date")
        var diff: (Int, Int, Int)?
        if let diffCursor = object["date_diff"] {
            if let diffObject = diffCursor.object, diffObject.members.allSatisfy({ member in
                member.value.numberValue.map { $0 == $0.rounded() } ?? false
            }) {
                let value = diffCursor.node.plain.objectValue ?? [:]
                diff = (Int(value["year"]?.numberValue ?? 0), Int(value["month"]?.numberValue ?? 0), Int(value["day"]?.numberValue ?? 0))
                reportDateDiff(diffObject, applies: (minDate == nil) != (maxDate == nil), id: id)
            } else {
                report(
                    .warning, diffCursor, "date_diff of '\(id)' is not an object of whole numbers, so the engine ignores it",
                    hint: "write e.g. {\"year\": -1}", rule: "sn-ignored-key")
            }
        }
        return SurveyNative.DatePicker(minDate: minDate, maxDate: maxDate, diff: diff)
    }

    /// `date_diff` (reference §7): only `day`, `month` and `year` count; it applies only when exactly one of
    /// min_date and max_date is set; its components are added in dictionary order, which is not fixed.
    private mutating func reportDateDiff(_ diff: JSONObjectCursor, applies: Bool, id: String) {
        let components = ["year", "month", "day"]
        for key in diff.keys where !components.contains(key) {
            report(
                .warning, diff[key] ?? diff.cursor, "date_diff of '\(id)' has \"\(key)\", which the engine ignores: only day, month and year count",
                hint: "use \"day\", \"month\" or \"year\"\(Spelling.suggestion(for: key, in: components))", rule: "sn-ignored-key")
        }
        if !applies {
            report(
                .warning, diff.cursor, "date_diff of '\(id)' is ignored: the engine applies it only when exactly one of min_date and max_date is set",
                hint: "set only the bound the difference is counted from", rule: "sn-ignored-key")
        } else if diff.keys.filter(components.contains).count > 1 {
            report(
                .warning, diff.cursor,
                "date_diff of '\(id)' has more than one component; the engine adds them one by one in dictionary order, which is not fixed, so the bound can differ by a day from run to run (reference §7)",
                hint: "use a single component, e.g. {\"day\": -400} instead of {\"year\": -1, \"month\": -1}", rule: "sn-date-diff-order")
        }
    }

    // MARK: conditions

    /// A condition whose evaluation crashes the engine on a force-cast: an error for lint, a refusal of the
    /// action that evaluates it.
    private mutating func crashes(_ object: JSONObjectCursor, _ reason: String) {
        conditionCrashes[object.location.position] = reason
        report(.error, object.cursor, "\(reason): it crashes as soon as it evaluates the condition", hint: "add the \"operation\"", rule: "sn-condition-without-value")
    }

    /// The dispatch of `conditionMet` (SQ:469-531): a dict with `id` is a simple condition, one with
    /// `subconditions` a tree, `operation: custom` a host condition; anything else is malformed and true.
    private mutating func decodeCondition(_ cursor: JSONCursor) -> Condition {
        guard let object = cursor.object else {
            report(
                .error, cursor, "a condition that is not an object is malformed; the engine treats it as true",
                hint: "write a condition object: {\"id\": …, \"operation\": …, \"value\": …}", rule: "sn-malformed-condition")
            return Condition(.constant(true, reason: "not an object", ignored: []), location: cursor.location)
        }
        let location = object.location
        let operation = object["operation"]?.stringValue
        if let question = object["id"]?.stringValue {
            if operation == nil {
                // `condition["operation"] as! String` (SQ:471), before the value is read.
                crashes(object, "a show_if condition on '\(question)' has no \"operation\" string, which the engine force-casts (SQ:471)")
            }
            return Condition(
                .leaf(ConditionLeaf(question: question, key: object["subid"]?.stringValue, operation: operation ?? "", operand: object["value"]?.node.plain)),
                location: location)
        }
        // A tree only when subconditions is an array of objects (`as? [[String : Any]]`, SQ:494); else the
        // dict reads on as a custom or a malformed condition.
        if let subconditions = object["subconditions"], let elements = subconditions.elements, elements.allSatisfy({ $0.object != nil }) {
            let children = elements.map { decodeCondition($0) }
            if operation == nil {
                // `condition["operation"] as! String` (SQ:495).
                crashes(object, "a show_if tree has no \"operation\" string, which the engine force-casts (SQ:495)")
                return Condition(.all(children), location: location)
            }
            if children.isEmpty, operation == "and" || operation == "or" {
                report(
                    .error, cursor, "an \(operation ?? "") without subconditions is always \(operation == "and"), whatever is answered (reference §4)",
                    hint: "add the conditions it combines, or remove the show_if", rule: "sn-constant-condition")
            }
            switch operation {
            case "and": return Condition(.all(children), location: location)
            case "or": return Condition(.any(children), location: location)
            default:
                report(
                    .error, cursor,
                    "the tree operation \(operation.map { "\"\($0)\"" } ?? "(none)") is neither \"and\" nor \"or\"; the engine treats the condition as true (reference §4)",
                    hint: "use \"and\" or \"or\"", rule: "sn-unknown-operation")
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
        report(
            .error, cursor,
            "this condition has no \"id\", no array of condition objects in \"subconditions\" (SQ:494) and no operation \"custom\"; the engine treats it as true",
            hint: "name the question the condition reads with \"id\"", rule: "sn-malformed-condition")
        return Condition(.constant(true, reason: "malformed", ignored: []), location: location)
    }
}
