extension String {
    /// This string with a leading `prefix` replaced (unchanged when it does not start so).
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
