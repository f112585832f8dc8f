import SurveyCore

extension Trace {
    /// The machine contract of `replay --json` (DESIGN.md §5): keys `survey`, `format`, `steps` (each with
    /// `n`, `action`, `outcome`, `message`, `current`, `visible`, `submittable`, `events`) and `payload`.
    public var json: JSONValue {
        .object([
            "survey": .string(survey),
            "format": .string(format),
            "steps": .array(steps.map(\.json)),
            "payload": payload ?? .null,
        ])
    }
}

extension Trace.Step {
    var json: JSONValue {
        .object([
            "n": .number(Double(number)),
            "action": .string(actionText),
            "outcome": .string(outcome.contractName),
            "message": outcome.message.map(JSONValue.string) ?? .null,
            "current": view.current.map(JSONValue.string) ?? .null,
            "visible": .array(view.visible.map(JSONValue.string)),
            "submittable": .bool(view.submittable),
            "events": .array(events.map { .object(["name": .string($0.name), "detail": $0.detail ?? .null]) }),
        ])
    }
}

extension Outcome {
    /// `ok`, `rejected` or `validation_failed`. An action that does not fit the survey is a rejection; runs
    /// stop there and report the scenario as stale.
    public var contractName: String {
        switch self {
        case .ok: "ok"
        case .rejected, .doesNotFit: "rejected"
        case .validationFailed: "validation_failed"
        }
    }
}
