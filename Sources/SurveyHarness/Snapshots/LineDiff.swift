/// The project's own line diff: Myers' O(ND) algorithm, rendered as a unified diff with hunks.
public enum LineDiff {
    public enum Edit: Equatable, Sendable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The shortest edit script turning `old` into `new`, one entry per line.
    public static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        let n = old.count
        let m = new.count
        let maxD = n + m
        guard maxD > 0 else { return [] }
        let offset = maxD
        var v = [Int](repeating: 0, count: 2 * maxD + 2)
        var trace: [[Int]] = []
        search: for d in 0...maxD {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, old[x] == new[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m { break search }
            }
        }
        // Walk the trace back from the end to recover the path.
        var result: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                result.append(.same(old[x - 1]))
                x -= 1
                y -= 1
            }
            if d > 0 {
                if x == previousX {
                    result.append(.added(new[y - 1]))
                } else {
                    result.append(.removed(old[x - 1]))
                }
            }
            x = previousX
            y = previousY
        }
        return result.reversed()
    }

    /// A unified diff (`--- old`, `+++ new`, `@@ -a,b +c,d @@` hunks with `context` lines around each
    /// change), or "" when the texts are equal.
    public static func unified(
        old: String, new: String, oldName: String = "golden", newName: String = "new", context: Int = 3, color: Bool = false
    ) -> String {
        let oldLines = lines(old)
        let newLines = lines(new)
        let script = edits(oldLines, newLines)
        guard script.contains(where: { if case .same = $0 { false } else { true } }) else { return "" }

        // Positions of each edit in the old and new texts.
        var positions: [(old: Int, new: Int)] = []
        var oldIndex = 0
        var newIndex = 0
        for edit in script {
            positions.append((oldIndex, newIndex))
            switch edit {
            case .same: oldIndex += 1; newIndex += 1
            case .removed: oldIndex += 1
            case .added: newIndex += 1
            }
        }
        let changed = script.indices.filter { if case .same = script[$0] { false } else { true } }
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(script.count - 1, index + context)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }

        let red = color ? "\u{1B}[31m" : ""
        let green = color ? "\u{1B}[32m" : ""
        let cyan = color ? "\u{1B}[36m" : ""
        let reset = color ? "\u{1B}[0m" : ""
        var output = ["--- \(oldName)", "+++ \(newName)"]
        for hunk in hunks {
            let slice = script[hunk]
            let oldCount = slice.filter { if case .added = $0 { false } else { true } }.count
            let newCount = slice.filter { if case .removed = $0 { false } else { true } }.count
            let oldStart = positions[hunk.lowerBound].old + (oldCount == 0 ? 0 : 1)
            let newStart = positions[hunk.lowerBound].new + (newCount == 0 ? 0 : 1)
            output.append("\(cyan)@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\(reset)")
            for edit in slice {
                switch edit {
                case .same(let line): output.append(" " + line)
                case .removed(let line): output.append(red + "-" + line + reset)
                case .added(let line): output.append(green + "+" + line + reset)
                }
            }
        }
        return output.joined(separator: "\n") + "\n"
    }

    static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }
}
