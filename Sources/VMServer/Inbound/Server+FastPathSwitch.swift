/// The switch between the one-pass frame readers and the general path, for the tools that
/// compare the two (Sources/vmd-fuzz/DifferentialTarget.swift, the VMServerTests suites).
extension Server {
    /// Whether frames may take the one-pass readers (``SendFrame``, ``RequestFrame``): `true` in
    /// the daemon. With `false` every frame is parsed to a tree and dispatched by the general
    /// path (Server+Frames.swift), which the fast paths promise to match byte for byte.
    package var usesFastPaths: Bool {
        get { sendRoute.isEnabled }
        set { sendRoute.isEnabled = newValue }
    }
}
