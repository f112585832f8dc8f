import SurveyCore

/// A Questionnaire as read, with what is worked out before it can run: the linkId index, every problem
/// that stops a load (duplicate linkIds of items that carry answers or are read, enableWhen naming no item)
/// and the source of each condition.
struct FHIROutline {
    let file: String
    /// Every item, in document order (pre-order); an item's index here is its position in `questionIDs`.
    let items: [FHIR.Item]
    let topLevel: [Int]
    let url: String?
    let version: String?
    let id: String?
    let location: SourceLocation
    /// The first item of each linkId.
    let itemByLinkId: [String: Int]
    /// Each repeated linkId at its later item: an error when the item carries answers or a condition reads
    /// it, since then answers and conditions could not tell the items apart (que-2).
    let duplicates: [Diagnostic]
    /// Each enableWhen.question that no item has.
    let dangling: [Diagnostic]
    /// Where the file first uses a form only STU3 has, when it is C3-PRO's STU3-era input (§A3).
    let stu3Form: SourceLocation?
    /// The first `identifier.value`, which C3-PRO names its task by when there is no id.
    let identifier: String?

    init(
        file: String, items: [FHIR.Item], topLevel: [Int], url: String?, version: String?, id: String?, location: SourceLocation,
        stu3Form: SourceLocation? = nil, identifier: String? = nil
    ) {
        self.file = file
        self.stu3Form = stu3Form
        self.identifier = identifier
        self.items = items
        self.topLevel = topLevel
        self.url = url
        self.version = version
        self.id = id
        self.location = location
        var index: [String: Int] = [:]
        var duplicates: [Diagnostic] = []
        let readByConditions = Set(items.flatMap { $0.enableWhen.map(\.question) })
        for (position, item) in items.enumerated() {
            if let first = index[item.linkId] {
                let harmless = !item.type.takesAnswers && !items[first].type.takesAnswers && !readByConditions.contains(item.linkId)
                duplicates.append(
                    Diagnostic(
                        harmless ? .warning : .error, file: file, location: item.location,
                        message: "duplicate linkId '\(item.linkId)' (first at \(items[first].location.position)) (que-2)",
                        hint: harmless
                            ? "the engines render both display items; give each its own linkId"
                            : "give each item its own linkId: answers and enableWhen address items by linkId",
                        rule: "fhir-que-2"))
            } else {
                index[item.linkId] = position
            }
        }
        self.itemByLinkId = index
        self.duplicates = duplicates
        var dangling: [Diagnostic] = []
        for item in items {
            for condition in item.enableWhen where index[condition.question] == nil {
                dangling.append(
                    Diagnostic(
                        file: file, location: condition.location,
                        message: "an enableWhen of '\(item.linkId)' reads '\(condition.question)', which no item has; expected the linkId of an item of this Questionnaire\(Spelling.suggestion(for: condition.question, in: items.map(\.linkId)))",
                        hint: "name the linkId of an item of this Questionnaire", rule: "fhir-dangling-question"))
            }
        }
        self.dangling = dangling
    }

    /// What stops a load: every error of these checks. An STU3-era file (C3-PRO's input) loads with an
    /// enableWhen naming no item: C3-PRO finds no result for it and counts it as satisfied, and only the
    /// r4 profile stops at it (`engineProblem`); lint still reports it.
    var loadErrors: [Diagnostic] {
        duplicates.filter { $0.severity == .error } + (stu3Form == nil ? dangling : [])
    }
}

/// A loaded R4 Questionnaire, ready to start sessions.
public struct FHIRSurvey: Survey {
    public let format = FHIRFormat.name
    public let file: String
    public let items: [FHIR.Item]
    public let topLevel: [Int]
    /// The canonical the response names: `url|version`, else `Questionnaire/id`.
    public let canonical: String?
    let itemByLinkId: [String: Int]
    /// For each item, the conditions (item, condition index) that read it, for values worth trying.
    let conditionsReading: [[FHIR.EnableWhen]]
    /// How many items have enableWhen: the fixpoint's bound grows with it.
    let conditionalCount: Int
    let coverageLayout = Lazy<FHIRCoverageLayout>()
    /// The ResearchKit task the c3pro profile runs, worked out when a c3pro session first needs it.
    let c3proTask = Lazy<FHIRC3PROTask>()
    /// The identifier C3-PRO gives the task, which its response's `questionnaire` refers to.
    let taskIdentifier: String
    /// Where the file first uses a form only STU3 has, when it is STU3-era (C3-PRO's input).
    let stu3Form: SourceLocation?

    /// The option that picks between the engines' readings of `!=` (§A1): "no answer equals" (R5,
    /// LHC-Forms; true on an unanswered source) or "any answer differs" (android-fhir; false on one).
    public static let notEqualsOption = "not-equals"
    public static let notEqualsValues = ["no-answer-equals", "any-answer-differs"]

    /// The engines a session can simulate: `r4` (the default: LHC-Forms and android-fhir, §A1, §A2) and
    /// `c3pro` (the C3-PRO iOS framework's ResearchKit steps, §A3).
    public static let r4Profile = "r4"
    public static let c3proProfile = "c3pro"

    init(_ outline: FHIROutline) {
        file = outline.file
        items = outline.items
        topLevel = outline.topLevel
        itemByLinkId = outline.itemByLinkId
        taskIdentifier = FHIRC3PROTask.identifier(id: outline.id, identifier: outline.identifier)
        stu3Form = outline.stu3Form
        if let url = outline.url {
            canonical = url + (outline.version.map { "|" + $0 } ?? "")
        } else {
            canonical = outline.id.map { "Questionnaire/" + $0 }
        }
        var reading = [[FHIR.EnableWhen]](repeating: [], count: outline.items.count)
        for item in outline.items {
            for condition in item.enableWhen {
                if let source = outline.itemByLinkId[condition.question] { reading[source].append(condition) }
            }
        }
        conditionsReading = reading
        conditionalCount = outline.items.count { !$0.enableWhen.isEmpty }
    }

    public var questionIDs: [String] { items.map(\.linkId) }

    public var options: [String: [String]] {
        [Self.notEqualsOption: Self.notEqualsValues, FHIRC3PROResearchKit.option: FHIRC3PROResearchKit.allCases.map(\.rawValue)]
    }

    public var profiles: [String] { [Self.r4Profile, Self.c3proProfile] }

    /// What stops an engine before a respondent sees anything: under c3pro, ResearchKit throwing while C3-PRO
    /// builds the task (the app stops); under r4, an STU3-era condition no R4 engine can read, or one naming
    /// no item (which only an STU3-era file loads with).
    public func engineProblem(_ settings: SessionSettings) -> String? {
        if settings.profile == Self.c3proProfile { return task().buildFailure.map { "\(file):\($0.location.position): \($0.message)" } }
        if let unreadable = items.lazy.flatMap({ item in item.c3pro.unreadableConditions.map { (item, $0) } }).first {
            return "\(file):\(unreadable.1.location.position): an enableWhen of '\(unreadable.0.linkId)' \(unreadable.1.problem): the r4 profile cannot evaluate it (C3-PRO drops the item's own conditions: use profile c3pro)"
        }
        guard let (item, condition) = items.lazy.flatMap({ item in item.enableWhen.map { (item, $0) } }).first(where: { itemByLinkId[$0.1.question] == nil }) else { return nil }
        return "\(file):\(condition.location.position): an enableWhen of '\(item.linkId)' reads '\(condition.question)', which no item has: the r4 profile cannot evaluate it (C3-PRO finds no result for it and counts it as satisfied: use profile c3pro)"
    }

    public func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession {
        if settings.profile == Self.c3proProfile { return FHIRC3PROSession(survey: self, settings: settings, coverage: coverage) }
        return FHIRSession(survey: self, settings: settings, coverage: coverage)
    }

    func task() -> FHIRC3PROTask {
        c3proTask.get { FHIRC3PROTask(self) }
    }

    public func hasQuestion(_ id: String) -> Bool {
        definition(of: id) != nil
    }

    public func item(_ linkId: String) -> FHIR.Item? {
        itemByLinkId[linkId].map { items[$0] }
    }
}

extension FHIRSurvey {
    /// The item an id names: a linkId, after the instances of the repeating items above it
    /// (`visit#2/reason`, `meds#1/dose`), or a repeating group's instance itself (`visit#2`). linkIds may
    /// hold `/` and `#` themselves (LHC-Forms writes `/choice/st`), so the id is read against the linkIds.
    func definition(of id: String) -> Int? {
        var rest = Substring(id)
        while true {
            if let item = itemByLinkId[String(rest)] { return item }
            var consumed = false
            var search = rest.startIndex
            while let hash = rest[search...].firstIndex(of: "#") {
                let digits = rest[rest.index(after: hash)...].prefix { $0.isASCII && $0.isNumber }
                let after = digits.endIndex
                if !digits.isEmpty, let item = itemByLinkId[String(rest[..<hash])], items[item].repeats {
                    if after == rest.endIndex { return items[item].type == .group ? item : nil }
                    if rest[after] == "/" {
                        rest = rest[rest.index(after: after)...]
                        consumed = true
                        break
                    }
                }
                search = rest.index(after: hash)
            }
            if !consumed { return nil }
        }
    }
}
