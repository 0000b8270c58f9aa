/// One method of the protocol: a namespace holding its wire name and, as nested types, its
/// `Params` and `Result` where it has them. The same types serve both ends: the server decodes
/// `Params` (`init(_:)`) and encodes `Result` (`jsonValue`); a client encodes `Params`
/// (`jsonValue`) and decodes `Result` (`init(json:)`). The client's half is public (the `VMClient`
/// product exports this module); the daemon's half (decoding `Params`, building `Result`,
/// the constant results) is `package`: only vmd's own modules use it.
///
/// Every conforming type is listed once in ``VMMethods/types``; `Protocol/ADDING-A-METHOD.md`
/// lists what else a new method needs.
public protocol VMMethod: Sendable {
    /// The method's name on the wire (`"vm.create"`).
    static var name: String { get }
}
