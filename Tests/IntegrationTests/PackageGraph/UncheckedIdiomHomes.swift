/// The reviewed homes of the unchecked idioms in Sources/: the one list of which file may use
/// which idiom, the invariant that makes it sound there, and what checks that invariant (a test
/// suite in Tests/ or a CI script). `UncheckedIdiomsTests` fails when an idiom appears in a file
/// (or of a kind) not listed here, and when an entry lists one the file no longer uses.
///
/// Adding an entry is a review decision: write the invariant as a reader can check it, name a
/// test that would fail if it broke, and measure what the idiom buys (the table "Unchecked
/// idioms: what each buys" in ViewModelDaemon.docc/Performance.md; an idiom that buys less
/// than ~1% on every workload there is not kept). Author-facing files (ViewModelKit/Authoring,
/// ReactiveCore's public operator files) have none.
///
/// Release builds only: `@exclusivity(unchecked)` is written alone between `#if !DEBUG` and
/// `#endif` before its declaration (`UncheckedIdiomsTests` checks the form), so a debug build,
/// and with it every test run, checks each of those accesses dynamically: a broken invariant
/// traps in the suites listed below instead of passing unnoticed. The invariant is what
/// makes the release build, which skips the check, sound. `unsafeDowncast` checks its cast
/// in debug builds by itself; `Unmanaged`, raw memory, `@unchecked Sendable`,
/// `nonisolated(unsafe)` and the C thread-local have no debug check to keep.
enum UncheckedIdiomHomes {
    struct Home {
        /// Paths under Sources/.
        let files: [String]
        let idioms: Set<UncheckedIdiom>
        /// Why the idiom cannot go wrong in these files.
        let invariant: String
        /// Test suites (type names in Tests/) or repository paths (CI scripts) that check it.
        let checkedBy: [String]
    }

    static let homes: [Home] = [
        // MARK: @exclusivity(unchecked): single-threaded state, no access spans a call
        Home(
            files: [
                "ReactiveCore/Action/Action.swift", "ReactiveCore/Action/ActionRareSubjects.swift",
                "ReactiveCore/Core/Sink.swift", "ReactiveCore/Core/Subscribe.swift",
                "ReactiveCore/Disposables/DisposeBag.swift", "ReactiveCore/Operators/DistinctUntilChangedSink.swift",
                "ReactiveCore/Operators/EquatableDistinct.swift", "ReactiveCore/Operators/MergeSink.swift",
                "ReactiveCore/Operators/MergeSubscription.swift", "ReactiveCore/Subjects/BehaviorSubject.swift",
                "ReactiveCore/Subjects/ObserverHub.swift",
            ],
            idioms: [.exclusivityUnchecked],
            invariant: """
                A reactive graph runs on one thread at a time (ReactiveCore's scheduler contract); each \
                unchecked property is written in one assignment and read in single expressions, so no \
                access is open while an observer (which may re-enter) runs.
                """,
            checkedBy: ["SubjectTests", "SubjectOrderTests", "ActionTests", "MergeTests", "DistinctUntilChangedTests", "ThreadingTests"]),
        Home(
            files: [
                "ViewModelKit/Internals/PortStorage/ActionPort+Storage.swift",
                "ViewModelKit/Internals/PortStorage/EventOutput+Storage.swift",
                "ViewModelKit/Internals/PortStorage/Input+Storage.swift",
                "ViewModelKit/Internals/PortStorage/State+Storage.swift",
                "ViewModelKit/Hosting/ViewModelHost.swift", "ViewModelKit/Hosting/ViewModelInstance.swift",
                "ViewModelKit/Internals/JSONWatcher.swift", "ViewModelKit/Internals/OutputFanOut.swift",
            ],
            idioms: [.exclusivityUnchecked],
            invariant: """
                An instance and its ports live on the host's thread; each unchecked property is assigned \
                in one assignment that calls no observer and read in single expressions (a port's \
                `bindings` also changed by one `BindingStore` method, which calls nothing outside the \
                standard library: the bag and the bindings are called after the access ends). The ports' \
                storage files hold only their classes' declarations (stored properties, designated \
                initializers); their API is in extensions in the Authoring files, which have no idiom.
                """,
            checkedBy: ["HostTests", "PortWiringTests", "FanOutTests", "JSONObserverTests", "CounterTests", "MemoryTests"]),
        Home(
            files: [
                "VMServer/Delivery/Outbox.swift", "VMServer/Delivery/OutputChannel.swift", "VMServer/Server.swift",
                "VMServer/Sessions/Session.swift", "VMServer/Delivery/Subscription.swift",
            ],
            idioms: [.exclusivityUnchecked],
            invariant: """
                The server is driven by one event-loop thread; the unchecked fields (sequence numbers, \
                buffers, routes) are read and written in single expressions that call out to nothing \
                that re-enters the same field.
                """,
            checkedBy: ["SubscriptionTests", "OverflowTests", "SendFastPathTests", "ServerOverSocketTests"]),
        Home(
            files: [
                "Posix/EventLoop.swift", "VMTransport/Daemon.swift", "VMTransport/Connections/Connection.swift",
                "VMTransport/Connections/OutboundChunk.swift", "VMTransport/Connections/OutboundChunkPool.swift",
            ],
            idioms: [.exclusivityUnchecked],
            invariant: """
                Only the event-loop thread touches these fields (other threads submit jobs through the \
                loop's locked queue); each access is a single read or assignment.
                """,
            checkedBy: ["EventLoopTests", "OutboundQueueTests", "TransportRobustnessTests", "QueueOverSocketTests"]),

        // MARK: unsafeDowncast / unsafeBitCast: the class is known by construction
        Home(
            files: ["ReactiveCore/Core/Observable+RunOwner.swift"],
            idioms: [.unsafeCast],
            invariant: """
                Every operator's run function is stored only by the initializer of the class it casts \
                to, and Observable calls it only with the observable that stores it; a merge's \
                receiver (MergeSink's delivery function) is stored only by the initializer of the \
                MergeSink subclass it casts to, and its sources call it only with that sink. The \
                operators reach the casts only through asRunOwner and asReceiverOwner, so their \
                files stay free of them.
                """,
            checkedBy: [
                "OperatorTests", "MergeTests", "StartWithTests", "DistinctUntilChangedTests", "ShareTests",
                "MergeScanFusionTests",
            ]),
        Home(
            files: ["ReactiveCore/Action/Action.swift"],
            idioms: [.unsafeCast],
            invariant: """
                The rare executions subject is always a PublishSubject<Observable<Element>>: \
                executionObservables is the only code that stores it.
                """,
            checkedBy: ["ActionTests", "ActionRareSubjectsTests"]),
        Home(
            files: ["ViewModelKit/Internals/PortLayout.swift", "ViewModelKit/Internals/HeldInputFacts.swift"],
            idioms: [.unsafeCast, .unmanaged],
            invariant: """
                An input's facts are always an InputFacts of its value type (its init and attach keep \
                that class; the layout reads a port only at an offset it found holding that port), and \
                the retained reference is released exactly once, by the replacing assignment or deinit.
                """,
            checkedBy: ["PortLayoutTests", "PortWiringTests", "InputRouteTests", "MemoryTests"]),
        Home(
            files: ["ViewModelKit/Internals/HeldFanOut.swift"],
            idioms: [.unmanaged],
            invariant: """
                A state's fan-out is retained once when made and released by the state's deinit: it \
                lives exactly as long as the state, which every caller holds.
                """,
            checkedBy: ["FanOutTests", "JSONObserverTests", "MemoryTests"]),
        Home(
            files: ["vmd-fuzz/VMDFuzz.swift"],
            idioms: [.unsafeCast, .memoryReinterpretation, .nonisolatedUnsafe],
            invariant: """
                The libFuzzer driver's symbol has the C signature written beside it; the fuzzer calls \
                the target on one thread, which alone touches the target state.
                """,
            checkedBy: [".ci/fuzz"]),

        // MARK: Unmanaged outside the kit
        Home(
            files: ["ReactiveCore/Subjects/ObserverHub.swift", "VMTransport/Connections/Connection.swift", "Posix/PosixThread.swift"],
            idioms: [.unmanaged],
            invariant: """
                An entry reads its unretained hub only while not disposed, and the hub clears every entry it \
                still holds (deinit, terminal event) before it goes; the daemon a \
                connection holds unretained owns the connection and outlives it; a thread's body is \
                retained once and taken back once, by the new thread or, when pthread_create fails, \
                by the caller.
                """,
            checkedBy: ["SubjectLifetimeTests", "SubjectTests", "TransportRobustnessTests", "RealThreadTests"]),

        // MARK: reading and writing raw bytes
        Home(
            files: [
                "JSONCore/JSONByteWriter.swift", "JSONCore/JSONParser.swift", "JSONCore/ParseStack.swift",
                "JSONCore/JSONSerializer.swift", "JSONCore/JSONTextScratch.swift",
                "VMProtocol/Notifications/VMOutputNotification.swift", "VMProtocol/Methods/VMCreateMethod.swift",
                "VMServer/ConnectionHandler.swift",
                "VMServer/Delivery/Outbox.swift", "VMTransport/Connections/Connection.swift",
                "JSONRPC/JSONRPCEncoder.swift", "JSONRPC/LineFramer.swift",
                "VMServer/Inbound/RequestFrame.swift", "VMServer/Inbound/SendFrame.swift", "VMServer/Inbound/SendRoute.swift",
            ],
            idioms: [.memoryReinterpretation],
            invariant: """
                Byte loads and stores stay inside the buffer being parsed or written: every index is \
                checked against the buffer's count (word loads only where 8 or 16 bytes remain), and \
                the memory is bound to UInt8 (or the stack's element) by the buffer that owns it. \
                Stack chunks (`withUnsafeTemporaryAllocation`) never leave the closure that made them: \
                the parse stacks move to memory of their own before they outgrow theirs, and the \
                serializer makes room for a write's longest form (flushing the chunk) before it writes, \
                also when its chunk is handed to a `JSONTextWriter`, which is noncopyable, made only \
                inside that closure and lent to its body `inout`, so it cannot outlive the chunk; \
                a message built in a stack buffer is given the writer's own bound \
                (`maximumByteCount`, `maximumSuccessByteCount`), and only the bytes written are read back. \
                The `vm.create` reply written into the transport's buffer \
                (`VMCreateMethod.Result.writePlainText(to:)`) writes exactly the pieces \
                `plainTextByteCount` counts (each string's UTF-8 length, taken only when \
                `JSONByteWriter.writesVerbatim` passes every byte, so nothing is escaped), the count \
                the buffer is sized by (`maximumSuccessByteCount(resultByteCount:)`, checked before \
                writing) and the bytes written are compared with after (`JSONRPCEncoder.writeSuccess`).
                """,
            checkedBy: [
                "ParserConformanceTests", "ParserErrorTests", "ChunkedTextTests", "JSONTextWriterTests", "EncoderTests", "OutputNotificationBytesTests",
                "OutboundQueueTests", "FramerTests", "LineScanTests",
                "RequestFrameTests", "SendFastPathTests", "SendRouteCacheTests", "InstanceCallFrameTests", ".ci/fuzz", ".ci/sanitized",
            ]),
        Home(
            files: ["ViewModelKit/Internals/PortLayout.swift", "ViewModelKit/Internals/PortFactsSharing.swift"],
            idioms: [.memoryReinterpretation],
            invariant: """
                A Ports value's bytes are read only at offsets where a probe of the same type showed a \
                port's reference, word-sized and word-aligned; a type whose probe does not match falls \
                back to reflection. The offer cursor points to a Cursor made by the code that offers it.
                """,
            checkedBy: ["PortLayoutTests", "PortWiringTests"]),
        Home(
            files: [
                "Posix/EventLoopEpoll.swift", "Posix/EventLoopHandle.swift",
                "vmd-bench/CPUPlacement.swift", "vmd-bench/FanOutBenchmarks.swift", "vmd-fuzz/CorpusReplay.swift",
            ],
            idioms: [.memoryReinterpretation],
            invariant: """
                The bytes of a fixed-size integer or a C struct field are handed to read(2)/write(2) of \
                exactly that size, or copied out of a NUL-terminated `d_name`.
                """,
            checkedBy: ["EventLoopTests", "FuzzCorpusTests"]),

        // MARK: sendability the compiler cannot see
        Home(
            files: [
                "ReactiveCore/Schedulers/GraphConfined.swift", "VMTransport/Loop/LoopConfined.swift",
                "ReactiveTesting/TestScheduler.swift",
            ],
            idioms: [.uncheckedSendable],
            invariant: """
                The wrapped value is used only on its graph's (loop's, test's) thread; other threads \
                merely retain and release the box, which is atomic (LoopConfined asserts it in debug).
                """,
            checkedBy: ["ThreadingTests", "LoopSchedulerTests", "VirtualTimeTests"]),
        Home(
            files: ["ViewModelKit/Internals/PortFacts.swift", "ViewModelKit/Internals/InputFacts.swift"],
            idioms: [.uncheckedSendable],
            invariant: "Every stored property is a `let` of a Sendable type; unchecked only because the class is not final.",
            checkedBy: ["PortWiringTests"]),
        Home(
            files: ["vmd-bench/DaemonBenchmarks.swift", "vmd-bench/FanOutBenchmarks.swift"],
            idioms: [.uncheckedSendable],
            invariant: """
                Hands one client to the one reader thread that is then its only user (benchmark code: \
                exercised when vmd-bench runs, as .ci/run's soak does, not by a test).
                """,
            checkedBy: [".ci/run"]),
        Home(
            files: ["ReactiveCore/Disposables/Disposables.swift"],
            idioms: [.nonisolatedUnsafe],
            invariant: "The shared no-op disposable has no stored property; only its reference count, which is atomic, is shared.",
            checkedBy: ["DisposalTests"]),

        // MARK: C
        Home(
            files: ["CViewModelKit/include/CViewModelKit.h"],
            idioms: [.cThreadLocal],
            invariant: """
                The offer is set, and the outer one restored, around one Ports() call on the same thread, \
                so a reader sees its own thread's offer or none. The variable is `static` in the header, \
                one copy per object file: every access stays in PortFactsSharing.swift, whose two \
                functions are @inline(never) so no other file's (always empty) copy is read.
                """,
            checkedBy: ["PortWiringTests", "ThreadingTests"]),
    ]
}
