import SurveyCore

/// The server side of a questionnaire (reference §3.3, `questionnaire-ingest.ts`): the response rows, the
/// global dismissals, and the answers to a fetch and a save. The session drives it with what the SDK
/// sends, and the Owlmetry wire examples drive it directly.
struct OwlmetryServer: Sendable {
    struct Row: Sendable {
        var userID: String?
        var answers: [String: JSONValue]
        var createdAt: String
        var submittedAt: String?
        /// A by-value copy of the schema at completion; nil for drafts.
        var schemaSnapshot: JSONValue?

        var status: String { submittedAt == nil ? "draft" : "new" }
    }

    /// The answer to a save: the HTTP status, and `{id, created_at, was_submitted}` or the error.
    struct SaveResponse: Sendable, Equatable {
        var http: Int
        var row: Int?
        var wasSubmitted: Bool?
        var reason: String?
        var error: String?
    }

    enum Eligibility: Sendable, Equatable {
        case eligible(inProgress: [String: JSONValue]?)
        case ineligible(String)
    }

    let validator: OwlmetryValidator
    let schema: JSONValue
    var isActive = true
    private(set) var rows: [Row] = []
    /// Users (nil: the anonymous device) who chose "never".
    private(set) var dismissed: Set<String> = []

    init(validator: OwlmetryValidator, schema: JSONValue) {
        self.validator = validator
        self.schema = schema
    }

    static func key(_ userID: String?) -> String { userID ?? "" }

    /// One row per (project, slug, user_id); anonymous saves never find one (reference §3.3, "The row").
    func rowIndex(for userID: String?) -> Int? {
        guard let userID else { return nil }
        return rows.firstIndex { $0.userID == userID }
    }

    /// `GET /v1/questionnaires/:slug`: inactive, globally dismissed and already responded are ineligible;
    /// otherwise the draft of the user, if any, comes back as `in_progress`.
    func fetch(userID: String?) -> Eligibility {
        if !isActive { return .ineligible("inactive") }
        if dismissed.contains(Self.key(userID)) { return .ineligible("globally_dismissed") }
        guard let index = rowIndex(for: userID) else { return .eligible(inProgress: nil) }
        if rows[index].submittedAt != nil { return .ineligible("already_responded") }
        return .eligible(inProgress: rows[index].answers)
    }

    mutating func dismiss(userID: String?) {
        dismissed.insert(Self.key(userID))
    }

    /// A row a test or a scenario option starts with (already responded).
    mutating func insert(_ row: Row) {
        rows.append(row)
    }

    /// `POST /v1/questionnaires/:slug/responses` (reference §3.3, "How the server processes a save"):
    /// validate the incoming answers as partial, merge per key, and on completion prune, re-validate in
    /// full and flip `submitted_at` once.
    mutating func save(userID: String?, answers: [String: JSONValue], isComplete: Bool, at timestamp: String) -> SaveResponse {
        let incoming: [String: JSONValue]
        switch validator.validate(answers, allowPartial: true) {
        case .failure(let problem): return SaveResponse(http: 400, error: problem.message)
        case .success(let clean): incoming = clean
        }
        let existing = rowIndex(for: userID)
        if let existing, rows[existing].submittedAt != nil { return SaveResponse(http: 409, row: existing, reason: "already_responded") }
        var row = existing.map { rows[$0] } ?? Row(userID: userID, answers: [:], createdAt: timestamp)
        row.answers.merge(incoming) { _, new in new }
        var wasSubmitted = false
        if isComplete {
            if !isActive { return SaveResponse(http: 409, row: existing, reason: "inactive") }
            if dismissed.contains(Self.key(userID)) { return SaveResponse(http: 409, row: existing, reason: "globally_dismissed") }
            row.answers = row.answers.filter { validator.question($0.key) != nil }
            switch validator.validate(row.answers, allowPartial: false) {
            case .failure(let problem): return SaveResponse(http: 400, row: existing, error: problem.message)
            case .success(let clean): row.answers = clean
            }
            row.submittedAt = timestamp
            row.schemaSnapshot = schema
            wasSubmitted = true
        }
        if let existing {
            rows[existing] = row
            return SaveResponse(http: 200, row: existing, wasSubmitted: wasSubmitted)
        }
        rows.append(row)
        return SaveResponse(http: 201, row: rows.count - 1, wasSubmitted: wasSubmitted)
    }
}
