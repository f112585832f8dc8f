import SurveyCore

/// A loaded task: its steps flattened in document order (steps inside sections keep their section as a
/// scope), the id index, and where each rule's target leads.
public struct SageSurvey: Survey {
    public let generation: Sage.Generation
    public var format: String { generation.formatName }
    public let file: String
    public let identifier: String
    public let versionString: String?
    public let schemaIdentifier: String?
    public let steps: [Sage.Step]
    public let sections: [Sage.Section]
    let indexByID: [String: Int]
    /// Where the task is in its file (for coverage points about the whole task).
    let location: SourceLocation
    let coverageLayout = Lazy<SageCoverageLayout>()

    init(_ outline: SageDecoder.Outline) throws(InputError) {
        let errors = outline.problems.filter { $0.severity == .error }
        if !errors.isEmpty { throw InputError(errors) }
        generation = outline.generation
        file = outline.file
        identifier = outline.identifier
        versionString = outline.versionString
        schemaIdentifier = outline.schemaIdentifier
        steps = outline.steps
        sections = outline.sections
        location = outline.location
        indexByID = Dictionary(outline.steps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var questionIDs: [String] { steps.map(\.id) }

    public func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession {
        SageSession(survey: self, settings: settings, coverage: coverage)
    }

    public var hostConditionKeys: [String] { [] }

    // MARK: navigation targets

    /// Where a navigation leads from a step.
    enum Destination: Equatable {
        case step(Int)
        /// The task ends: `exit`, past the last step, or (silently, in the real engine) an unknown target.
        case end(Ending)
    }

    enum Ending: String {
        case completed, exit
        case unknownTarget = "unknown_target"
    }

    /// The step after `index` in document order, leaving sections as they end.
    func stepInOrder(after index: Int) -> Destination {
        index + 1 < steps.count ? .step(index + 1) : .end(.completed)
    }

    /// Where a target named on step `index` leads (reference §1.2, navigator): the reserved ids of the
    /// generation, else an id looked up in the step's section and then in each enclosing one up to the
    /// task (the reference is silent on scopes: this is our reading of sections as nested navigators); an
    /// id none of them has ends the task, as `step(with:) == nil` does.
    func destination(of target: String, from index: Int) -> Destination {
        let section = steps[index].section
        if generation.reservedTargets.contains(target) {
            switch target {
            case "exit": return .end(.exit)
            case "nextStep": return stepInOrder(after: index)
            case "nextSection":
                guard let section else { return .end(.completed) }
                let end = sections[section].steps.upperBound
                return end < steps.count ? .step(end) : .end(.completed)
            case "beginning":
                let start = section.map { sections[$0].steps.lowerBound } ?? 0
                return start < steps.count ? .step(start) : .end(.completed)
            default: break
            }
        }
        return resolve(target, in: section).map { .step($0) } ?? .end(.unknownTarget)
    }

    /// The step a target names, looking in the section and then outwards; a section leads to its first step.
    func resolve(_ target: String, in section: Int?) -> Int? {
        var scope = section
        while true {
            let prefix = scope.map { sections[$0].id + "/" } ?? ""
            if let step = indexByID[prefix + target] { return step }
            if let inner = sections.firstIndex(where: { $0.id == prefix + target }) {
                let range = sections[inner].steps
                return range.isEmpty ? (range.upperBound < steps.count ? range.upperBound : nil) : range.lowerBound
            }
            guard let current = scope else { return nil }
            scope = sections[current].parent
        }
    }

    /// Whether a target is a reserved id or names a step or section the navigator finds.
    func isKnownTarget(_ target: String, from index: Int) -> Bool {
        generation.reservedTargets.contains(target) || resolve(target, in: steps[index].section) != nil
    }
}
