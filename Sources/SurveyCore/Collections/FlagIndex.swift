/// A list of on/off flags that grows at the end and answers, in O(log n), how many flags are on before a
/// position and where the k-th flag that is on sits (a Fenwick tree). Sessions keep their visible
/// questions in one, so a walk never has to build the visible list to choose from it.
public struct FlagIndex: Sendable, Equatable {
    /// 1-based Fenwick tree: `tree[i]` counts the flags on in `(i - lowbit(i), i]`.
    private var tree: [Int32] = [0]
    public private(set) var flags: [Bool] = []
    /// How many flags are on.
    public private(set) var onCount = 0

    public init() {}

    public var count: Int { flags.count }

    public mutating func reserveCapacity(_ capacity: Int) {
        flags.reserveCapacity(capacity)
        tree.reserveCapacity(capacity + 1)
    }

    public subscript(index: Int) -> Bool { flags[index] }

    public mutating func append(_ flag: Bool) {
        flags.append(flag)
        let position = flags.count
        var value: Int32 = flag ? 1 : 0
        let stop = position - (position & -position)
        var child = position - 1
        while child > stop {
            value += tree[child]
            child -= child & -child
        }
        tree.append(value)
        if flag { onCount += 1 }
    }

    public mutating func set(_ index: Int, _ flag: Bool) {
        guard flags[index] != flag else { return }
        flags[index] = flag
        let delta: Int32 = flag ? 1 : -1
        var position = index + 1
        while position < tree.count {
            tree[position] += delta
            position += position & -position
        }
        onCount += flag ? 1 : -1
    }

    /// The number of flags on in `0..<index`.
    public func onCount(before index: Int) -> Int {
        var position = min(index, flags.count)
        var total: Int32 = 0
        while position > 0 {
            total += tree[position]
            position -= position & -position
        }
        return Int(total)
    }

    /// The index of the `k`-th (0-based) flag that is on.
    public func indexOfOn(_ k: Int) -> Int {
        precondition(k >= 0 && k < onCount, "there is no flag on at position \(k)")
        var position = 0
        var remaining = Int32(k + 1)
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count, tree[next] < remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return position
    }
}
