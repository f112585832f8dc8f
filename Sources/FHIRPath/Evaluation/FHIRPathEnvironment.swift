import SurveyCore

/// What an evaluation runs against: the `%` variables (`%resource`, `%context`, `%rootResource`, SDC's
/// `%questionnaire`, launch contexts, item variables…), the clock `now()` and `today()` read, the value
/// sets `memberOf()` checks, the resources `resolve()` may find besides those inside the tree, a sink for
/// `trace()`, and an observer of the `iif()` branches taken. A value: build one per form session and change
/// its variables as answers change.
public struct FHIRPathEnvironment: Sendable {
    /// The parts, held in one box so that an evaluation copies the environment with one reference count;
    /// changed on a copy of the box when shared (a value, like any struct).
    private final class Storage: @unchecked Sendable {
        /// The variables, the first of a name counting: a handful of names is found faster by comparing their
        /// tags than by hashing.
        var list: [FHIRPathBinding]
        /// The same by name, only for a list too long to search (`listLimit`).
        var byName: [String: [FHIRPathItem]]
        var clock: FHIRPathClock
        var terminology: FHIRPathTerminology
        var resources: [FHIRTree]
        var trace: (@Sendable (String, [FHIRPathItem]) -> Void)?
        var iifObserver: IIFObserver?
        /// The variables of the environment this one was layered over (`init(variableList:over:)`): a name
        /// not in `list` is looked up there.
        let base: Storage?

        static let listLimit = 16

        init(
            list: [FHIRPathBinding], clock: FHIRPathClock, terminology: FHIRPathTerminology,
            resources: [FHIRTree], trace: (@Sendable (String, [FHIRPathItem]) -> Void)?, iifObserver: IIFObserver?, base: Storage? = nil
        ) {
            self.list = list
            byName = list.count > Self.listLimit ? Dictionary(list.map { ($0.name.text, $0.value) }, uniquingKeysWith: { first, _ in first }) : [:]
            self.clock = clock
            self.terminology = terminology
            self.resources = resources
            self.trace = trace
            self.iifObserver = iifObserver
            self.base = base
        }

        func copy() -> Storage {
            Storage(list: list, clock: clock, terminology: terminology, resources: resources, trace: trace, iifObserver: iifObserver, base: base)
        }

        /// The value of a variable of this list or of the lists it was layered over.
        func variable(_ name: FHIRPathVariableName) -> [FHIRPathItem]? {
            if list.count <= Self.listLimit {
                // By position: an entry read out of the list would be copied, its name and value retained.
                for index in list.indices where list[index].name.tag == name.tag && list[index].name.text == name.text { return list[index].value }
            } else if let value = byName[name.text] {
                return value
            }
            return base?.variable(name)
        }

        /// Every variable, the first of a name kept (this list's before its base's).
        var all: [String: [FHIRPathItem]] {
            var found = base?.all ?? [:]
            for binding in list.reversed() { found[binding.name.text] = binding.value }
            return found
        }
    }

    private var storage: Storage

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Variables by name, without the `%`.
    public var variables: [String: [FHIRPathItem]] {
        get { storage.all }
        set {
            storage = Storage(
                list: newValue.map { FHIRPathBinding(FHIRPathVariableName($0.key), $0.value) }, clock: storage.clock, terminology: storage.terminology, resources: storage.resources,
                trace: storage.trace, iifObserver: storage.iifObserver)
        }
    }

    public var clock: FHIRPathClock {
        get { storage.clock }
        set {
            unique()
            storage.clock = newValue
        }
    }

    public var terminology: FHIRPathTerminology {
        get { storage.terminology }
        set {
            unique()
            storage.terminology = newValue
        }
    }

    /// Resources `resolve()` can find by `Type/id` or by full URL, besides the tree's own contained resources
    /// and bundle entries.
    public var resources: [FHIRTree] {
        get { storage.resources }
        set {
            unique()
            storage.resources = newValue
        }
    }

    /// Receives `trace(name)` calls: the name and the traced collection.
    public var trace: (@Sendable (String, [FHIRPathItem]) -> Void)? {
        get { storage.trace }
        set {
            unique()
            storage.trace = newValue
        }
    }

    /// What learns of each `iif()` an evaluation decides: the byte offset of the `iif` name in the expression
    /// (the `nameRange` of its entry in `FHIRPathSyntax.iifCalls`) and whether the criterion held. Called once the criterion is
    /// known and before the branch is evaluated; an empty criterion did not hold (spec "iif": "false or an
    /// empty collection"), a single item that is not a Boolean did (spec "Singleton Evaluation of
    /// Collections"), and a criterion that fails reports nothing. For coverage; evaluation reads the
    /// observer only at an `iif`, so leaving it nil (the default) costs nothing.
    public typealias IIFObserver = @Sendable (_ offset: Int, _ criterion: Bool) -> Void

    public var iifObserver: IIFObserver? {
        get { storage.iifObserver }
        set {
            unique()
            storage.iifObserver = newValue
        }
    }

    /// An environment with `%resource`, `%rootResource` and `%context` bound to `resource` (when given).
    public init(
        resource: FHIRTree? = nil, variables: [String: [FHIRPathItem]] = [:], clock: FHIRPathClock = .init(),
        terminology: FHIRPathTerminology = .init(), resources: [FHIRTree] = []
    ) {
        var all = variables
        if let resource {
            let root: [FHIRPathItem] = [.node(resource.root)]
            for name in ["resource", "rootResource", "context"] where all[name] == nil { all[name] = root }
        }
        storage = Storage(
            list: all.map { FHIRPathBinding(FHIRPathVariableName($0.key), $0.value) }, clock: clock, terminology: terminology, resources: resources, trace: nil,
            iifObserver: nil)
    }

    /// An environment with the variables of a list, where a name listed twice has its first value: a caller
    /// binding a few names over shared ones lists its own first, with no dictionary made.
    public init(variableList: [(name: String, value: FHIRPathCollection)], clock: FHIRPathClock = .init()) {
        storage = Storage(
            list: variableList.map { FHIRPathBinding(FHIRPathVariableName($0.name), $0.value) }, clock: clock, terminology: .init(), resources: [], trace: nil,
            iifObserver: nil)
    }

    /// An environment with the variables of a list layered over another environment's: a name in the list
    /// has its (first) value there, any other name the base's; everything else is the base's. Variables
    /// shared by many evaluations are bound once in the base, and each evaluation lists only its own.
    public init(variableList: [(name: String, value: FHIRPathCollection)], over base: FHIRPathEnvironment) {
        self.init(variables: variableList.map { FHIRPathBinding(FHIRPathVariableName($0.name), $0.value) }, over: base)
    }

    /// The same with names whose tags are worked out already: what an evaluation binds over shared variables,
    /// its names written once (a form's variables, `%resource`…), builds no tag at each evaluation.
    public init(variables: [FHIRPathBinding], over base: FHIRPathEnvironment) {
        let shared = base.storage
        storage = Storage(
            list: variables, clock: shared.clock, terminology: shared.terminology, resources: shared.resources, trace: shared.trace,
            iifObserver: shared.iifObserver, base: shared)
    }

    /// The value a JSON value gives a variable: an object (a resource, a Coding…) as the root of its own
    /// tree, an array as its items, a string, number or Boolean as that System value (a number keeps the
    /// precision it is written with), null as empty.
    public static func collection(json: JSONNode) -> FHIRPathCollection {
        switch json.kind {
        case .null: return []
        case .bool: return .truth(json.boolValue!)
        case .string: return [.string(json.stringValue!)]
        case .number:
            let text = json.numberText ?? ""
            if let integer = Int(text) { return [.integer(integer)] }
            return FHIRPathDecimal(text, exponent: true).map { [.decimal($0)] } ?? []
        case .array: return (json.elements ?? []).flatMap(collection(json:))
        case .object: return [.node(FHIRTree(json: json).root)]
        }
    }

    /// The value of a `%` name: a variable, or one of the constants FHIR defines (`%ucum`, `%sct`,
    /// `%loinc`, `%vs-name`, `%ext-name`); nil when there is none.
    func variable(_ name: FHIRPathVariableName) -> [FHIRPathItem]? {
        storage.variable(name) ?? Self.constant(name.text).map { [.string($0)] }
    }

    /// The URLs FHIR's FHIRPath constants stand for (FHIR R4 "FHIRPath" section 2.1.9.1.7).
    public static func constant(_ name: String) -> String? {
        switch name {
        case "ucum": "http://unitsofmeasure.org"
        case "sct": "http://snomed.info/sct"
        case "loinc": "http://loinc.org"
        default:
            if name.hasPrefix("vs-") { "http://hl7.org/fhir/ValueSet/" + name.dropFirst(3) }
            else if name.hasPrefix("ext-") { "http://hl7.org/fhir/StructureDefinition/" + name.dropFirst(4) }
            else { nil }
        }
    }
}

/// The moment `now()`, `today()` and `timeOfDay()` read: fixed for a run, so results are reproducible.
public struct FHIRPathClock: Sendable {
    /// A DateTime with milliseconds and a timezone offset.
    public var now: FHIRPathDateTime

    /// The clock at `now`; by default the harness's default scenario day, 2026-01-01T00:00:00.000Z.
    public init(now: FHIRPathDateTime? = nil) {
        self.now = now ?? FHIRPathClock(scenario: ScenarioClock(today: SessionSettings.defaultToday)).now
    }

    /// The moment of a scenario's clock (its day at 00:00 UTC plus the seconds it has run).
    public init(scenario: ScenarioClock) {
        let days = scenario.elapsed / 86_400
        let rest = scenario.elapsed % 86_400
        let date = scenario.today.adding(days: days)
        var now = FHIRPathDateTime(
            kind: .dateTime, precision: .fraction, year: date.year, month: date.month, day: date.day, hour: rest / 3600,
            minute: rest % 3600 / 60, second: rest % 60, fraction: 0, fractionDigits: 3, offsetMinutes: 0)
        now.offsetIsZ = true
        self.now = now
    }

    var today: FHIRPathDateTime {
        var value = now
        value.kind = .date
        value.precision = .day
        value.offsetMinutes = nil
        return value
    }

    var timeOfDay: FHIRPathDateTime {
        var value = now
        value.kind = .time
        value.offsetMinutes = nil
        return value
    }
}
