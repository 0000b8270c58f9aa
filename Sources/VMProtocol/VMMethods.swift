/// The protocol's table of contents: every method and notification name of this revision.
public enum VMMethods {
    /// Methods a client may call, in `openrpc.json`'s order.
    public static let all: [String] = [
        DaemonInfoMethod.name, DaemonShutdownMethod.name, DaemonMonitorMethod.name, DaemonUnmonitorMethod.name,
        RPCDiscoverMethod.name, VMTypesMethod.name, VMCreateMethod.name, VMDestroyMethod.name, VMListMethod.name,
        VMSendMethod.name, VMExecuteMethod.name, VMGetMethod.name, VMSubscribeMethod.name, VMUnsubscribeMethod.name,
        SessionOpenMethod.name, SessionResumeMethod.name, SessionCloseMethod.name,
    ]

    /// Notifications, in `x-notifications`' order.
    public static let notifications: [String] = [
        VMOutputNotification.name, VMClosedNotification.name, VMOverflowNotification.name,
        VMErrorNotification.name, DaemonMessageNotification.name, CancelRequestNotification.name,
    ]
}
