import SurveyCore

/// Reads and validates a schema as the server's `validateQuestionnaireSchema` does (owlmetry/owlmetry@e9b6cab6
/// `packages/shared/src/questionnaires.ts:125-281`): every violation is a located error (the server answers
/// 400 to the whole schema), and reading goes on past each so that lint reports them all, where the server
/// stops at the first. Unknown keys, which the validator drops, are warnings.
struct OwlmetryDecoder {
    private(set) var problems: [Diagnostic] = []
    private var questions: [Owlmetry.Question] = []

    struct Outline {
        var file: String
        var questions: [Owlmetry.Question]
        var problems: [Diagnostic]
        var location: SourceLocation
    }

    static func recognizes(_ root: JSONNode) -> Bool {
        root.kind == .object && root["version"] != nil && root["questions"] != nil && root["submit"] == nil
    }

    static func read(_ root: JSONCursor) -> Outline {
        var decoder = OwlmetryDecoder()
        decoder.readSchema(root)
        return Outline(file: root.file.path, questions: decoder.questions, problems: decoder.problems, location: root.location)
    }

    private mutating func error(_ cursor: JSONCursor, _ message: String, hint: String? = nil, rule: String = "owl-schema") {
        problems.append(cursor.diagnostic(.error, message, hint: hint, rule: rule))
    }

    private mutating func readSchema(_ root: JSONCursor) {
        guard let schema = root.object else {
            error(root, "expected the schema object {\"version\": 1, \"questions\": [...]}, found \(root.node.kindDescription)")
            return
        }
        if let version = schema["version"], version.numberValue != 1 {
            error(version, "expected version 1, found \(version.node.plain)", hint: "Owlmetry schemas are version 1")
        }
        warnUnknownKeys(schema, known: ["version", "questions"], in: "the schema")
        guard let list = schema["questions"] else { return }
        guard let elements = list.elements else {
            error(list, "expected an array for \"questions\", found \(list.node.kindDescription)")
            return
        }
        if elements.isEmpty { error(list, "questions must not be empty; expected 1 to \(Owlmetry.maximumQuestions) questions") }
        if elements.count > Owlmetry.maximumQuestions {
            error(elements[Owlmetry.maximumQuestions], "too many questions (\(elements.count)); expected at most \(Owlmetry.maximumQuestions)")
        }
        var seen: [String: SourcePosition] = [:]
        for cursor in elements {
            guard let question = readQuestion(cursor) else { continue }
            if let first = seen[question.id] {
                error(cursor, "duplicate question id \"\(question.id)\" (first at \(first)); expected unique ids", hint: "answers are keyed by id")
                continue
            }
            seen[question.id] = question.location.position
            questions.append(question)
        }
    }

    private mutating func readQuestion(_ cursor: JSONCursor) -> Owlmetry.Question? {
        guard let object = cursor.object else {
            error(cursor, "expected a question object, found \(cursor.node.kindDescription)")
            return nil
        }
        let id = readID(object, what: "question")
        let typeName = object["type"]?.stringValue
        let type = typeName.flatMap(Owlmetry.QuestionType.init(rawValue:))
        if let member = object["type"] {
            if type == nil {
                let names = Owlmetry.QuestionType.allCases.map(\.rawValue)
                error(member, "unknown question type \(member.node.plain); expected one of \(names.joined(separator: ", "))\(Spelling.suggestion(for: typeName ?? "", in: names))")
            }
        } else {
            error(cursor, "question \(id.map { "\"\($0)\" " } ?? "")has no \"type\"; expected one of text, single_choice, multi_choice, rating, nps")
        }
        let title = readText(object, "title", range: 1...Owlmetry.maximumTitleLength, required: true)
        let subtitle = readText(object, "subtitle", range: 0...Owlmetry.maximumSubtitleLength, required: false)
        var required: Bool?
        if let member = object["required"] {
            required = member.boolValue
            if required == nil { error(member, "expected true or false for \"required\", found \(member.node.kindDescription)") }
        } else {
            error(cursor, "question \(id.map { "\"\($0)\" " } ?? "")has no \"required\"; expected true or false (it does not default)")
        }
        var placeholder: String?
        var multiline: Bool?
        var options: [Owlmetry.Option] = []
        var known = ["id", "type", "title", "subtitle", "required"]
        switch type {
        case .text?:
            known += ["placeholder", "multiline"]
            placeholder = readText(object, "placeholder", range: 0...Owlmetry.maximumPlaceholderLength, required: false)
            // Absent or null is omitted (`questionnaires.ts:210-215`).
            if let member = object["multiline"], member.node.kind != .null {
                if let value = member.boolValue { multiline = value } else { error(member, "expected true or false (or null) for \"multiline\", found \(member.node.kindDescription)") }
            }
        case .singleChoice?, .multiChoice?:
            known += ["options"]
            options = readOptions(object, cursor: cursor)
        case .rating?:
            known += ["scale"]
            if let scale = object["scale"] {
                if scale.numberValue != 5 { error(scale, "expected 5 for \"scale\" (the only scale of version 1), found \(scale.node.plain)") }
            } else {
                error(cursor, "a rating question has no \"scale\"; expected 5")
            }
        case .nps?, nil:
            break
        }
        warnUnknownKeys(object, known: known, in: "question \(id.map { "\"\($0)\"" } ?? "")")
        guard let id, let type, let title, let required else { return nil }
        return Owlmetry.Question(
            id: id, type: type, title: title, subtitle: subtitle, isRequired: required, placeholder: placeholder, multiline: multiline,
            options: options, location: object.location)
    }

    private mutating func readOptions(_ object: JSONObjectCursor, cursor: JSONCursor) -> [Owlmetry.Option] {
        guard let member = object["options"] else {
            error(cursor, "a choice question has no \"options\"; expected \(Owlmetry.optionCount.lowerBound) to \(Owlmetry.optionCount.upperBound) options")
            return []
        }
        guard let elements = member.elements else {
            error(member, "expected an array for \"options\", found \(member.node.kindDescription)")
            return []
        }
        if !Owlmetry.optionCount.contains(elements.count) {
            error(member, "\(elements.count) option(s); expected \(Owlmetry.optionCount.lowerBound) to \(Owlmetry.optionCount.upperBound)")
        }
        var options: [Owlmetry.Option] = []
        var seen: Set<String> = []
        for element in elements {
            guard let option = element.object else {
                error(element, "expected an option {\"id\", \"label\"}, found \(element.node.kindDescription)")
                continue
            }
            let id = readID(option, what: "option")
            let label = readText(option, "label", range: 1...Owlmetry.maximumLabelLength, required: true)
            warnUnknownKeys(option, known: ["id", "label"], in: "an option")
            guard let id, let label else { continue }
            if !seen.insert(id).inserted {
                error(element, "duplicate option id \"\(id)\"; expected unique option ids")
                continue
            }
            options.append(Owlmetry.Option(id: id, label: label, location: option.location))
        }
        return options
    }

    /// An id of `/^[a-z0-9_]+$/`, at most 32 characters.
    private mutating func readID(_ object: JSONObjectCursor, what: String) -> String? {
        guard let member = object["id"] else {
            error(object.cursor, "the \(what) has no \"id\"; expected one of lowercase letters, digits and _")
            return nil
        }
        guard let id = member.stringValue else {
            error(member, "expected a string for the \(what) id, found \(member.node.kindDescription)")
            return nil
        }
        if !Owlmetry.isValidID(id) {
            error(member, "\(what) id \"\(id)\" must match /^[a-z0-9_]+$/", hint: "use lowercase letters, digits and _ only")
            return nil
        }
        if id.count > Owlmetry.maximumIDLength {
            error(member, "\(what) id \"\(id)\" is \(id.count) characters; expected at most \(Owlmetry.maximumIDLength)")
            return nil
        }
        return id
    }

    /// A text member within its length in UTF-16 code units (JavaScript's `length`). Titles and labels are
    /// required and must not be blank (`questionnaires.ts:177-180, 268-276`). An optional text (subtitle,
    /// placeholder) that is absent or null is omitted; any other value that is not a string rejects the whole
    /// schema (`:182-187, 204-206`).
    private mutating func readText(_ object: JSONObjectCursor, _ key: String, range: ClosedRange<Int>, required: Bool) -> String? {
        guard let member = object[key], required || member.node.kind != .null else {
            if required { error(object.cursor, "missing \"\(key)\"; expected a string of \(range.lowerBound) to \(range.upperBound) characters") }
            return nil
        }
        guard let text = member.stringValue else {
            let expected = required ? "a string" : "a string of at most \(range.upperBound) characters (or null)"
            error(
                member, "expected \(expected) for \"\(key)\", found \(member.node.kindDescription)",
                hint: required ? nil : "the server rejects the whole schema (400) when \"\(key)\" is present and not a string; remove it or write it as text")
            return nil
        }
        if required, Owlmetry.isBlank(text) {
            error(member, "\"\(key)\" must not be blank")
            return nil
        }
        let length = Owlmetry.length(text)
        if !range.contains(length) {
            error(member, "\"\(key)\" is \(length) characters (UTF-16 code units, as the server counts); expected \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return text
    }

    private mutating func warnUnknownKeys(_ object: JSONObjectCursor, known: [String], in what: String) {
        for key in object.keys where !known.contains(key) {
            guard let location = object.keyLocation(key) else { continue }
            problems.append(
                Diagnostic(
                    .warning, file: object.cursor.file.path, location: location,
                    message: "\(what) has a key \"\(key)\" the validator does not know: it is dropped from the normalised schema\(Spelling.suggestion(for: key, in: known))",
                    hint: "remove it, or spell it as one of \(known.joined(separator: ", "))", rule: "owl-unknown-key"))
        }
    }
}
