/// The project's own line diff: Myers' O(ND) algorithm, rendered as a unified diff with hunks.
public enum LineDiff {
    public enum Edit: Equatable, Sendable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// At most this many differing lines are searched for the shortest script; beyond, the differing middle
    /// is shown as removed then added, so a golden replaced wholesale costs linear time and memory.
    public static let maximumEditDistance = 2_000

    /// The shortest edit script turning `old` into `new`, one entry per line (after the common prefix and
    /// suffix, and within `maximumEditDistance`).
    public static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])
        let newMiddle = Array(new[prefix..<(new.count - suffix)])
        let middle =
            shortestEdits(oldMiddle, newMiddle, limit: maximumEditDistance)
            ?? oldMiddle.map(Edit.removed) + newMiddle.map(Edit.added)
        return old[..<prefix].map(Edit.same) + middle + old[(old.count - suffix)...].map(Edit.same)
    }

    /// Myers' search, keeping for each `d` only the diagonals it reached; nil when more than `limit`
    /// edits are needed.
    private static func shortestEdits(_ old: [String], _ new: [String], limit: Int) -> [Edit]? {
        let n = old.count
        let m = new.count
        guard n + m > 0 else { return [] }
        let maxD = min(n + m, limit)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        // trace[d] holds v[offset - d ... offset + d] as it was before step d.
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...maxD {
            trace.append(Array(v[(offset - d)...(offset + d)]))
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
                if x >= n, y >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else { return nil }
        // Walk the trace back from the end to recover the path.
        var result: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let row = trace[d]
            func at(_ k: Int) -> Int { row[k + d] }
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && at(k - 1) < at(k + 1)) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : at(previousK)
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
