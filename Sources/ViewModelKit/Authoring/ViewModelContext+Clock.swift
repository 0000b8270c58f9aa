extension ViewModelContext {
    /// The clock this instance's services and timers share: the daemon's real clock
    /// (`ContinuousClock`) when served, the harness's virtual clock under test
    /// (`TestScheduler.virtualClock`), so a service that sleeps on it is exact virtual time
    /// in a test.
    ///
    /// ```swift
    /// let typing = input.flatMapLatest { _ in
    ///     context.call { [clock = context.clock] in
    ///         try await clock.sleep(for: .seconds(3))
    ///         return false
    ///     }
    /// }
    /// ```
    public var clock: any Clock<Duration> { serviceClock.clock }
}
