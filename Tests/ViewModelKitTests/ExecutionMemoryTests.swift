import JSONCore
import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing
import ViewModelKit

/// A result that is a class, so a test can see whether anything still holds it.
final class LoadedPage: JSONConvertible, Sendable {
    let text: String

    init(text: String) {
        self.text = text
    }

    init(json: JSONValue) throws(JSONDecodingError) {
        text = try JSONObjectDecoder(json).decode("text")
    }

    var jsonValue: JSONValue { ["text": .string(text)] }

    static var jsonSchema: JSONValue {
        JSONSchemaBuilder.object(["text": ["type": "string"]], required: ["text"])
    }
}

/// The pages a test's loads created, watched through weak references.
final class PageWatch: Sendable {
    private let pages = Mutex<[WeakPage]>([])

    func watch(_ page: LoadedPage) { pages.withLock { $0.append(WeakPage(page)) } }

    var created: Int { pages.withLock { $0.count } }
    var alive: Int { pages.withLock { $0.filter { $0.page != nil }.count } }

    /// One weak reference, only touched under the lock.
    private struct WeakPage {
        weak var page: LoadedPage?
        init(_ page: LoadedPage) { self.page = page }
    }
}

/// An instance whose async action loads a page, as SendHistory's reload reads its store.
struct Pager: ViewModel {
    typealias Services = PageWatch
    static let summary = "Loads pages."

    struct Ports: ViewModelPorts {
        let load = ActionPort<Void, LoadedPage>("Load a page.")
    }

    init(ports: Ports, context: Context) {
        let watch = context.services
        let load = context.action { (_: Void) in
            let page = LoadedPage(text: String(repeating: "x", count: 4096))
            watch.watch(page)
            return page
        }
        ports.load.bind(load)
    }
}

@Suite("A live instance's finished async executions are freed")
struct ExecutionMemoryTests {
    @Test("after 50 loads through the host, as vmd runs them, no loaded page is alive while the instance lives on")
    func finishedLoadsAreFreed() async throws {
        let watch = PageWatch()
        var registry = ViewModelRegistry()
        try registry.register(Pager.self, services: watch)
        let scheduler = TestScheduler()
        let host = ViewModelHost(registry: registry, scheduler: scheduler)
        let pager = try host.create(type: "Pager")
        var answers = 0
        for _ in 0..<50 {
            _ = try pager.execute(action: "load") { result in
                if case .success = result { answers += 1 }
            }
            #expect(await scheduler.waitForEnqueued(count: 1))
            scheduler.drainEnqueued()
        }
        #expect(answers == 50)
        #expect(watch.created == 50)
        // The last load's Task lets go of its page when its own frame ends, which may be just
        // after it handed the page to the scheduler: wait for that, with a deadline.
        let deadline = ContinuousClock.now + .seconds(5)
        while watch.alive > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(watch.alive == 0)
        #expect(host.instances.count == 1)
    }
}
