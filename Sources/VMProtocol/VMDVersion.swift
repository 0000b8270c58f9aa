/// vmd's release version: the one place it is written. `vmd --version`, `vmctl --version`,
/// the daemon's start-up log line and `daemon.info`'s `version` all read it from here.
public enum VMDVersion {
    /// The release, in semantic versioning.
    public static let current = "0.1.0"
    /// The protocol level this release speaks (`daemon.info`'s `protocol`).
    public static let protocolLevel = 1
}
