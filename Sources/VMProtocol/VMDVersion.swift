/// vmd's release version: the one place it is written. `vmd --version`, `vmctl --version`,
/// the daemon's start-up log line and `daemon.info`'s `version` all read it from here (the
/// protocol level is ``OpenRPCDocument/protocolLevel``).
public enum VMDVersion {
    /// The release, in semantic versioning.
    public static let current = "0.1.0"
}
