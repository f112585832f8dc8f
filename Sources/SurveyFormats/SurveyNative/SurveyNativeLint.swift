import SurveyCore

/// What `survey-replay lint` finds in a SurveyNative file (issue 6; reference §1-§7). What the loader checks
/// comes from the loader, read on past the problems that stop a load so that all of them are reported; the
/// rules of the `SurveyNativeLint*` files add what a load accepts but the engine does otherwise than the
/// author meant: conditions that cannot hold or cannot fail (conditions), the lazy evaluation and the answers
/// it keeps (order), validations that crash or cannot pass (validations).
enum SurveyNativeLint {
    static func findings(_ root: JSONCursor) -> [Diagnostic] {
        let (outline, read) = SurveyNativeDecoder.read(root)
        guard let outline else { return read }
        return read + outline.duplicateIDs + outline.danglingIDs + outline.cycles
            + conditionFindings(outline) + orderFindings(outline) + validationFindings(outline)
    }
}

extension SurveyNativeOutline {
    func finding(
        _ severity: Diagnostic.Severity, at location: SourceLocation, _ message: String, hint: String, rule: String
    ) -> Diagnostic {
        Diagnostic(severity, file: file, location: location, message: message, hint: hint, rule: rule)
    }

    /// The show_if conditions that can hide the question at `slot` while the question at `reader` stays on
    /// screen: its own and its parent's, except what hides the reader's section, which hides the reader too.
    func conditionsHiding(_ slot: Int, from reader: Int) -> [Condition] {
        let question = questions[slot]
        let sameSection = question.owner == questions[reader].owner
        var hiding: [Condition] = []
        if let own = question.showIf, question.isSubQuestion || !sameSection { hiding.append(own) }
        if question.isSubQuestion, !sameSection, let parent = questions[topLevel[question.owner]].showIf { hiding.append(parent) }
        return hiding.filter(\.canHide)
    }
}

extension Condition {
    /// Whether the condition can be false: not when the engine takes it as true whatever the answers (a
    /// malformed condition, a tree with an unknown operation).
    var canHide: Bool {
        if case .constant(true, _, _) = kind { return false }
        return true
    }

    /// The questions the engine reads when it evaluates this condition (not those under a tree it treats as
    /// true), each with the first place that names it.
    var evaluatedReferences: [(id: String, location: SourceLocation)] {
        var seen: Set<String> = []
        var references: [(id: String, location: SourceLocation)] = []
        for atom in atoms {
            let ids: [String]
            switch atom.kind {
            case .leaf(let leaf): ids = [leaf.question]
            case .host(let host): ids = host.inputs
            case .all, .any, .constant: ids = []
            }
            for id in ids where seen.insert(id).inserted { references.append((id, atom.location)) }
        }
        return references
    }
}
