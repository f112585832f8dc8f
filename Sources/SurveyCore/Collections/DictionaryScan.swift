extension Dictionary where Key == String {
    /// The value for `key`, found by comparing keys rather than hashing when the dictionary is small. An
    /// answer object (the fields of a question, the rows of a table) has a handful of keys, and for those a
    /// scan of a few short-string comparisons is several times cheaper than Swift's seeded string hash.
    @inlinable
    public func scanning(_ key: String) -> Value? {
        guard count <= 8 else { return self[key] }
        for (candidate, value) in self where candidate == key { return value }
        return nil
    }
}
