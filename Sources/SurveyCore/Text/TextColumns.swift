extension String {
    /// The string followed by spaces up to `width` characters, for lining up columns (unchanged when it is
    /// already that wide).
    public func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
