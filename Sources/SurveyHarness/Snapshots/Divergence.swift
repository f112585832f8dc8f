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
            let headings = [a?.first, b?.first]
            if headings.contains("start") { return Divergence(place: .start) }
            let steps = headings.map { $0.flatMap(stepNumber) }
            if steps[0] != nil || steps[1] != nil {
                guard steps[0] == steps[1], let number = steps[0], let heading = b?.first else {
                    return Divergence(place: .length(step: steps.compactMap { $0 }.min()!))
                }
                let action = heading[heading.index(after: heading.firstIndex(of: ":")!)...].drop { $0 == " " }
                return Divergence(place: .step(number, action: String(action)))
            }
            if headings.contains(where: { $0?.hasPrefix("payload") == true }) { return Divergence(place: .payload) }
            return Divergence(place: .header)
        }
        return Divergence(place: .header)
    }

    /// The number in a `step N: action` heading.
    private static func stepNumber(_ heading: String) -> Int? {
        guard heading.hasPrefix("step "), let colon = heading.firstIndex(of: ":") else { return nil }
        return Int(heading[heading.index(heading.startIndex, offsetBy: 5)..<colon])
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
    static func blocks(_ text: String) -> [[String]] {
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
