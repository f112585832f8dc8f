import FHIRPath
import SurveyCore

/// A Questionnaire as one engine reads it, with what is worked out before it can run: the linkId and id
/// indexes, the items sharing a linkId (que-2), the enableWhen naming no item and those reading each item.
struct FHIROutline {
    let file: String
    /// The engine whose reading this is.
    let engine: FHIREngine
    /// Every item, in document order (pre-order); an item's index here is its position in `questionIDs`.
    let items: [FHIR.Item]
    let topLevel: [Int]
    let url: String?
    let version: String?
    let id: String?
    let location: SourceLocation
    /// The first item of each linkId.
    let itemByLinkId: [String: Int]
    /// Every item of each linkId, in document order (more than one: que-2).
    let itemsByLinkId: [String: [Int]]
    /// The item of each id.
    let itemByID: [String: Int]
    /// Each repeated linkId at its later item (que-2): both engines render such files, reading each item on
    /// its own (enableWhen finds the nearest item with the linkId), so lint reports them and a load goes on.
    let duplicates: [Diagnostic]
    /// Each enableWhen.question that no item has.
    let dangling: [Diagnostic]
    /// For each item, the conditions that read it (any item with the linkId): found with the dangling ones.
    let conditionsReading: [[FHIR.EnableWhen]]
    /// Where the file first uses a form only STU3 has, when it is C3-PRO's STU3-era input (§A3).
    let stu3Form: SourceLocation?
    /// The first `identifier.value`, which C3-PRO names its task by when there is no id.
    let identifier: String?
    /// The Questionnaire's own SDC expressions (its variables, in scope for every item).
    let rootExpressions: [FHIR.SDCExpression]
    /// The resources the form asks its host for (`sdc-questionnaire-launchContext`).
    let launchContexts: [FHIR.LaunchContext]
    /// The Questionnaire as FHIRPath navigates it (`%questionnaire`), when it has SDC expressions.
    let questionnaireTree: FHIRTree?

    /// `itemsByLinkId` is every item of each linkId in document order, as the decoder found them.
    init(
        file: String, engine: FHIREngine = .lhcForms, items: [FHIR.Item], itemsByLinkId: [String: [Int]], topLevel: [Int], url: String?,
        version: String?, id: String?, location: SourceLocation, stu3Form: SourceLocation? = nil, identifier: String? = nil,
        rootExpressions: [FHIR.SDCExpression] = [], launchContexts: [FHIR.LaunchContext] = [], questionnaireTree: FHIRTree? = nil
    ) {
        self.file = file
        self.rootExpressions = rootExpressions
        self.launchContexts = launchContexts
        self.questionnaireTree = questionnaireTree
        self.engine = engine
        self.stu3Form = stu3Form
        self.identifier = identifier
        self.items = items
        self.topLevel = topLevel
        self.url = url
        self.version = version
        self.id = id
        self.location = location
        self.itemsByLinkId = itemsByLinkId
        itemByLinkId = itemsByLinkId.mapValues { $0[0] }
        // An item's id is its linkId, but for the later items sharing one, named apart (que-2).
        var byID = itemByLinkId
        var duplicates: [Diagnostic] = []
        if itemsByLinkId.count < items.count {
            for position in items.indices {
                let linkId = items[position].linkId
                guard let first = itemsByLinkId[linkId]?.first, first != position else { continue }
                byID[items[position].id] = position
                duplicates.append(
                    Diagnostic(
                        .error, file: file, location: items[position].location,
                        message: "duplicate linkId '\(linkId)' (first at \(items[first].location.position)) (que-2): LHC-Forms and android-fhir render both items, each on its own, and an enableWhen reading '\(linkId)' finds the nearest of them (ancestor, preceding, following); scenarios name this one '\(items[position].id)'",
                        hint: "give each item its own linkId: answers and enableWhen address items by linkId", rule: "fhir-que-2"))
            }
        }
        itemByID = byID
        self.duplicates = duplicates
        var dangling: [Diagnostic] = []
        var reading = [[FHIR.EnableWhen]](repeating: [], count: items.count)
        for position in items.indices {
            let conditions = items[position].enableWhen
            for index in conditions.indices {
                let condition = conditions[index]
                if let sources = itemsByLinkId[condition.question] {
                    for source in sources { reading[source].append(condition) }
                    continue
                }
                dangling.append(
                    Diagnostic(
                        file: file, location: condition.location,
                        message: "an enableWhen of '\(items[position].linkId)' reads '\(condition.question)', which no item has; expected the linkId of an item of this Questionnaire\(Spelling.suggestion(for: condition.question, in: items.map(\.linkId))); LHC-Forms refuses the file, android-fhir renders it with the condition reading no answer",
                        hint: "name the linkId of an item of this Questionnaire", rule: "fhir-dangling-question"))
            }
        }
        self.dangling = dangling
        conditionsReading = reading
    }

    /// What stops a load under this reading's engine: LHC-Forms throws on an enableWhen naming no item
    /// (LHNCBC/lforms@24c71875 src/fhir/R4R5-common/sdc-import.js:74-78); android-fhir finds no response item
    /// for it, so the condition reads no answer (google/android-fhir@28a50345
    /// datacapture/src/main/java/com/google/android/fhir/datacapture/enablement/EnablementEvaluator.kt:192-204, 249).
    /// An STU3-era file (C3-PRO's input) loads with one under either engine: C3-PRO finds no result for it and
    /// counts it as satisfied, and only the r4 profile under LHC-Forms stops at it (`engineProblem`); lint
    /// still reports it.
    var loadErrors: [Diagnostic] {
        engine == .lhcForms && stu3Form == nil ? dangling : []
    }
}

/// How the R4 engine other than a survey's reads its file: another reading, or a refusal.
final class FHIROtherReading: Sendable {
    let engine: FHIREngine
    let result: Result<FHIRSurvey, InputError>

    init(engine: FHIREngine, result: Result<FHIRSurvey, InputError>) {
        self.engine = engine
        self.result = result
    }
}

/// A loaded R4 Questionnaire, ready to start sessions.
public final class FHIRSurvey: Survey {
    public let format = FHIRFormat.name
    public let file: String
    public let items: [FHIR.Item]
    public let topLevel: [Int]
    /// The canonical the response names: `url|version`, else `Questionnaire/id`.
    public let canonical: String?
    /// The engine whose reading of the file this is.
    public let engine: FHIREngine
    /// The first item of each linkId.
    let itemByLinkId: [String: Int]
    /// Every item of each linkId, in document order (more than one: que-2).
    let itemsByLinkId: [String: [Int]]
    /// The item of each id (`FHIR.Item.id`).
    let itemByID: [String: Int]
    /// How the other engine reads the file, when it reads it otherwise (nil: every engine reads it alike).
    let otherReading: FHIROtherReading?
    /// For each item, the conditions (item, condition index) that read it, for values worth trying.
    let conditionsReading: [[FHIR.EnableWhen]]
    /// How many items have enableWhen: the fixpoint's bound grows with it.
    let conditionalCount: Int
    let coverageLayout = Lazy<FHIRCoverageLayout>()
    /// How its instances come in blocks, worked out when a session first needs it.
    let blocks = Lazy<FHIRBlockPlan>()
    /// Which items may stand where in a response, worked out when a response is first read back.
    let responsePlaces = Lazy<FHIRResponsePlaces>()
    /// Items' Coding options by code, by item, each worked out when an answer of the item is first matched
    /// (`FHIRCodedOptions`): walks answer a few items of a large form, whose every item need not be indexed.
    let codedOptions = BoundedMemo<Int, FHIRCodedOptions?>(capacity: 4096)
    /// The form as it opens under each engine reading (for Questionnaires without SDC expressions, whose
    /// opening depends on nothing else): sessions start from a copy.
    let openings = LazyTable<FHIROpening.Key, FHIROpening>()
    /// The form as it opens under each settings, for Questionnaires with SDC expressions (which read the
    /// clock and the launch contexts): sessions that record no coverage start from a copy.
    let expressionOpenings = LazyTable<SessionSettings, FHIROpening>()
    /// What SDC expressions start from under each settings (`FHIRExpressionConstants`): every session builds
    /// its expressions over them.
    let expressionConstants = LazyTable<SessionSettings, FHIRExpressionConstants>()
    /// What the step checker found in each submitted response it checked, and the page the session's
    /// invariant works out afresh, by the response's key: many walks submit the same answers, and a response
    /// is read back once.
    let submittedChecks = BoundedMemo<FHIRResponseKey, FHIRSubmittedCheck>(capacity: 4096)
    /// The read-back of each top-level response item the step checker read (nil: the instance writes none),
    /// by what it is written from: responses new to `submittedChecks` are mostly items read before.
    let responsePieceChecks = BoundedMemo<FHIRResponsePieceKey, FHIRReadBack?>(capacity: 4096)
    /// The response SDC expressions read (`%resource`), as a tree, by the key of what it is written from:
    /// walks from the same opening write the same responses again and again. Fewer are kept than checks,
    /// a tree being larger than findings.
    let expressionResponses = BoundedMemo<FHIRResponseKey, FHIRExpressionResponse>(capacity: 512)
    /// The ResearchKit task the c3pro profile runs, worked out when a c3pro session first needs it.
    let c3proTask = Lazy<FHIRC3PROTask>()
    /// The identifier C3-PRO gives the task, which its response's `questionnaire` refers to.
    let taskIdentifier: String
    /// Where the file first uses a form only STU3 has, when it is STU3-era (C3-PRO's input).
    let stu3Form: SourceLocation?
    /// The Questionnaire's own SDC expressions (its variables, in scope for every item).
    let rootExpressions: [FHIR.SDCExpression]
    /// The resources the form asks its host for (`sdc-questionnaire-launchContext`).
    let launchContexts: [FHIR.LaunchContext]
    /// Its SDC expressions, their scopes, dependencies and evaluation order, worked out once.
    let expressionProgram: FHIRExpressionProgram
    /// The Questionnaire as FHIRPath navigates it (`%questionnaire`), when it has SDC expressions.
    let questionnaireTree: FHIRTree?
    /// Each item's node in that tree, in document order (`%qitem`): found once, for every session.
    let questionnaireItemNodes = Lazy<[FHIRNode]>()

    /// The option that picks between the engines' readings of `!=` (§A1): "no answer equals" (R5,
    /// LHC-Forms; true on an unanswered source) or "any answer differs" (android-fhir; false on one).
    public static let notEqualsOption = "not-equals"
    public static let notEqualsValues = ["no-answer-equals", "any-answer-differs"]

    /// The option that picks the R4 engine whose readings apply where LHC-Forms and android-fhir differ: how
    /// a file that breaks R4 is read, how Codings compare, and the default of `not-equals`.
    public static let engineOption = "engine"

    /// The engines a session can simulate: `r4` (the default: LHC-Forms and android-fhir, §A1, §A2) and
    /// `c3pro` (the C3-PRO iOS framework's ResearchKit steps, §A3).
    public static let r4Profile = "r4"
    public static let c3proProfile = "c3pro"

    init(_ outline: FHIROutline, otherReading: FHIROtherReading? = nil) {
        file = outline.file
        engine = outline.engine
        self.otherReading = otherReading
        items = outline.items
        topLevel = outline.topLevel
        itemByLinkId = outline.itemByLinkId
        itemsByLinkId = outline.itemsByLinkId
        itemByID = outline.itemByID
        taskIdentifier = FHIRC3PROTask.identifier(id: outline.id, identifier: outline.identifier)
        stu3Form = outline.stu3Form
        rootExpressions = outline.rootExpressions
        launchContexts = outline.launchContexts
        expressionProgram = FHIRExpressionProgram(outline)
        questionnaireTree = outline.questionnaireTree
        if let url = outline.url {
            canonical = url + (outline.version.map { "|" + $0 } ?? "")
        } else {
            canonical = outline.id.map { "Questionnaire/" + $0 }
        }
        conditionsReading = outline.conditionsReading
        conditionalCount = outline.items.count { !$0.enableWhen.isEmpty }
    }

    public var questionIDs: [String] { items.map(\.id) }

    public var options: [String: [String]] {
        [
            Self.notEqualsOption: Self.notEqualsValues, Self.engineOption: FHIREngine.allCases.map(\.rawValue),
            FHIRC3PROResearchKit.option: FHIRC3PROResearchKit.allCases.map(\.rawValue),
        ]
    }

    public var profiles: [String] { [Self.r4Profile, Self.c3proProfile] }

    /// A trace names the engine the settings choose: the profile with its ResearchKit under c3pro, the R4
    /// engine (and a `not-equals` reading given apart from it) under r4.
    public func format(for settings: SessionSettings) -> String {
        if settings.profile == Self.c3proProfile {
            return "\(format), profile \(Self.c3proProfile), researchkit \(FHIRC3PROResearchKit(settings).rawValue)"
        }
        let notEquals = settings.options[Self.notEqualsOption].map { ", not-equals \($0)" } ?? ""
        return "\(format), profile \(Self.r4Profile), engine \(FHIREngine.of(settings).rawValue)\(notEquals)"
    }

    /// What stops the engine these settings choose before a respondent sees anything (`problem(with:)` asks
    /// once the profile and options are known). Under c3pro: ResearchKit throwing while C3-PRO builds the
    /// task (the app stops). Under r4: an STU3-era condition no R4 engine
    /// can read, or one naming no item under LHC-Forms (which only an STU3-era file loads with); the R4
    /// engine refusing to render the file; or the form throwing as it opens.
    public func engineProblem(_ settings: SessionSettings) -> String? {
        if settings.profile == Self.c3proProfile { return task().buildFailure.map { "\(file):\($0.location.position): \($0.message)" } }
        let engine = FHIREngine.of(settings)
        if let problem = stu3Problem(under: engine) { return problem }
        switch reading(for: engine) {
        case .success(let reading):
            guard let failure = FHIRSession(survey: reading, settings: settings, coverage: nil).openingFailure else { return nil }
            let missing = launchContexts.map(\.name).filter { settings.launchContext[$0] == nil }
            guard let name = missing.first else { return failure }
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            return failure + "\n(the Questionnaire declares the launch context\(missing.count == 1 ? "" : "s") \(names), which the host does not give here: a scenario gives one with 'context \(name) FILE', the commands that walk a survey with --context \(name)=FILE)"
        case .failure(let refusals):
            let others = FHIREngine.allCases.filter { $0 != engine && (try? reading(for: $0).get()) != nil }.map { "option engine \($0.rawValue)" }
            let alternative = others.isEmpty ? "" : " (it renders under \(others.joined(separator: ", ")))"
            return "\(engine.name) does not render this Questionnaire\(alternative):\n" + refusals.diagnostics.map(\.description).joined(separator: "\n")
        }
    }

    /// What stops the r4 profile on an STU3-era file (C3-PRO's input), which loads with conditions an R4 engine
    /// cannot evaluate: one no R4 engine can read (no question, or neither an answer[x] nor hasAnswer), or one
    /// naming no item, on which LHC-Forms throws (android-fhir renders it, the condition reading no answer).
    private func stu3Problem(under engine: FHIREngine) -> String? {
        guard stu3Form != nil else { return nil }
        if let unreadable = items.lazy.flatMap({ item in item.c3pro.unreadableConditions.map { (item, $0) } }).first {
            return "\(file):\(unreadable.1.location.position): an enableWhen of '\(unreadable.0.linkId)' \(unreadable.1.problem): the r4 profile cannot evaluate it (C3-PRO drops the item's own conditions: use profile c3pro)"
        }
        guard engine == .lhcForms,
            let (item, condition) = items.lazy.flatMap({ item in item.enableWhen.map { (item, $0) } }).first(where: { itemByLinkId[$0.1.question] == nil })
        else { return nil }
        return "\(file):\(condition.location.position): an enableWhen of '\(item.linkId)' reads '\(condition.question)', which no item has: the r4 profile cannot evaluate it under LHC-Forms, which refuses such a file (android-fhir reads no answer for it: option engine android-fhir; C3-PRO finds no result for it and counts it as satisfied: use profile c3pro)"
    }

    /// The file as an R4 engine reads it, or what that engine refuses in it.
    func reading(for engine: FHIREngine) -> Result<FHIRSurvey, InputError> {
        guard engine != self.engine, let otherReading, otherReading.engine == engine else { return .success(self) }
        return otherReading.result
    }

    public func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession {
        if settings.profile == Self.c3proProfile { return FHIRC3PROSession(survey: self, settings: settings, coverage: coverage) }
        let engine = FHIREngine.of(settings)
        switch reading(for: engine) {
        case .success(let reading):
            return FHIRSession(survey: reading, settings: settings, coverage: coverage, refusal: stu3Problem(under: engine))
        case .failure:
            return FHIRSession(survey: self, settings: settings, coverage: coverage, refusal: problem(with: settings))
        }
    }

    func blockPlan() -> FHIRBlockPlan {
        blocks.get { FHIRBlockPlan(self) }
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
            if let item = itemByID[String(rest)] { return item }
            var consumed = false
            var search = rest.startIndex
            while let hash = rest[search...].firstIndex(of: "#") {
                let digits = rest[rest.index(after: hash)...].prefix { $0.isASCII && $0.isNumber }
                let after = digits.endIndex
                if !digits.isEmpty, let item = itemByID[String(rest[..<hash])], items[item].repeats {
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
