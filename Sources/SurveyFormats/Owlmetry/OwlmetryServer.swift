import SurveyCore

/// The server side of one questionnaire (owlmetry/owlmetry@e9b6cab6 `apps/server/src/routes/questionnaire-ingest.ts`
/// and `routes/identity.ts`): the response rows, the global dismissals, the claimed anonymous ids, and the
/// answers to a fetch, a save, a dismissal and a claim. The session drives it with what the SDK sends; the
/// Owlmetry wire examples drive it directly.
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

    /// The answer to a save: the HTTP status, and `{id, created_at, was_submitted}` or `{error, reason?}`.
    struct SaveResponse: Sendable, Equatable {
        var http: Int
        var row: Int?
        var wasSubmitted: Bool?
        var reason: String?
        var error: String?

        /// The JSON body the server sends with a refusal (what the SDK puts in its error).
        var errorBody: JSONValue {
            var body: [String: JSONValue] = ["error": .string(error ?? "")]
            if let reason { body["reason"] = .string(reason) }
            return .object(body)
        }
    }

    enum Eligibility: Sendable, Equatable {
        case eligible(inProgress: [String: JSONValue]?)
        case ineligible(String)
    }

    /// What a claim did with the anonymous id's rows (`identity.ts:180-220`).
    enum ClaimOutcome: String, Sendable {
        case noRow = "none"
        case moved
        case softDeleted = "soft_deleted"
    }

    let validator: OwlmetryValidator
    let schema: JSONValue
    var isActive = true
    private(set) var rows: [Row] = []
    /// User ids whose `app_users.properties` carry `_questionnaires_dismissed_at`.
    private(set) var dismissed: Set<String> = []
    /// Anonymous id → the user id that claimed it (`app_users.claimed_from`).
    private(set) var claims: [String: String] = [:]

    init(validator: OwlmetryValidator, schema: JSONValue) {
        self.validator = validator
        self.schema = schema
    }

    /// An empty user id counts as none; an anonymous id that was claimed stands for its claimer
    /// (`resolveClaimedUserIds`, `questionnaire-ingest.ts:83-88, 176-180, 290-331`).
    func resolve(_ userID: String?) -> String? {
        guard let userID, !userID.isEmpty else { return nil }
        return claims[userID] ?? userID
    }

    /// One row per (project, slug, user_id); a call without a user id never finds one.
    func rowIndex(for userID: String?) -> Int? {
        guard let user = resolve(userID) else { return nil }
        return rows.firstIndex { $0.userID == user }
    }

    func isDismissed(_ userID: String?) -> Bool {
        resolve(userID).map(dismissed.contains) ?? false
    }

    /// `GET /v1/questionnaires/:slug` (`questionnaire-ingest.ts:171-236`): inactive first, whatever `force`
    /// says; then, only with a user id, a global dismissal and a submitted row, both passed over by `force`;
    /// a draft of that user comes back as `in_progress` (never for a submitted row, even forced).
    func fetch(userID: String?, force: Bool = false) -> Eligibility {
        if !isActive { return .ineligible("inactive") }
        guard resolve(userID) != nil else { return .eligible(inProgress: nil) }
        if !force, isDismissed(userID) { return .ineligible("globally_dismissed") }
        guard let index = rowIndex(for: userID) else { return .eligible(inProgress: nil) }
        if rows[index].submittedAt != nil { return force ? .eligible(inProgress: nil) : .ineligible("already_responded") }
        return .eligible(inProgress: rows[index].answers)
    }

    /// Whether a completion from this user could still be accepted: the questionnaire is active, the user
    /// has not dismissed, and their row (if any) is not submitted.
    func acceptsCompletion(from userID: String?) -> Bool {
        guard isActive else { return false }
        guard resolve(userID) != nil else { return true }
        if isDismissed(userID) { return false }
        return rowIndex(for: userID).map { rows[$0].submittedAt == nil } ?? true
    }

    /// `POST /v1/questionnaires/dismiss` (`questionnaire-ingest.ts:56-97`): 400 without a user id; otherwise
    /// the (resolved) user is dismissed, idempotently.
    mutating func dismiss(userID: String?) -> SaveResponse {
        guard let user = resolve(userID) else { return SaveResponse(http: 400, error: "user_id is required to dismiss questionnaires") }
        dismissed.insert(user)
        return SaveResponse(http: 200)
    }

    /// Another device of the same user submitted: the row is submitted as it stands (a new one if none).
    mutating func markResponded(userID: String?, at timestamp: String) {
        guard let user = resolve(userID) else { return }
        if let index = rowIndex(for: user) {
            rows[index].submittedAt = rows[index].submittedAt ?? timestamp
            rows[index].schemaSnapshot = rows[index].schemaSnapshot ?? schema
        } else {
            rows.append(Row(userID: user, answers: [:], createdAt: timestamp, submittedAt: timestamp, schemaSnapshot: schema))
        }
    }

    /// `POST /v1/identity/claim` (`identity.ts:180-262`): the anonymous id's row moves to the user when the
    /// user has none for this questionnaire, and is soft-deleted otherwise; the anonymous properties are
    /// merged under the user's (so a dismissal carries over); later calls with the anonymous id resolve to
    /// the user. A repeated claim changes nothing.
    mutating func claim(anonymousID: String, userID: String) -> ClaimOutcome {
        guard claims[anonymousID] != userID else { return .noRow }
        claims[anonymousID] = userID
        if dismissed.remove(anonymousID) != nil { dismissed.insert(userID) }
        guard let index = rows.firstIndex(where: { $0.userID == anonymousID }) else { return .noRow }
        if rows.contains(where: { $0.userID == userID }) {
            rows.remove(at: index)
            return .softDeleted
        }
        rows[index].userID = userID
        return .moved
    }

    /// `POST /v1/questionnaires/:slug/responses` in the server's order (`questionnaire-ingest.ts:309-413`):
    /// an inactive questionnaire refuses every save (409); on completion only, a dismissed user is refused
    /// (409); a submitted row refuses every save (409); then the incoming answers are validated as partial
    /// (400), merged per key over the row, and on completion pruned of removed questions, validated in full
    /// (400) and `submitted_at` flips once. A save without a user id always inserts a new row.
    mutating func save(userID: String?, answers: [String: JSONValue], isComplete: Bool, at timestamp: String) -> SaveResponse {
        if !isActive { return SaveResponse(http: 409, reason: "inactive", error: "Questionnaire is not accepting responses") }
        let user = resolve(userID)
        if isComplete, user != nil, isDismissed(user) {
            return SaveResponse(http: 409, reason: "globally_dismissed", error: "Questionnaires globally dismissed")
        }
        let existing = rowIndex(for: user)
        if let existing, rows[existing].submittedAt != nil {
            return SaveResponse(http: 409, row: existing, reason: "already_responded", error: "Already responded")
        }
        let incoming: [String: JSONValue]
        switch validator.validate(answers, allowPartial: true) {
        case .failure(let problem): return SaveResponse(http: 400, row: existing, error: problem.message)
        case .success(let clean): incoming = clean
        }
        var row = existing.map { rows[$0] } ?? Row(userID: user, answers: [:], createdAt: timestamp)
        row.answers.merge(incoming) { _, new in new }
        if isComplete {
            let pruned = row.answers.filter { validator.question($0.key) != nil }
            switch validator.validate(pruned, allowPartial: false) {
            case .failure(let problem): return SaveResponse(http: 400, row: existing, error: problem.message)
            case .success(let clean): row.answers = clean
            }
            row.submittedAt = timestamp
            row.schemaSnapshot = schema
        }
        if let existing {
            rows[existing] = row
            return SaveResponse(http: 200, row: existing, wasSubmitted: isComplete)
        }
        rows.append(row)
        return SaveResponse(http: 201, row: rows.count - 1, wasSubmitted: isComplete)
    }
}
