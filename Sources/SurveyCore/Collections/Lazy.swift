import Foundation

/// A value worked out once, when first asked for, safely from any thread; for derived data of immutable
/// values (a survey's coverage layout) that most uses never need.
public final class Lazy<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    public init() {}

    public func get(_ make: () -> Value) -> Value {
        lock.withLock {
            if let value { return value }
            let made = make()
            value = made
            return made
        }
    }
}
