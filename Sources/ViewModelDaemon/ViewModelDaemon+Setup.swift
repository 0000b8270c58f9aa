extension ViewModelDaemon {
    /// What an app's registration closure learns about the daemon being started: where to
    /// keep durable files, which socket it serves, and the process environment.
    public struct Setup: Sendable {
        /// The daemon's name, as given to ``ViewModelDaemon/main(name:summary:version:defaultSocketName:register:)``.
        public var name: String
        /// Where durable view models keep their files: `--state-dir`, `VMD_STATE_DIR`, the
        /// config key `state-dir`, else `$XDG_STATE_HOME/<name>` (`$HOME/.local/state/<name>`),
        /// else `/tmp/<name>-$UID/state`. Not created here: create it on first use.
        public var stateDirectory: String
        /// The socket path the daemon serves (the flag, `VMD_SOCKET`, or the default rule).
        public var socketPath: String
        /// The process environment the daemon was started with.
        public var environment: [String: String]

        /// A setup, for an app's tests that call its registration code directly.
        public init(name: String, stateDirectory: String, socketPath: String, environment: [String: String] = [:]) {
            self.name = name
            self.stateDirectory = stateDirectory
            self.socketPath = socketPath
            self.environment = environment
        }
    }
}
