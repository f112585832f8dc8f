import SurveyCore

/// What `survey-replay lint` finds in a Questionnaire: everything that stops a load (read on, so all are
/// reported), the que-* constraints the engines render anyway, and what the engines do otherwise than the
/// author probably meant (conditions that can never match, engines that disagree, SDC expressions that are
/// not evaluated, cycles).
enum FHIRLint {
    /// Read as the default engine (LHC-Forms) reads the file: its errors are what stops a default run; the
    /// findings about constructs the engines read differently say what each engine does.
    static func findings(_ root: JSONCursor) -> [Diagnostic] {
        let reading = FHIRDecoder.read(root)
        guard let outline = reading.outline else { return reading.errors + reading.findings }
        // An STU3-era file loads with an enableWhen naming no item, so its reading's errors leave it out.
        let dangling = outline.stu3Form == nil ? [] : outline.dangling
        return reading.errors + reading.findings + outline.duplicates + dangling + conditionFindings(outline) + FHIRExpressionLint.findings(outline)
            + cycleFindings(outline) + requiredFindings(outline) + FHIRC3PROLint.findings(outline)
    }

    private static func finding(
        _ outline: FHIROutline, _ severity: Diagnostic.Severity, _ location: SourceLocation, _ message: String, hint: String, rule: String
    ) -> Diagnostic {
        Diagnostic(severity, file: outline.file, location: location, message: message, hint: hint, rule: rule)
    }

    // MARK: conditions

    private static func conditionFindings(_ outline: FHIROutline) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for (index, item) in outline.items.enumerated() {
            for condition in item.enableWhen {
                guard let sourceIndex = outline.itemByLinkId[condition.question] else { continue }
                let source = outline.items[sourceIndex]
                func add(_ severity: Diagnostic.Severity, _ message: String, hint: String, rule: String) {
                    found.append(finding(outline, severity, condition.location, message, hint: hint, rule: rule))
                }
                if !source.type.takesAnswers {
                    add(.warning, "an enableWhen of '\(item.linkId)' reads the \(source.type.rawValue) item '\(source.linkId)', which never has an answer", hint: "read a question", rule: "fhir-source-no-answers")
                    continue
                }
                if condition.op.isOrdering, !condition.answer.type.isOrdered {
                    add(
                        .warning,
                        "'\(condition.op.rawValue)' on answer\(condition.answer.type.rawValue) has no order: only integer, decimal, date, dateTime, time, string and Quantity have one; LHC-Forms never matches it (on a choice item it throws a TypeError once the item is answered), android-fhir's compareTo throws NotImplementedError",
                        hint: "use = or != for booleans, Codings and References", rule: "fhir-operator-type")
                } else if let reason = mismatch(condition, source: source), condition.op != .exists {
                    add(
                        .warning,
                        "\(reason): = in '\(condition.description)' of '\(item.linkId)' never matches an answer; LHC-Forms compares JavaScript values, so its != is loose and its orderings on numbers coerce, while android-fhir's orderings throw",
                        hint: "use the answer[x] type of the question's answers", rule: "fhir-answer-type")
                } else if condition.op != .exists, let reason = neverMatches(condition, source: source) {
                    let effect = condition.op == .notEquals ? "is always true" : "can never be true"
                    add(.warning, "\(reason), so '\(condition.description)' on '\(item.linkId)' \(effect)", hint: "compare with one of the options' values", rule: "fhir-never-matches")
                }
                if condition.op != .exists, condition.answer.type.isNumber, let expected = numberType(source), expected != condition.answer.type {
                    add(
                        .warning, "answer\(condition.answer.type.rawValue) against the \(source.type.rawValue) item '\(source.linkId)': LHC-Forms compares the numbers; android-fhir's equals tests the class, so = is false and != true, and its orderings throw (MoreTypes.kt:35, 50-54)",
                        hint: "write answer\(expected.rawValue)", rule: "fhir-number-type")
                }
                if condition.op == .notEquals {
                    add(
                        .note, "'\(condition.description)' is true while '\(source.linkId)' is unanswered in LHC-Forms and R5, false in android-fhir (which also reads [a, b] != a as true)",
                        hint: "SurveyReplay follows LHC-Forms by default; `option engine android-fhir` (or `option not-equals any-answer-differs`) simulates android-fhir", rule: "fhir-not-equals-unanswered")
                }
                found += placementFindings(outline, dependent: index, source: sourceIndex, condition: condition)
            }
        }
        return found
    }

    /// Where the source is relative to the dependent: later in the document, or in a repeating item that is
    /// not an ancestor of the dependent (§A1, resolving the referenced item).
    private static func placementFindings(_ outline: FHIROutline, dependent: Int, source: Int, condition: FHIR.EnableWhen) -> [Diagnostic] {
        let item = outline.items[dependent]
        let dependentAncestors = ancestors(outline, dependent)
        if dependentAncestors.contains(source) { return [] }
        let sourceRepeats = ([source] + ancestors(outline, source)).filter { outline.items[$0].repeats && (outline.items[$0].type == .group || !outline.items[$0].children.isEmpty) }
        if let outer = sourceRepeats.first(where: { !dependentAncestors.contains($0) }), outer != source || outline.items[source].type == .group {
            return [
                finding(
                    outline, .warning, condition.location,
                    "'\(item.linkId)' reads '\(condition.question)' inside the repeating '\(outline.items[outer].linkId)', which does not contain '\(item.linkId)': the nearest instance is the last one before it (R5 calls this an error)",
                    hint: "move the condition inside the repeating item, or read a question outside it", rule: "fhir-repeat-source")
            ]
        }
        guard source > dependent else { return [] }
        if let shared = sourceRepeats.first(where: { dependentAncestors.contains($0) }) {
            return [
                finding(
                    outline, .warning, condition.location,
                    "'\(item.linkId)' reads '\(condition.question)', which comes after it inside the repeating '\(outline.items[shared].linkId)': from the second instance on, the preceding axis finds the previous instance's '\(condition.question)' (android-fhir and LHC-Forms alike)",
                    hint: "put '\(condition.question)' before '\(item.linkId)' in the group", rule: "fhir-repeat-preceding")
            ]
        }
        return [
            finding(
                outline, .note, condition.location, "'\(item.linkId)' reads '\(condition.question)', which comes after it: its enablement settles only after the later answer",
                hint: "put the question before the items it enables", rule: "fhir-forward-reference")
        ]
    }

    private static func ancestors(_ outline: FHIROutline, _ index: Int) -> [Int] {
        var result: [Int] = []
        var current = outline.items[index].parent
        while let parent = current {
            result.append(parent)
            current = outline.items[parent].parent
        }
        return result
    }

    private static func numberType(_ item: FHIR.Item) -> FHIR.ValueType? {
        switch item.type {
        case .integer: .integer
        case .decimal: .decimal
        default: nil
        }
    }

    /// Why a condition's value can never be compared with the source's answers (a type they never have).
    static func mismatch(_ condition: FHIR.EnableWhen, source: FHIR.Item) -> String? {
        let given = condition.answer.type
        let types = source.answerTypes
        if types.isEmpty { return nil }
        if given.isNumber, types.contains(where: \.isNumber) { return nil }
        if types.contains(given) { return nil }
        let names = types.map { "value" + $0.rawValue }.sorted().joined(separator: " or ")
        return "'\(source.linkId)' is \(source.type.withArticle) item whose answers are \(names), never answer\(given.rawValue)"
    }

    /// Why `=` can never hold: a choice item's answers are its options, and none equals the value.
    static func neverMatches(_ condition: FHIR.EnableWhen, source: FHIR.Item) -> String? {
        guard source.type == .choice || source.type == .openChoice, !source.options.isEmpty else { return nil }
        if source.type == .openChoice, condition.answer.type == .string { return nil }
        if source.options.contains(where: { FHIRValues.equal($0.value, condition.answer) == true }) { return nil }
        return "\(FHIRValues.label(condition.answer)) is not an option of '\(source.linkId)'"
    }

    // MARK: cycles

    /// Cycles of enablement: an item depends on the sources of its conditions and on its parent. Each cycle is
    /// reported once, at the conditions of its first item.
    private static func cycleFindings(_ outline: FHIROutline) -> [Diagnostic] {
        let items = outline.items
        func successors(_ index: Int) -> [Int] {
            items[index].enableWhen.compactMap { outline.itemByLinkId[$0.question] } + (items[index].parent.map { [$0] } ?? [])
        }
        var reported: Set<Set<Int>> = []
        var found: [Diagnostic] = []
        for (start, item) in items.enumerated() where !item.enableWhen.isEmpty {
            // Breadth-first from the sources of its conditions back to itself, keeping the path.
            var previous: [Int: Int] = [:]
            var queue = item.enableWhen.compactMap { outline.itemByLinkId[$0.question] }
            for first in queue where previous[first] == nil { previous[first] = start }
            var head = 0
            var closed = false
            while head < queue.count, !closed {
                let current = queue[head]
                head += 1
                if current == start {
                    closed = true
                    break
                }
                for next in successors(current) where previous[next] == nil {
                    previous[next] = current
                    queue.append(next)
                }
            }
            guard closed || previous[start] != nil else { continue }
            var path = [start]
            var current = previous[start] ?? start
            while current != start, path.count <= items.count {
                path.append(current)
                current = previous[current] ?? start
            }
            let members = Set(path)
            guard reported.insert(members).inserted else { continue }
            let names = (path.reversed() + [path.last ?? start]).map { items[$0].linkId }
            found.append(
                finding(
                    outline, .warning, item.enableWhenLocation ?? item.location,
                    "enablement forms a cycle (\(names.joined(separator: " → "))): the simulation iterates to a fixpoint, and reports it when there is none",
                    hint: "make each condition read an item whose own enablement does not lead back here", rule: "fhir-enablewhen-cycle"))
        }
        return found
    }

    // MARK: required

    private static func requiredFindings(_ outline: FHIROutline) -> [Diagnostic] {
        outline.items.compactMap { item -> Diagnostic? in
            guard item.required, item.type.takesAnswers, item.initial.isEmpty, !item.options.contains(where: \.initialSelected), !item.valueIsCalculated else { return nil }
            let why = item.hidden ? "hidden (questionnaire-hidden)" : (item.readOnly ? "read-only" : nil)
            guard let why else { return nil }
            return finding(
                outline, .warning, item.location, "'\(item.linkId)' is required but \(why) and has no initial value: while it is enabled, the response can never be completed",
                hint: "give it an initial value, or drop required", rule: "fhir-required-unanswerable")
        }
    }
}
