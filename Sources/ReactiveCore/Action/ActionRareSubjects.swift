/// The subjects of an ``Action`` that almost no view model observes (``Action/enabled``,
/// ``Action/executionObservables``, ``Action/progress``), made on the first read of any, and
/// the executions of a strategy other than `exclusive` (made with such an action).
///
/// One reference to this object instead of two optional subjects keeps every action of
/// every instance a malloc size class smaller; the few actions read this way pay one more
/// small object.
///
/// Not generic, so that the action's `deinit` (which never specializes) releases it without
/// looking up the metadata of a generic type: `executions` is held as `AnyObject` and only
/// ever holds the action's `PublishSubject<Observable<Element>>` (see `Action.executionSubject`).
///
/// Exclusivity unchecked, for the reason given on `Action`: each access is a single read or
/// assignment, the subject loaded into a local before it is sent to.
@usableFromInline final class ActionRareSubjects {
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var enabled: BehaviorSubject<Bool>?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var executions: AnyObject?
    /// Checked exclusivity: read only by actions whose work reports progress.
    @usableFromInline var progress: PublishSubject<ActionProgress>?
    /// The action's `ActionLanes<Element>` (see `Action.lanes`); checked exclusivity, read
    /// only by actions whose strategy is not `exclusive`.
    @usableFromInline var lanes: AnyObject?

    @inlinable init() {
        enabled = nil
        executions = nil
        progress = nil
        lanes = nil
    }
}
