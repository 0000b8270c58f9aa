extension ObservableType {
    /// Subscribes to the source, and later disposes that subscription, through `scheduler`.
    public func subscribe(on scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let subscription = SingleAssignmentDisposable()
            let scheduled = SerialDisposable()
            scheduled.disposable = scheduler.schedule {
                subscription.setDisposable(source.subscribe(erased: observer))
            }
            return Disposables.create {
                scheduled.dispose()
                scheduler.schedule { subscription.dispose() }
            }
        }
    }
}
