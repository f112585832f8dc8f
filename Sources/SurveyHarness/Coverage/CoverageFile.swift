import SurveyCore

/// Coverage saved as JSON: for each survey its branches with their status (for people and tools) and the
/// raw counts (for `coverage merge`, which adds runs from sharded CI jobs).
public enum CoverageFile {
    public static let version = "survey-replay coverage 1"

    public static func json(_ surveys: [(path: String, recorder: CoverageRecorder)]) -> JSONValue {
        .object([
            "version": .string(version),
            "surveys": .array(surveys.map { path, recorder in
                let report = CoverageReport(recorder)
                let (possible, taken, impossible) = report.totals
                let mcdc = report.mcdcTotals
                let counts = recorder.counts
                return .object([
                    "survey": .string(path),
                    "summary": [
                        "branches": .number(Double(possible)), "taken": .number(Double(taken)), "impossible": .number(Double(impossible)),
                        "percent": .number((report.percent * 100).rounded() / 100),
                        "mcdcLeaves": .number(Double(mcdc.leaves)), "mcdcShown": .number(Double(mcdc.shown)),
                    ],
                    "branches": .array(report.branches.map(json)),
                    "mcdc": .array(report.mcdc.map { result in
                        .object([
                            "decision": .number(Double(result.decision)), "question": .string(result.question),
                            "line": .number(Double(result.location.position.line)),
                            "leaves": .array(result.leaves.map { leaf, pair in
                                .object([
                                    "leaf": .number(Double(leaf)), "description": .string(recorder.plan.leaves[leaf].description),
                                    "shown": .bool(pair != nil),
                                    "pair": pair.map { .array([row($0.first), row($0.second)]) } ?? .null,
                                ])
                            }),
                        ])
                    }),
                    "counts": [
                        "decisions": matrix(counts.decisions), "leaves": matrix(counts.leaves), "validations": matrix(counts.validations),
                        "questions": matrix(counts.questions), "choices": .array(counts.choices.map { .number(Double($0)) }),
                        "terminals": .array(counts.terminals.map { .number(Double($0)) }),
                        "rows": .array(counts.rows.map { rows in .array(rows.sorted { $0.lexicographicallyPrecedes($1) }.map(row)) }),
                    ],
                ])
            }),
        ])
    }

    private static func json(_ branch: CoverageReport.Branch) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(branch.id), "kind": .string(branch.kind.rawValue), "question": .string(branch.question),
            "description": .string(branch.description), "line": .number(Double(branch.location.position.line)),
            "column": .number(Double(branch.location.position.column)), "pointer": .string(branch.location.pointer.description),
        ]
        switch branch.status {
        case .taken(let count): object["status"] = "taken"; object["count"] = .number(Double(count))
        case .notTaken: object["status"] = "not taken"
        case .notReached: object["status"] = "not reached"
        case .impossible(let reason): object["status"] = "impossible"; object["reason"] = .string(reason)
        }
        return .object(object)
    }

    private static func matrix(_ rows: [[Int]]) -> JSONValue { .array(rows.map { .array($0.map { .number(Double($0)) }) }) }
    private static func row(_ values: [UInt8]) -> JSONValue { .array(values.map { .number(Double($0)) }) }

    /// The surveys and counts in a saved coverage file; every problem located.
    public static func read(_ file: SourceFile) throws(InputError) -> [(path: String, counts: JSONCursor)] {
        let root = try JSONCursor(node: JSONParser.parse(file)).object(for: "a coverage file")
        let version = try root.required("version", in: "the coverage file")
        guard version.stringValue == Self.version else {
            throw version.error("expected \"\(Self.version)\", the version this survey-replay writes")
        }
        return try root.required("surveys", in: "the coverage file").array(for: "\"surveys\"").map { (entry: JSONCursor) throws(InputError) in
            let object = try entry.object(for: "a survey's coverage")
            return (try object.required("survey", in: "a survey's coverage").string(for: "\"survey\""), try object.required("counts", in: "a survey's coverage"))
        }
    }

    /// Counts read back for a plan; an error if they are not of its shape (another version of the survey).
    public static func counts(_ cursor: JSONCursor, plan: CoveragePlan) throws(InputError) -> CoverageCounts {
        let object = try cursor.object(for: "\"counts\"")
        func matrix(_ key: String) throws(InputError) -> [[Int]] {
            try object.required(key, in: "the counts").array(for: "\"\(key)\"").map { (row: JSONCursor) throws(InputError) in
                try row.array(for: "a row of \"\(key)\"").map { (cell: JSONCursor) throws(InputError) in Int(try cell.number(for: "a count")) }
            }
        }
        func list(_ key: String) throws(InputError) -> [Int] {
            try object.required(key, in: "the counts").array(for: "\"\(key)\"").map { (cell: JSONCursor) throws(InputError) in Int(try cell.number(for: "a count")) }
        }
        var counts = CoverageCounts(plan: plan)
        let read = CoverageCounts(
            decisions: try matrix("decisions"), leaves: try matrix("leaves"),
            rows: try object.required("rows", in: "the counts").array(for: "\"rows\"").map { (rows: JSONCursor) throws(InputError) in
                Set(try leafRows(rows))
            },
            validations: try matrix("validations"), choices: try list("choices"), questions: try matrix("questions"), terminals: try list("terminals"))
        guard read.hasShape(of: counts), read.rows.count == counts.rows.count else {
            throw cursor.error("these counts do not fit the survey as it is now (it has changed since they were recorded); expected counts of the same version")
        }
        counts.add(read)
        return counts
    }

    private static func leafRows(_ rows: JSONCursor) throws(InputError) -> [[UInt8]] {
        try rows.array(for: "MC/DC rows").map { (row: JSONCursor) throws(InputError) in
            try row.array(for: "an MC/DC row").map { (cell: JSONCursor) throws(InputError) in UInt8(clamping: Int(try cell.number(for: "a leaf value"))) }
        }
    }
}
