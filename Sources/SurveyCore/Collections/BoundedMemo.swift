import Foundation

/// Results of a pure function kept by its exact key (the whole key compared, never only its hash), safely
/// from any thread, up to a number of entries: once full, new results are worked out without being kept, so
/// a long run's memory stays bounded. For checks that many walks repeat on identical inputs.
///
/// Inlinable, so that a client module specializes it for its key and value: looked up at every step of a
/// walk, the unspecialized dictionary lookup and the generic metadata it asks for cost more than the
/// lookup itself.
public final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    // Guarded by the lock: not checked for exclusive access at run time as well.
    @usableFromInline @exclusivity(unchecked) var values: [Key: Value] = [:]
    @usableFromInline @exclusivity(unchecked) var computed = 0
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept for `key`, or `make()`'s (worked out outside the lock, so two threads may both
    /// work out a value nobody kept yet; a pure function gives them the same).
    @inlinable
    public func value(for key: Key, _ make: () -> Value) -> Value {
        if let kept = lock.withLock({ values[key] }) { return kept }
        let made = make()
        lock.withLock {
            computed += 1
            if values.count < capacity { values[key] = made }
        }
        return made
    }

    /// How many values were worked out rather than found (for tests that count work).
    public var computedCount: Int { lock.withLock { computed } }
}
