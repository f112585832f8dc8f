import SurveyCore

/// An LCOV tracefile (geninfo(1)) of the survey file itself: a `DA` record for every line with a branch
/// (so genhtml accepts the `BRDA`s there) and one `BRDA` per possible branch, `-` when its decision point
/// was never reached. genhtml then renders the survey JSON with branch marks.
public enum LCOVReport {
    public static func text(_ surveys: [(path: String, recorder: CoverageRecorder)], testName: String = "survey_replay") -> String {
        var lines: [String] = []
        for (path, recorder) in surveys {
            let report = CoverageReport(recorder)
            let possible = report.branches.filter { !$0.status.isImpossible }
            var hitsByLine: [Int: Int] = [:]
            for branch in possible {
                let line = branch.location.position.line
                let count = if case .taken(let count) = branch.status { count } else { 0 }
                hitsByLine[line] = (hitsByLine[line] ?? 0) + count
            }
            lines.append("TN:\(testName)")
            lines.append("SF:\(path)")
            for (line, hits) in hitsByLine.sorted(by: { $0.key < $1.key }) { lines.append("DA:\(line),\(hits)") }
            for branch in possible.sorted(by: { ($0.location.position.line, $0.block, $0.branch) < ($1.location.position.line, $1.block, $1.branch) }) {
                let taken: String =
                    switch branch.status {
                    case .taken(let count): String(count)
                    case .notTaken: "0"
                    case .notReached, .impossible: "-"
                    }
                lines.append("BRDA:\(branch.location.position.line),\(branch.block),\(branch.branch),\(taken)")
            }
            lines.append("BRF:\(possible.count)")
            lines.append("BRH:\(possible.filter(\.status.isTaken).count)")
            lines.append("LF:\(hitsByLine.count)")
            lines.append("LH:\(hitsByLine.values.filter { $0 > 0 }.count)")
            lines.append("end_of_record")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
