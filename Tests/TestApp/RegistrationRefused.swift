/// What greeterd's registration throws when `GREETERD_REFUSE` is set, so a test can watch a
/// failed registration stop the start.
struct RegistrationRefused: Error, CustomStringConvertible {
    let description: String
}
