import Foundation

/// A value worked out once, when first asked for, safely from any thread; for derived data of immutable
/// values (a survey's coverage layout) that most uses never need. Inlinable, as `BoundedMemo` is: some are
/// read at every step.
public final class Lazy<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    // Guarded by the lock: not checked for exclusive access at run time as well.
    @usableFromInline @exclusivity(unchecked) var value: Value?

    public init() {}

    @inlinable
    public func get(_ make: () -> Value) -> Value {
        lock.withLock {
            if let value { return value }
            let made = make()
            value = made
            return made
        }
    }
}

/// Values worked out once per key, when first asked for, safely from any thread: a survey's opening state
/// under each engine reading, say.
public final class LazyTable<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    // Guarded by the lock: not checked for exclusive access at run time as well.
    @usableFromInline @exclusivity(unchecked) var values: [Key: Value] = [:]

    public init() {}

    @inlinable
    public func get(_ key: Key, _ make: () -> Value) -> Value {
        lock.withLock {
            if let value = values[key] { return value }
            let made = make()
            values[key] = made
            return made
        }
    }
}
