extension ObservableType {
    /// Prints what happens to each subscription: `subscribed`, every event, `isDisposed`, each
    /// line prefixed with `identifier` (by default the call site: file, line and function).
    ///
    /// Lines go to `printer` (standard output by default). With `trimOutput`, an event's
    /// description is cut to 40 characters. Unlike RxSwift's, lines carry no timestamp: the
    /// module has no date formatting (it imports no Foundation).
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #fileID,
        line: UInt = #line,
        function: String = #function,
        printer: @escaping (String) -> Void = { print($0) }
    ) -> Observable<Element> {
        let name = identifier ?? "\(file):\(line) (\(function))"
        let source = asObservable()
        return Observable.make { observer in
            printer("\(name) -> subscribed")
            let sink = DebugSink(observer, name: name, trimOutput: trimOutput, printer: printer)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

/// Prints each event, then forwards it; prints `isDisposed` once when the subscription ends.
final class DebugSink<Element>: Sink<Element> {
    private let name: String
    private let trimOutput: Bool
    private let printer: (String) -> Void

    init(_ observer: AnyObserver<Element>, name: String, trimOutput: Bool, printer: @escaping (String) -> Void) {
        self.name = name
        self.trimOutput = trimOutput
        self.printer = printer
        super.init(observer)
    }

    func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        var shown = event.debugDescription
        if trimOutput, shown.count > 40 { shown = String(shown.prefix(37)) + "..." }
        printer("\(name) -> Event \(shown)")
        switch event {
        case .next(let element): forward(element)
        case .error, .completed: forwardTerminal(event)
        }
    }

    override func disposeResources() {
        printer("\(name) -> isDisposed")
    }
}
