import VMProtocol

/// Which vmctl command calls each method of the protocol, one row per type of
/// `VMMethods.types`: `vmctl call METHOD` completes from it, and VMProtocolTests'
/// MethodRegistryTests fails while a method has no row (Protocol/ADDING-A-METHOD.md).
enum MethodCommands {
    /// A method and the command line that reaches it.
    struct Row: Sendable {
        let method: any VMMethod.Type
        /// The subcommand path (`"daemon stop"`), or `"call ..."` when only the raw call fits.
        let command: String
    }

    static let rows: [Row] = [
        Row(method: DaemonInfoMethod.self, command: "info"),
        Row(method: DaemonShutdownMethod.self, command: "daemon stop"),
        Row(method: DaemonMonitorMethod.self, command: "monitor"),
        // A one-shot command ends its monitor by closing its connection; the raw call is for scripts.
        Row(method: DaemonUnmonitorMethod.self, command: "call daemon.unmonitor"),
        Row(method: RPCDiscoverMethod.self, command: "call rpc.discover"),
        Row(method: VMTypesMethod.self, command: "types"),
        Row(method: VMCreateMethod.self, command: "create"),
        Row(method: VMDestroyMethod.self, command: "destroy"),
        Row(method: VMListMethod.self, command: "list"),
        Row(method: VMSendMethod.self, command: "send"),
        Row(method: VMExecuteMethod.self, command: "exec"),
        Row(method: VMGetMethod.self, command: "get"),
        Row(method: VMTapeMethod.self, command: "tape"),
        Row(method: VMSubscribeMethod.self, command: "watch"),
        // Like daemon.unmonitor: `watch` ends its subscription by closing its connection.
        Row(method: VMUnsubscribeMethod.self, command: "call vm.unsubscribe"),
        // `watch` opens a session, resumes it after a dropped connection and closes it at the end.
        Row(method: SessionOpenMethod.self, command: "watch"),
        Row(method: SessionResumeMethod.self, command: "watch"),
        Row(method: SessionCloseMethod.self, command: "watch"),
    ]

    /// The method names, in the protocol's order: the candidates for `call`'s METHOD.
    static var names: [String] { rows.map { $0.method.name } }
}
