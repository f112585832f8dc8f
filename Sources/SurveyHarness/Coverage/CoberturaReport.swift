import SurveyCore

/// Cobertura XML (coverage-04.dtd), as GitLab, Azure DevOps and Jenkins read it: one class per survey
/// file, one line element per line with branches, each with its `condition-coverage`. No timestamp is
/// written, so the same run gives the same bytes.
public enum CoberturaReport {
    public static func xml(_ surveys: [(path: String, recorder: CoverageRecorder)]) -> String {
        var classes: [String] = []
        var allPossible = 0
        var allTaken = 0
        var allLines = 0
        var allHit = 0
        for (path, recorder) in surveys {
            let report = CoverageReport(recorder)
            let possible = report.branches.filter { !$0.status.isImpossible }
            let byLine = Dictionary(grouping: possible, by: { $0.location.position.line })
            var lineElements: [String] = []
            var hitLines = 0
            for (line, branches) in byLine.sorted(by: { $0.key < $1.key }) {
                let hits = branches.reduce(0) { total, branch in
                    if case .taken(let count) = branch.status { return total + count }
                    return total
                }
                let taken = branches.filter(\.status.isTaken).count
                if hits > 0 { hitLines += 1 }
                let percent = Int((Double(taken) * 100 / Double(branches.count)).rounded(.down))
                lineElements.append(
                    "          <line number=\"\(line)\" hits=\"\(hits)\" branch=\"true\" condition-coverage=\"\(percent)% (\(taken)/\(branches.count))\"/>")
            }
            let taken = possible.filter(\.status.isTaken).count
            allPossible += possible.count
            allTaken += taken
            allLines += byLine.count
            allHit += hitLines
            let name = path.split(separator: "/").last.map(String.init) ?? path
            classes.append(
                """
                        <class name="\(JUnitDocument.escape(name))" filename="\(JUnitDocument.escape(path))" line-rate="\(rate(hitLines, byLine.count))" branch-rate="\(rate(taken, possible.count))" complexity="0">
                          <methods/>
                          <lines>
                \(lineElements.joined(separator: "\n"))
                          </lines>
                        </class>
                """)
        }
        return """
            <?xml version="1.0" ?>
            <!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">
            <coverage line-rate="\(rate(allHit, allLines))" branch-rate="\(rate(allTaken, allPossible))" lines-covered="\(allHit)" lines-valid="\(allLines)" branches-covered="\(allTaken)" branches-valid="\(allPossible)" complexity="0" version="1" timestamp="0">
              <sources><source>.</source></sources>
              <packages>
                <package name="surveys" line-rate="\(rate(allHit, allLines))" branch-rate="\(rate(allTaken, allPossible))" complexity="0">
                  <classes>
            \(classes.joined(separator: "\n"))
                  </classes>
                </package>
              </packages>
            </coverage>

            """
    }

    private static func rate(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "1" : CanonicalJSON.format(number: (Double(part) / Double(whole) * 10_000).rounded() / 10_000)
    }
}
