import SurveyCore

/// Coverage saved as JSON: for each survey its branches with their status (for people and tools) and the
/// raw counts (for `coverage merge`, which adds runs from sharded CI jobs), with the fingerprint of the
/// survey's logic they were counted on.
public enum CoverageFile {
    /// Version 2 added the fingerprint; a version 1 file cannot say which survey its counts fit.
    public static let version = "survey-replay coverage 2"

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
                    "fingerprint": .string(recorder.plan.fingerprint),
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

    /// One survey's entry in a saved coverage file: where its parts are, for located errors.
    public struct Entry: Sendable {
        public let path: String
        /// The `survey` value, for errors about the survey file it names.
        public let survey: JSONCursor
        public let fingerprint: JSONCursor
        public let counts: JSONCursor
    }

    /// The surveys and counts in a saved coverage file; every problem located.
    public static func read(_ file: SourceFile) throws(InputError) -> [Entry] {
        let root = try JSONCursor(node: JSONParser.parse(file)).object(for: "a coverage file")
        let version = try root.required("version", in: "the coverage file")
        guard version.stringValue == Self.version else {
            throw version.error("expected \"\(Self.version)\", the version this survey-replay writes (run coverage again to write it)")
        }
        return try root.required("surveys", in: "the coverage file").array(for: "\"surveys\"").map { (entry: JSONCursor) throws(InputError) in
            let object = try entry.object(for: "a survey's coverage")
            let survey = try object.required("survey", in: "a survey's coverage")
            let fingerprint = try object.required("fingerprint", in: "a survey's coverage")
            _ = try fingerprint.string(for: "\"fingerprint\"")
            return Entry(
                path: try survey.string(for: "\"survey\""), survey: survey, fingerprint: fingerprint,
                counts: try object.required("counts", in: "a survey's coverage"))
        }
    }

    /// The counts of an entry read back for a plan; an error if they were counted on another version of the
    /// survey (its logic's fingerprint differs) or are not of the plan's shape.
    public static func counts(_ entry: Entry, plan: CoveragePlan) throws(InputError) -> CoverageCounts {
        guard entry.fingerprint.stringValue == plan.fingerprint else {
            throw entry.fingerprint.error(
                "the survey \(entry.path) has changed since these counts were recorded (the fingerprint of its logic is now \(plan.fingerprint)); expected counts of the survey as it is now: run coverage again")
        }
        let object = try entry.counts.object(for: "\"counts\"")
        var counts = CoverageCounts(plan: plan)
        func mismatch(_ cursor: JSONCursor) -> InputError {
            cursor.error("these counts do not fit the survey as it is now (it has changed since they were recorded); expected counts of the same version")
        }
        /// A table of counts with one row per entry of the plan and `width` counts a row.
        func matrix(_ key: String, like expected: [[Int]]) throws(InputError) -> [[Int]] {
            let table = try object.required(key, in: "the counts")
            let rows = try table.array(for: "\"\(key)\"")
            guard rows.count == expected.count else { throw mismatch(table) }
            return try zip(rows, expected).map { (row: JSONCursor, shape: [Int]) throws(InputError) in
                let cells = try row.array(for: "a row of \"\(key)\"")
                guard cells.count == shape.count else { throw mismatch(row) }
                return try cells.map { (cell: JSONCursor) throws(InputError) in try count(cell) }
            }
        }
        func list(_ key: String, like expected: [Int]) throws(InputError) -> [Int] {
            let table = try object.required(key, in: "the counts")
            let cells = try table.array(for: "\"\(key)\"")
            guard cells.count == expected.count else { throw mismatch(table) }
            return try cells.map { (cell: JSONCursor) throws(InputError) in try count(cell) }
        }
        let rowsTable = try object.required("rows", in: "the counts")
        let rowLists = try rowsTable.array(for: "\"rows\"")
        guard rowLists.count == plan.decisions.count else { throw mismatch(rowsTable) }
        let rows = try zip(rowLists, plan.decisions).map { (rows: JSONCursor, decision: CoveragePlan.Decision) throws(InputError) in
            Set(try leafRows(rows, leaves: decision.leafIndices.count))
        }
        let read = CoverageCounts(
            decisions: try matrix("decisions", like: counts.decisions), leaves: try matrix("leaves", like: counts.leaves), rows: rows,
            validations: try matrix("validations", like: counts.validations), choices: try list("choices", like: counts.choices),
            questions: try matrix("questions", like: counts.questions), terminals: try list("terminals", like: counts.terminals))
        counts.add(read)
        return counts
    }

    /// A count: a whole number from 0 to `CoverageCounts.maximum`.
    private static func count(_ cell: JSONCursor) throws(InputError) -> Int {
        let number = try cell.number(for: "a count")
        guard number >= 0, number <= Double(CoverageCounts.maximum), number.rounded() == number else {
            throw cell.error("\(CanonicalJSON.format(number: number)) is not a count; expected a whole number from 0 to \(CoverageCounts.maximum)")
        }
        return Int(number)
    }

    /// A decision's MC/DC rows: each a value per leaf (0 to 4) and the outcome (0 or 1).
    private static func leafRows(_ rows: JSONCursor, leaves: Int) throws(InputError) -> [[UInt8]] {
        try rows.array(for: "MC/DC rows").map { (row: JSONCursor) throws(InputError) in
            let cells = try row.array(for: "an MC/DC row")
            guard cells.count == leaves + 1 else {
                throw row.error("an MC/DC row of \(cells.count) values; expected \(leaves + 1): one per leaf of the decision, then its outcome")
            }
            return try cells.enumerated().map { (index: Int, cell: JSONCursor) throws(InputError) in
                let value = try count(cell)
                let largest = index == leaves ? 1 : Int(CoverageRecorder.LeafValue.unansweredTrue.rawValue)
                guard value <= largest else { throw cell.error("\(value) is not a value of this place in an MC/DC row; expected 0 to \(largest)") }
                return UInt8(value)
            }
        }
    }
}
