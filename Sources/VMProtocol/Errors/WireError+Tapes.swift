import JSONCore

/// The errors of `vm.tape`.
extension WireError {
    /// -31018: `instance` was created without `record`, so the daemon kept no tape of it.
    package static func notRecording(instance: String) -> WireError {
        WireError(
            code: .notRecording,
            message: "Instance \(instance) was not created with record: true, so it has no tape; create it with record: true (or run vmd --record-all), or attach with vmctl record.",
            extra: ["instance": .string(instance)])
    }
}
