extension ObservableType {
    /// On error, subscribes to the source again, forever.
    @inlinable public func retry() -> Observable<Element> {
        retry(Int.max)
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all: on error it subscribes
    /// again while attempts remain, and fails with the last error otherwise.
    @inlinable public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = CreateSink(observer)
            let subscription = SerialDisposable()
            sink.setUpstream(subscription)
            var attempts = 0
            // Re-subscription from inside an error is trampolined through this loop, so a
            // source failing synchronously retries without growing the stack.
            var isSubscribing = false
            var needsResubscribe = false
            func attempt() {
                if isSubscribing {
                    needsResubscribe = true
                    return
                }
                isSubscribing = true
                repeat {
                    needsResubscribe = false
                    attempts += 1
                    let current = SingleAssignmentDisposable()
                    subscription.disposable = current
                    current.setDisposable(source.subscribe(erased: AnyObserver { event in
                        if case .error = event, attempts < maxAttemptCount, !sink.isDisposed {
                            attempt()
                        } else {
                            sink.on(event)
                        }
                    }))
                } while needsResubscribe && !sink.isDisposed
                isSubscribing = false
            }
            attempt()
            return sink
        }
    }
}
