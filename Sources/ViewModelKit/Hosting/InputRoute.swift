/// One input of one instance, looked up once (``ViewModelInstance/inputRoute(_:)``) so that
/// repeated sends (``ViewModelInstance/send(_:value:)``) skip the lookup by name.
///
/// A route stays valid for as long as its instance lives; a destroyed instance throws
/// ``ViewModelError/unknownInstance(instance:)`` as it does for any call. A class, so that
/// holding and passing one costs a single reference count, not one per member.
package final class InputRoute: Sendable {
    /// The input's wire name.
    package let name: String
    /// The type the route was resolved in (a route only fits instances of that type).
    let registered: RegisteredType
    let slot: RegisteredType.Slot

    init(name: String, registered: RegisteredType, slot: RegisteredType.Slot) {
        self.name = name
        self.registered = registered
        self.slot = slot
    }
}
