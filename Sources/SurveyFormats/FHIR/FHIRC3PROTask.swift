import SurveyCore

/// A Questionnaire as C3-PRO turns it into a ResearchKit task (docs/fhir.md, the C3-PRO tables; C3-PRO
/// `QuestionnairePromise.swift`, `QuestionnaireItemPromise.swift`): the items flattened in document order
/// into steps, each question item one question step named by its linkId, each group or display item with a
/// title or text one instruction step, the others transparent. Each step carries its requirements (its
/// ancestors' and its own enableWhen, all ANDed) and the linkIds its answer is wrapped in. What C3-PRO cannot
/// turn into a step gets none and is reported beside the task, which still runs; what makes ResearchKit throw
/// while the task is built (a slider past its limits, two steps with one identifier) stops the app.
struct FHIRC3PROTask: Sendable {
    /// How a question step takes its answer (C3-PRO `c3_asAnswerFormat`).
    enum Format: Sendable, Equatable {
        case boolean, decimal, date, dateTime, time
        /// `integerAnswerFormat(withUnit: nil)`: no minimum, no maximum.
        case integer
        case scale(Scale)
        case quantity(unit: String?)
        /// Text entry: `url` items answer valueUri, the others valueString.
        case text(url: Bool)
        case choice(multiple: Bool)
    }

    /// An integer item with both minValue and maxValue (valueInteger), max > min: a slider of whole steps.
    struct Scale: Sendable, Equatable {
        let min: Int
        let max: Int
        /// questionnaire-defaultValue, else the minimum, as C3-PRO passes it to ResearchKit.
        let defaultValue: Int
        let minLabel: String?
        let maxLabel: String?
        /// ResearchKit draws the slider vertically when max − min > 5.
        var isVertical: Bool { max - min > 5 }
        /// The answer the slider starts with: ResearchKit presets the default only when it lies on the scale.
        var preset: Int? { (min...max).contains(defaultValue) ? defaultValue : nil }
    }

    /// The result a requirement expects (C3-PRO `c3_answerResult`): a boolean, a text, or the one choice
    /// "system code" (compared with the whole answer of a choice step).
    enum Expected: Sendable, Equatable {
        case boolean(Bool)
        case text(String)
        case choice(String)
    }

    /// One enableWhen as a `ResultRequirement`: the step whose result it reads and the result it expects.
    struct Requirement: Sendable {
        let condition: FHIR.EnableWhen
        let expected: Expected
        /// The step named by the condition's question; nil when no step has that identifier (a transparent
        /// item, an item without a step, a generated id), whose result therefore never exists.
        let step: Int?
        /// The item whose enableWhen it is (the step's own item or an ancestor).
        let owner: Int
    }

    struct Step: Sendable {
        let id: String
        let item: Int
        /// nil for an instruction step.
        let format: Format?
        /// `isOptional = !required`: an optional question step has a Skip button.
        let isOptional: Bool
        let requirements: [Requirement]
        /// The linkIds C3-PRO wraps the step's answer in, nearest group first (its `linkIds`; the synthetic
        /// `{root}` left out). A group without a linkId gives a fresh id each time, so here one per step.
        let wrappers: [String]
        let title: String?
        let text: String?

        var isQuestion: Bool { format != nil }
    }

    /// An error C3-PRO reports while preparing the task, with the item and where.
    struct Report: Error, Sendable, Equatable {
        let item: Int
        let message: String
        let location: SourceLocation
        let rule: String

        static func == (lhs: Report, rhs: Report) -> Bool {
            lhs.item == rhs.item && lhs.message == rhs.message && lhs.rule == rhs.rule && lhs.location.position == rhs.location.position
        }
    }

    let steps: [Step]
    let stepByID: [String: Int]
    /// The errors C3-PRO hands over beside the task, which runs without what they name: items that get no
    /// step, enableWhen it cannot read. In document order (C3-PRO collects them from concurrent promises).
    let reports: [Report]
    /// Every reason ResearchKit throws while the task is built, in the order they are met: sliders past
    /// ResearchKit's limits (raised while the items are turned into steps), then steps sharing an identifier
    /// (raised by the ordered task).
    let buildProblems: [Report]
    /// The first of them: the app stops before a step shows. nil when the task builds.
    var buildFailure: Report? { buildProblems.first }

    /// C3-PRO stores a choice as "system code"; an option without a system gets this one (sic).
    static let defaultSystem = "https://fhir.smalthealthit.org"
    /// The code C3-PRO gives a ValueSet concept without one.
    static let missingCode = "⚠️"

    /// ResearchKit's limits on a scale (`ORKScaleAnswerFormat validateParameters`): at most 13 steps of 1,
    /// bounds within ±10000.
    static let scaleMaximumSteps = 13
    /// STU3's abstract item type, which R4 dropped: C3-PRO makes no step of it.
    static let stu3QuestionType = "question"
    static let scaleBound = 10_000

    /// The task's identifier, which the response's `questionnaire` refers to: the id, else the first
    /// identifier's value, else "questionnaire-task" (never the url).
    static func identifier(id: String?, identifier: String?) -> String {
        id ?? identifier ?? "questionnaire-task"
    }

    init(_ survey: FHIRSurvey) {
        var steps: [Step] = []
        var reports: [Report] = []
        var scaleProblems: [Report] = []
        // What each item passes to its children: its parent's requirements and its own (its parent's alone
        // when it has an enableWhen C3-PRO cannot read).
        var passed = [[(condition: FHIR.EnableWhen, expected: Expected, owner: Int)]](repeating: [], count: survey.items.count)
        for (index, item) in survey.items.enumerated() {
            var requirements = item.parent.map { passed[$0] } ?? []
            switch Self.ownRequirements(of: item, index: index) {
            case .success(let own): requirements += own.map { ($0.condition, $0.expected, index) }
            case .failure(let report): reports.append(report)
            }
            passed[index] = requirements
            let (title, text) = Self.titleAndText(item)
            let format: Format?
            switch Self.format(of: item, index: index) {
            case .success(let found): format = found
            case .failure(let report):
                reports.append(report)
                continue
            }
            if case .scale(let scale)? = format, let problem = Self.scaleProblem(scale, item: item, index: index) { scaleProblems.append(problem) }
            guard format != nil || title != nil || text != nil else { continue }
            steps.append(
                Step(
                    id: item.linkId, item: index, format: format, isOptional: !item.required, requirements: [],
                    wrappers: Self.wrappers(of: index, stepID: item.linkId, survey: survey), title: title, text: text))
        }
        var byID: [String: Int] = [:]
        var duplicates: [Report] = []
        for (position, step) in steps.enumerated() {
            if let first = byID[step.id] {
                duplicates.append(
                    Report(
                        item: step.item,
                        message: "ResearchKit throws while C3-PRO builds the task: two steps are named '\(step.id)' (the first at \(survey.items[steps[first].item].location.position)), and an ordered task needs unique step identifiers",
                        location: survey.items[step.item].location, rule: "c3pro-duplicate-step"))
            } else {
                byID[step.id] = position
            }
        }
        self.stepByID = byID
        self.steps = steps.map { step in
            let requirements = passed[step.item].map { Requirement(condition: $0.condition, expected: $0.expected, step: byID[$0.condition.question], owner: $0.owner) }
            return Step(
                id: step.id, item: step.item, format: step.format, isOptional: step.isOptional, requirements: requirements, wrappers: step.wrappers,
                title: step.title, text: step.text)
        }
        self.reports = reports
        self.buildProblems = scaleProblems + duplicates
    }

    /// `c3_bestTitleAndText`: the title is the first code display, else the first code, else the text; the
    /// text is the item's text when the title came from a code, else the instruction, else the help
    /// extension. Runs of spaces become one.
    static func titleAndText(_ item: FHIR.Item) -> (title: String?, text: String?) {
        var title = item.c3pro.codeTitle
        var text = item.text
        if title == nil {
            title = item.text
            text = nil
        }
        if text == nil { text = item.c3pro.instruction ?? item.c3pro.help }
        return (title.map(collapsingSpaces), text.map(collapsingSpaces))
    }

    private static func collapsingSpaces(_ text: String) -> String {
        var result = ""
        for character in text where !(character == " " && result.last == " ") { result.append(character) }
        return result
    }

    /// The ids C3-PRO wraps a step's answer in, nearest ancestor first: each group's linkId; an ancestor
    /// whose linkId was generated gives a fresh id for every step below it (C3-PRO calls `UUID()` anew). The
    /// children of an item named `{root}` get no parent, as those of C3-PRO's own synthetic top group do, so
    /// the list stops below it.
    private static func wrappers(of index: Int, stepID: String, survey: FHIRSurvey) -> [String] {
        var ids: [String] = []
        var ancestor = survey.items[index].parent
        while let current = ancestor, survey.items[current].linkId != "{root}" {
            let item = survey.items[current]
            ids.append(item.c3pro.linkIdGenerated ? "\(item.linkId)-for-\(stepID)" : item.linkId)
            ancestor = item.parent
        }
        return ids
    }

    // MARK: enableWhen

    /// An item's own requirements (`c3_enableQuestionnaireElementWhen`), or the first of its enableWhen that
    /// C3-PRO cannot read: then it throws, and the item keeps none of its own.
    private static func ownRequirements(of item: FHIR.Item, index: Int) -> Result<[(condition: FHIR.EnableWhen, expected: Expected)], Report> {
        var problems = item.c3pro.unreadableConditions.map { (problem: $0.problem, location: $0.location) }
        var own: [(condition: FHIR.EnableWhen, expected: Expected)] = []
        for condition in item.enableWhen {
            switch expected(condition) {
            case .success(let expected): own.append((condition, expected))
            case .failure(let problem): problems.append((problem.text, condition.location))
            }
        }
        guard let first = problems.min(by: { $0.location.position < $1.location.position }) else { return .success(own) }
        return .failure(
            Report(
                item: index,
                message: "C3-PRO cannot read an enableWhen of '\(item.linkId)': it \(first.problem); '\(item.linkId)' keeps none of its own conditions and shows whenever its groups do",
                location: first.location, rule: "c3pro-unsupported-enablewhen"))
    }

    struct Unreadable: Error {
        let text: String
    }

    /// The result C3-PRO builds from a condition: answerBoolean, answerString, or answerCoding with a code
    /// (its system defaulted), compared for equality; it reads no operator (STU3 has none), so an R4
    /// condition is read only when its operator is `=`.
    static func expected(_ condition: FHIR.EnableWhen) -> Result<Expected, Unreadable> {
        if condition.op == .exists { return .failure(Unreadable(text: "tests whether '\(condition.question)' is answered (hasAnswer / exists)")) }
        if condition.op != .equals { return .failure(Unreadable(text: "uses the operator '\(condition.op.rawValue)', where C3-PRO only tests equality")) }
        let json = condition.answer.json
        switch condition.answer.type {
        case .boolean: return .success(.boolean(json.boolValue ?? false))
        case .string: return .success(.text(json.stringValue ?? ""))
        case .coding:
            guard json.objectValue?["code"]?.stringValue != nil else { return .failure(Unreadable(text: "has an answerCoding without a code")) }
            return .success(.choice(choiceKey(json)))
        default:
            return .failure(Unreadable(text: "compares answer\(condition.answer.type.rawValue), where C3-PRO reads only answerBoolean, answerString and answerCoding"))
        }
    }

    // MARK: answer formats

    /// The answer format of an item (nil for groups and display items), or why C3-PRO makes no step of it.
    private static func format(of item: FHIR.Item, index: Int) -> Result<Format?, Report> {
        func failing(_ message: String, _ rule: String) -> Result<Format?, Report> {
            .failure(Report(item: index, message: message + "; it gets no step and the task runs without it", location: item.location, rule: rule))
        }
        if case .lhcTextBox(let written)? = item.rendering, written.flatMap(FHIR.ItemType.init(rawValue:)) == nil {
            // A type R4 does not have. STU3's abstract `question` falls to C3-PRO's `default:` case; a missing
            // type, or a code Swift-FHIR's lenient parsing drops, is C3-PRO's text question (read as a string).
            if written == Self.stu3QuestionType {
                return failing("'\(item.linkId)' has STU3's abstract type \"question\", for which C3-PRO has no answer format", "c3pro-unsupported-item")
            }
            return .success(.text(url: false))
        }
        switch item.type {
        case .group, .display: return .success(nil)
        case .boolean: return .success(.boolean)
        case .decimal: return .success(.decimal)
        case .date: return .success(.date)
        case .dateTime: return .success(.dateTime)
        case .time: return .success(.time)
        case .string: return .success(.text(url: false))
        case .url: return .success(.text(url: true))
        case .quantity: return .success(.quantity(unit: item.c3pro.unit))
        case .integer:
            let low = item.minValue.flatMap { $0.type == .integer ? $0.json.numberValue.flatMap { Int(exactly: $0) } : nil }
            let high = item.maxValue.flatMap { $0.type == .integer ? $0.json.numberValue.flatMap { Int(exactly: $0) } : nil }
            if let low, let high, high > low {
                return .success(.scale(Scale(min: low, max: high, defaultValue: item.c3pro.defaultValue ?? low, minLabel: item.c3pro.minLabel, maxLabel: item.c3pro.maxLabel)))
            }
            return .success(.integer)
        case .choice, .openChoice:
            switch item.c3pro.optionsSource {
            case .valueSet(let reference):
                guard !item.options.isEmpty else { return failing("the ValueSet '\(reference)' of '\(item.linkId)' has no codes: C3-PRO has no choices to offer", "c3pro-no-choices") }
                return .success(.choice(multiple: item.repeats && (item.maxOccurs ?? 2) > 1))
            case .inline:
                return failing("the choices of '\(item.linkId)' are written in the item (option / answerOption), which C3-PRO never implemented", "c3pro-inline-options")
            case .unresolved(let reference):
                return failing("the ValueSet '\(reference)' of '\(item.linkId)' is neither contained nor in a ValueSet file beside the Questionnaire: C3-PRO has no choices to offer", "c3pro-valueset-missing")
            case .none:
                return failing("'\(item.linkId)' is a choice item without options: C3-PRO has no choices to offer", "c3pro-no-choices")
            }
        case .text, .attachment, .reference:
            return failing("'\(item.linkId)' is \(item.type.withArticle) item, for which C3-PRO has no answer format", "c3pro-unsupported-item")
        }
    }

    /// Why ResearchKit's scale initializer throws NSInvalidArgumentException for this slider, or nil.
    private static func scaleProblem(_ scale: Scale, item: FHIR.Item, index: Int) -> Report? {
        let why: String
        if scale.max - scale.min > scaleMaximumSteps {
            why = "it has \(scale.max - scale.min) steps (\(scale.min) to \(scale.max)), and a ResearchKit scale takes at most \(scaleMaximumSteps)"
        } else if scale.min < -scaleBound || scale.max > scaleBound {
            why = "its bounds \(scale.min) and \(scale.max) leave ResearchKit's range of −\(scaleBound) to \(scaleBound)"
        } else {
            return nil
        }
        return Report(
            item: index, message: "ResearchKit throws while C3-PRO builds the slider of '\(item.linkId)' (minValue and maxValue make an integer a slider): \(why)",
            location: item.location, rule: "c3pro-slider-limits")
    }

    /// The key C3-PRO stores and compares a Coding by: "system code", the system defaulted.
    static func choiceKey(_ coding: JSONValue) -> String {
        let object = coding.objectValue ?? [:]
        return (object["system"]?.stringValue ?? defaultSystem) + " " + (object["code"]?.stringValue ?? missingCode)
    }
}

/// C3-PRO's requirement on a step result (`ConditionalStep.requirementsAreSatisfiedBy`, `c3_hasSameResponse`):
/// the result's answer must equal the expected one as Foundation objects do. A boolean equals a boolean
/// answer; a text equals a text answer (string or url); a choice "system code" equals a choice answer holding
/// exactly that one choice (a multiple choice is compared as a whole). A result without an answer (skipped,
/// or an instruction step's) never matches.
enum FHIRC3PRORules {
    static func holds(_ expected: FHIRC3PROTask.Expected, answers: [FHIR.Value]) -> Bool {
        switch expected {
        case .boolean(let flag):
            return answers.count == 1 && answers[0].type == .boolean && answers[0].json.boolValue == flag
        case .text(let text):
            return answers.count == 1 && (answers[0].type == .string || answers[0].type == .uri) && answers[0].json.stringValue == text
        case .choice(let key):
            return answers.count == 1 && answers[0].type == .coding && FHIRC3PROTask.choiceKey(answers[0].json) == key
        }
    }
}
