import SurveyCore

/// A loaded task: its steps flattened in document order (steps inside sections keep their section as a
/// scope), each navigator's children, and the id index.
public struct SageSurvey: Survey {
    public let generation: Sage.Generation
    public var format: String { generation.formatName }
    public let file: String
    public let identifier: String
    public let versionString: String?
    public let schemaIdentifier: String?
    let schemaInfo: (identifier: String?, revision: Int?)
    let buttons: Sage.Buttons
    public let steps: [Sage.Step]
    public let sections: [Sage.Section]
    let indexByID: IDIndex
    /// The children of each navigator in document order, by navigator slot (0 the task's, `s + 1` section s's).
    private let childrenOf: [[Node]]
    /// Each navigator's children by identifier (their positions in `childrenOf`): the lookup every move makes.
    private let childByName: [IDIndex]
    /// Where each step and each section is among its navigator's children.
    private let stepPosition: [Int]
    private let sectionPosition: [Int]
    /// Where the task is in its file (for coverage points about the whole task).
    let location: SourceLocation
    let coverageLayout = Lazy<SageCoverageLayout>()

    /// A child of a navigator: a step, or a section with its own navigator.
    enum Node: Hashable {
        case step(Int)
        case section(Int)
    }

    init(_ outline: SageDecoder.Outline) throws(InputError) {
        let errors = outline.problems.filter { $0.severity == .error }
        if !errors.isEmpty { throw InputError(errors) }
        generation = outline.generation
        file = outline.file
        identifier = outline.identifier
        versionString = outline.versionString
        schemaIdentifier = outline.schemaIdentifier
        schemaInfo = outline.schemaInfo
        buttons = outline.buttons
        steps = outline.steps
        sections = outline.sections
        location = outline.location
        indexByID = IDIndex.build(outline.steps.map(\.id)).index
        var children = [[Node]](repeating: [], count: sections.count + 1)
        // Document order: a section comes before its first step; sections and steps interleave by position.
        var entries: [(position: Int, depth: Int, parent: Int?, node: Node)] = []
        for (index, step) in steps.enumerated() { entries.append((index, Int.max, step.section, .step(index))) }
        for (index, section) in sections.enumerated() {
            var depth = 0
            var parent = section.parent
            while let outer = parent {
                depth += 1
                parent = sections[outer].parent
            }
            entries.append((section.steps.lowerBound, depth, section.parent, .section(index)))
        }
        entries.sort { ($0.position, $0.depth) < ($1.position, $1.depth) }
        var stepPosition = [Int](repeating: 0, count: steps.count)
        var sectionPosition = [Int](repeating: 0, count: sections.count)
        for entry in entries {
            let slot = Self.slot(entry.parent)
            switch entry.node {
            case .step(let index): stepPosition[index] = children[slot].count
            case .section(let index): sectionPosition[index] = children[slot].count
            }
            children[slot].append(entry.node)
        }
        childrenOf = children
        self.stepPosition = stepPosition
        self.sectionPosition = sectionPosition
        let (steps, sections) = (steps, sections)
        childByName = children.map { list in
            IDIndex.build(list.map { node in
                switch node {
                case .step(let index): steps[index].name
                case .section(let index): sections[index].name
                }
            }).index
        }
    }

    private static func slot(_ section: Int?) -> Int { section.map { $0 + 1 } ?? 0 }

    public var questionIDs: [String] { steps.map(\.id) }

    public func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession {
        SageSession(survey: self, engine: SageEngine(generation: generation, settings: settings), settings: settings, coverage: coverage)
    }

    public var hostConditionKeys: [String] { [] }

    public var profiles: [String] { SageEngine.profiles(for: generation) }

    public var options: [String: [String]] { SageEngine.options(for: generation) }

    public func format(for settings: SessionSettings) -> String {
        "\(format), \(SageEngine(generation: generation, settings: settings).name)"
    }

    // MARK: navigators

    func children(of section: Int?) -> [Node] { childrenOf[Self.slot(section)] }

    /// `step(with:)` / `node(identifier:)`: a child of the navigator with this identifier.
    func child(named name: String, in section: Int?) -> Node? {
        let slot = Self.slot(section)
        return childByName[slot][name].map { childrenOf[slot][$0] }
    }

    /// The navigator a node belongs to: its section (nil: the task).
    func parent(of node: Node) -> Int? {
        switch node {
        case .step(let index): steps[index].section
        case .section(let index): sections[index].parent
        }
    }

    /// Where a node is among the children of a navigator (`nodes.firstIndex(of:)`), nil when it is not one.
    func position(of node: Node, in section: Int?) -> Int? {
        guard parent(of: node) == section else { return nil }
        switch node {
        case .step(let index): return stepPosition[index]
        case .section(let index): return sectionPosition[index]
        }
    }

    func name(of node: Node) -> String {
        switch node {
        case .step(let index): steps[index].name
        case .section(let index): sections[index].name
        }
    }

    /// The child after `node` in its navigator's order (`rsd_next(after:)`, `nodes[idx + 1]`).
    func child(after node: Node, in section: Int?) -> Node? {
        guard let position = position(of: node, in: section) else { return nil }
        let list = childrenOf[Self.slot(section)]
        return position + 1 < list.count ? list[position + 1] : nil
    }

    /// Whether a navigation target named on a step leads anywhere: SageResearch finds `exit` or an id of
    /// the step's navigator or, when that section ends, of a navigator around it (the parent asks the
    /// section's last step again); AssessmentModel finds its reserved ids or an id of the step's navigator.
    func resolvesTarget(_ target: String, from index: Int) -> Bool {
        if isReserved(target) { return true }
        var section = steps[index].section
        while true {
            if child(named: target, in: section) != nil { return true }
            guard generation != .assessment, let inner = section else { return false }
            section = sections[inner].parent
        }
    }

    /// The navigation targets a step names: its rules' (with their defaults), `nextStepIdentifier`, its skip
    /// action's.
    func targets(of index: Int) -> [(target: String, location: SourceLocation, what: String)] {
        let step = steps[index]
        let assessment = generation == .assessment
        var named: [(target: String, location: SourceLocation, what: String)] = step.rules.enumerated().compactMap { position, rule in
            rule.target(assessment: assessment).map { ($0, rule.targetLocation, rule.skipTo == nil ? "rule \(position + 1) (default target)" : "rule \(position + 1)") }
        }
        if let next = step.nextStepIdentifier, let location = step.nextStepLocation { named.append((next, location, "nextStepIdentifier")) }
        if !assessment, let skip = step.buttons.skip, skip.isNavigation, let target = skip.target { named.append((target, skip.location, "the skip action")) }
        return named
    }

    /// The reserved targets of the generation: SageResearch's navigator treats only `exit` specially (a
    /// survey rule's `nextStep` and `nextSection` are looked up as ids); AssessmentModel reserves three.
    func isReserved(_ target: String) -> Bool {
        generation == .assessment ? ["exit", "nextSection", "beginning"].contains(target) : target == "exit"
    }

    /// Whether AssessmentModel hides a step's Skip or Back button. Swift (`AssessmentViewModel.shouldHide`):
    /// the step's own `shouldHideActions`, or the assessment's for a node of that identifier among its own
    /// children; a section's reaches only the section node itself (`AbstractNodeObject.shouldHideButton`
    /// answers for `node === self`), and a completion step always hides Back. Kotlin: Back by the step's own
    /// list (`canGoBack()`; a completion step only shows Back its `actions` name); Android's Skip asks the root's
    /// current child, the section around the step when there is one, and its parents (`hideButton`).
    func assessmentHides(_ step: Sage.Step, _ button: Sage.Button, kotlin: Bool) -> Bool {
        let isBack = button == .back
        if kotlin {
            if isBack { return step.buttons.hidesBack || (step.isCompletion && !step.buttons.definesBack) }
            guard let section = step.section else { return step.buttons.hidesSkip || buttons.hidesSkip }
            var outer: Int? = section
            while let inner = outer {
                if sections[inner].buttons.hidesSkip { return true }
                outer = sections[inner].parent
            }
            return buttons.hidesSkip
        }
        if isBack, step.isCompletion { return true }
        if step.buttons.hides(button) { return true }
        return buttons.hides(button) && child(named: step.name, in: nil) != nil
    }
}
