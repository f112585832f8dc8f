/// Where two golden texts first part: the block (start, a step, or the payload) in which they first differ.
public struct Divergence: Equatable, Sendable {
    public enum Place: Equatable, Sendable {
        case header
        case start
        case step(Int, action: String)
        case payload
        /// One text has steps the other lacks, from this step on.
        case length(step: Int)
    }

    public let place: Place

    /// The first divergence between a golden and a new rendering, or nil if they are equal.
    public static func first(golden: String, new: String) -> Divergence? {
        guard golden != new else { return nil }
        let old = blocks(golden)
        let fresh = blocks(new)
        for index in 0..<max(old.count, fresh.count) {
            let a = index < old.count ? old[index] : nil
            let b = index < fresh.count ? fresh[index] : nil
            if a == b { continue }
            let heading = (b ?? a)!.first ?? ""
            if heading == "start" { return Divergence(place: .start) }
            if heading.hasPrefix("step "), let colon = heading.firstIndex(of: ":"),
                let number = Int(heading[heading.index(heading.startIndex, offsetBy: 5)..<colon])
            {
                if a == nil || b == nil || (a?.first?.hasPrefix("step ") != b?.first?.hasPrefix("step ")) {
                    return Divergence(place: .length(step: number))
                }
                let action = String(heading[heading.index(after: colon)...].drop { $0 == " " })
                return Divergence(place: .step(number, action: action))
            }
            if heading.hasPrefix("payload") { return Divergence(place: .payload) }
            return Divergence(place: .header)
        }
        return Divergence(place: .header)
    }

    public var description: String {
        switch place {
        case .header: "the header differs (survey or format)"
        case .start: "what the respondent sees before the first action differs"
        case .step(let number, let action): "first divergence at step \(number): \(action)"
        case .payload: "every step matches; the payload differs"
        case .length(let step): "the number of steps differs from step \(step) on"
        }
    }

    /// Blank-line separated blocks, each as its lines.
    private static func blocks(_ text: String) -> [[String]] {
        var result: [[String]] = []
        var current: [String] = []
        for line in LineDiff.lines(text) {
            if line.isEmpty {
                if !current.isEmpty { result.append(current) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
