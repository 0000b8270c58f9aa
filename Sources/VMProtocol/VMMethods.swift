/// The protocol's table of contents: every method and notification of this revision.
public enum VMMethods {
    /// Every method type a client may call, in `openrpc.json`'s order: the one registry a
    /// test compares with the OpenRPC document, the schema files, VMClient and vmctl.
    public static let types: [any VMMethod.Type] = [
        DaemonInfoMethod.self, DaemonShutdownMethod.self, DaemonMonitorMethod.self, DaemonUnmonitorMethod.self,
        RPCDiscoverMethod.self, VMTypesMethod.self, VMCreateMethod.self, VMDestroyMethod.self, VMListMethod.self,
        VMSendMethod.self, VMExecuteMethod.self, VMGetMethod.self, VMTapeMethod.self, VMSubscribeMethod.self, VMUnsubscribeMethod.self,
        SessionOpenMethod.self, SessionResumeMethod.self, SessionCloseMethod.self,
    ]

    /// The names of ``types``, in the same order.
    public static let all: [String] = types.map { $0.name }

    /// Notifications, in `x-notifications`' order.
    public static let notifications: [String] = [
        VMOutputNotification.name, VMClosedNotification.name, VMOverflowNotification.name,
        VMErrorNotification.name, VMProgressNotification.name, DaemonMessageNotification.name, CancelRequestNotification.name,
    ]
}
