import SurveyCore

/// A Questionnaire as C3-PRO turns it into a ResearchKit task (§A3, `QuestionnaireItemPromise`): the items
/// flattened in document order into steps, each question item one question step named by its linkId, each
/// group or display item with a text or title one instruction step, the others transparent. Each step carries
/// its requirements (its ancestors' and its own enableWhen, all ANDed) and the linkIds of its ancestors, from
/// which the response is rebuilt. What C3-PRO cannot turn into a step makes the whole task fail to prepare.
struct FHIRC3PROTask: Sendable {
    /// How a question step takes its answer (§A3, answer formats).
    enum Format: Sendable, Equatable {
        case boolean, decimal, date, dateTime, time
        case integer(min: Double?, max: Double?)
        case scale(Scale)
        case quantity(unit: String?)
        /// Text entry: `url` items answer valueUri, the others valueString.
        case text(url: Bool)
        case choice(multiple: Bool)
    }

    /// An integer item with both minValue and maxValue, max > min: a slider of whole steps.
    struct Scale: Sendable, Equatable {
        let min: Int
        let max: Int
        /// questionnaire-defaultValue when it is on the scale, else the minimum.
        let defaultValue: Int
        let minLabel: String?
        let maxLabel: String?
        /// ResearchKit draws the slider vertically when max − min > 5.
        var isVertical: Bool { max - min > 5 }
    }

    /// One enableWhen as a `ResultRequirement`: the step whose result it reads and the result it expects.
    struct Requirement: Sendable {
        let condition: FHIR.EnableWhen
        /// The step named by the condition's question; nil when no step has that identifier (a transparent
        /// group or display item), whose result therefore never exists.
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
        /// The linkIds of the item's ancestors, outermost first (the synthetic `{root}` left out).
        let parents: [String]
        let title: String?
        /// The questionnaire-instruction extension.
        let detail: String?

        var isQuestion: Bool { format != nil }
    }

    /// Why C3-PRO cannot prepare the task (its promise fails, `whenCancelledOrFailed`), with where.
    struct Failure: Error, Sendable {
        let message: String
        let location: SourceLocation
        let rule: String
    }

    let steps: [Step]
    let stepByID: [String: Int]
    /// Every reason the task fails to prepare, in document order; the first is the one a session reports.
    let failures: [Failure]

    /// C3-PRO stores a choice as "system code"; an option without a system gets this one (sic, §A3).
    static let defaultSystem = "https://fhir.smalthealthit.org"

    init(_ survey: FHIRSurvey) {
        var steps: [Step] = []
        var failures: [Failure] = []
        var inherited = [[(condition: FHIR.EnableWhen, owner: Int)]](repeating: [], count: survey.items.count)
        var parents = [[String]](repeating: [], count: survey.items.count)
        for (index, item) in survey.items.enumerated() {
            if let parent = item.parent {
                inherited[index] = inherited[parent]
                parents[index] = parents[parent] + [survey.items[parent].linkId]
            }
            for condition in item.enableWhen {
                if let problem = Self.unsupported(condition) {
                    failures.append(Failure(message: "an enableWhen of '\(item.linkId)' \(problem)", location: condition.location, rule: "c3pro-unsupported-enablewhen"))
                }
                inherited[index].append((condition, index))
            }
            let format: Format?
            switch Self.format(of: item) {
            case .success(let found): format = found
            case .failure(let failure):
                failures.append(failure)
                continue
            }
            let title = item.text ?? item.c3pro.title
            guard format != nil || title != nil else { continue }
            steps.append(
                Step(
                    id: item.linkId, item: index, format: format, isOptional: !item.required, requirements: [], parents: parents[index], title: title,
                    detail: item.c3pro.instruction))
        }
        var byID: [String: Int] = [:]
        for (position, step) in steps.enumerated() {
            if let first = byID[step.id] {
                failures.append(
                    Failure(
                        message: "two steps are named '\(step.id)' (the first at \(survey.items[steps[first].item].location.position)): ResearchKit needs unique step identifiers",
                        location: survey.items[step.item].location, rule: "c3pro-duplicate-step"))
            } else {
                byID[step.id] = position
            }
        }
        self.stepByID = byID
        self.steps = steps.map { step in
            let requirements = inherited[step.item].map { Requirement(condition: $0.condition, step: byID[$0.condition.question], owner: $0.owner) }
            return Step(
                id: step.id, item: step.item, format: step.format, isOptional: step.isOptional, requirements: requirements, parents: step.parents,
                title: step.title, detail: step.detail)
        }
        if steps.isEmpty, failures.isEmpty {
            failures.append(
                Failure(message: "no item becomes a step: the items are groups and display items without text", location: survey.items.first?.location ?? SourceLocation(position: SourcePosition(line: 1, column: 1), pointer: .root), rule: "c3pro-no-steps"))
        }
        self.failures = failures.sorted { $0.location.position < $1.location.position }
    }

    /// Why C3-PRO cannot read a condition: it builds an expected result from answerBoolean, answerString or
    /// answerCoding only, and compares for equality only (an R4 `=` or STU3's answer[x] without operator).
    static func unsupported(_ condition: FHIR.EnableWhen) -> String? {
        if condition.op == .exists { return "tests whether '\(condition.question)' is answered (hasAnswer / exists), which C3-PRO does not support" }
        if condition.op != .equals { return "uses the operator '\(condition.op.rawValue)'; C3-PRO only tests equality" }
        switch condition.answer.type {
        case .boolean, .string, .coding: return nil
        default: return "compares answer\(condition.answer.type.rawValue); C3-PRO only reads answerBoolean, answerString and answerCoding"
        }
    }

    /// The answer format of an item (nil for groups and display items), or why C3-PRO rejects it.
    static func format(of item: FHIR.Item) -> Result<Format?, Failure> {
        func failing(_ message: String, _ rule: String) -> Result<Format?, Failure> {
            .failure(Failure(message: message, location: item.location, rule: rule))
        }
        switch item.type {
        case .group, .display: return .success(nil)
        case .boolean: return .success(.boolean)
        case .decimal: return .success(.decimal)
        case .date: return .success(.date)
        case .dateTime: return .success(.dateTime)
        case .time: return .success(.time)
        case .string, .text: return .success(.text(url: false))
        case .url: return .success(.text(url: true))
        case .quantity: return .success(.quantity(unit: item.c3pro.unit))
        case .integer:
            let low = item.minValue?.json.numberValue
            let high = item.maxValue?.json.numberValue
            if let low, let high, high > low, let min = Int(exactly: low), let max = Int(exactly: high) {
                let start = item.c3pro.defaultValue.flatMap { (min...max).contains($0) ? $0 : nil } ?? min
                return .success(.scale(Scale(min: min, max: max, defaultValue: start, minLabel: item.c3pro.minLabel, maxLabel: item.c3pro.maxLabel)))
            }
            return .success(.integer(min: low, max: high))
        case .choice, .openChoice:
            switch item.c3pro.optionsSource {
            case .valueSet:
                return .success(.choice(multiple: item.repeats && (item.maxOccurs ?? 2) > 1))
            case .inline:
                return failing("the choices of '\(item.linkId)' are written in the item (option / answerOption), which C3-PRO never implemented: it has no choices", "c3pro-inline-options")
            case .unresolved(let reference):
                return failing("the ValueSet '\(reference)' of '\(item.linkId)' is neither contained nor in a ValueSet file beside the Questionnaire", "c3pro-valueset-missing")
            case .none:
                return failing("'\(item.linkId)' is a choice item without options: C3-PRO has no choices to offer", "c3pro-no-choices")
            }
        case .attachment, .reference:
            return failing("'\(item.linkId)' is \(item.type.withArticle) item, which C3-PRO does not support", "c3pro-unsupported-item")
        }
    }

    /// The key C3-PRO stores and compares a Coding by: "system code", the system defaulted.
    static func choiceKey(_ coding: JSONValue) -> String {
        let object = coding.objectValue ?? [:]
        return (object["system"]?.stringValue ?? defaultSystem) + " " + (object["code"]?.stringValue ?? "")
    }
}

/// C3-PRO's enableWhen as a requirement on a step result (§A3, `ResultRequirement`): equality only, of a
/// boolean, a string or a Coding (system and code); a multiple-choice result is compared as a whole array
/// with `[value]`. The answers are those of a step result that exists; a requirement whose step has no
/// result yet is satisfied before it gets here.
struct FHIRC3PRORules: FHIREnablementRules {
    func holds(_ condition: FHIR.EnableWhen, answers: [FHIR.Value]) -> Bool {
        guard FHIRC3PROTask.unsupported(condition) == nil else { return false }
        let expected = condition.answer
        switch expected.type {
        case .coding:
            guard answers.allSatisfy({ $0.type == .coding }) else { return false }
            return answers.map { FHIRC3PROTask.choiceKey($0.json) } == [FHIRC3PROTask.choiceKey(expected.json)]
        default:
            return answers.count == 1 && answers[0].type == expected.type && answers[0].json == expected.json
        }
    }

    /// All of a step's requirements must hold.
    func combine(_ behavior: FHIR.EnableBehavior?, _ outcomes: [FHIRTruth]) -> FHIRTruth {
        outcomes.allSatisfy { $0 == .true } ? .true : .false
    }
}
