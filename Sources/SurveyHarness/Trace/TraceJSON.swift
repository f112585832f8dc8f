import SurveyCore

extension Trace {
    /// The machine contract of `replay --json` (DESIGN.md §5): keys `survey`, `format`, `start_events` (what
    /// the engine reported while preparing the survey), `steps` (each with `n`, `action`, `outcome`,
    /// `message`, `current`, `visible`, `submittable`, `events`) and `payload`.
    public var json: JSONValue {
        .object([
            "survey": .string(survey),
            "format": .string(format),
            "start_events": .array(startEvents.map(\.json)),
            "steps": .array(steps.map(\.json)),
            "payload": payload ?? .null,
        ])
    }
}

extension TraceEvent {
    var json: JSONValue { .object(["name": .string(name), "detail": detail ?? .null]) }
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
            "events": .array(events.map(\.json)),
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
