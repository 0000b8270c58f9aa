import ReactiveCore

/// What every instance one host (or one testing harness) builds shares in its
/// ``ViewModelContext``: the scheduler, the child opener and the service clock. Immutable.
///
/// One reference instead of three fields: the context is then a value the optimizer moves
/// and copies with a retain per reference (the service clock's `any Clock` made it a value
/// copied and destroyed through its generic value witnesses on every `vm.create`, with a
/// metadata lookup each time; ViewModelDaemon.docc/Performance.md), and a host makes this
/// once rather than copying its parts into every instance's seed.
@usableFromInline final class InstanceEnvironment {
    let scheduler: any SerialScheduler
    let children: any ChildOpening
    /// The clock behind ``ViewModelContext/clock``, and who watches service calls.
    let serviceClock: ServiceClock

    init(scheduler: any SerialScheduler, children: any ChildOpening, serviceClock: ServiceClock) {
        self.scheduler = scheduler
        self.children = children
        self.serviceClock = serviceClock
    }
}
