import JSONCore
import Testing
import ViewModelKit

@Suite("Input routes")
struct InputRouteTests {
    @Test("a route sends as the input's name does, to any instance of its type")
    func routeSendsLikeName() throws {
        let (host, _) = try makeHost()
        let first = try host.create(type: "Counter", args: nil)
        let second = try host.create(type: "Counter", args: nil)
        let route = try first.inputRoute("increment")
        #expect(route.name == "increment")
        try first.send(route, value: 2)
        try first.send(route)  // omitted: the schema default, 1
        try second.send(route, value: 5)
        #expect(try first.currentValue(output: "count") == 3)
        #expect(try second.currentValue(output: "count") == 5)
    }

    @Test("a route fails as the name does: unknown input, invalid value, destroyed instance")
    func routeFailsLikeName() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter", args: nil)
        #expect(kitError { _ = try counter.inputRoute("nope") } == kitError { try counter.send(input: "nope") })
        #expect(kitError { _ = try counter.inputRoute("nope") } != nil)
        let route = try counter.inputRoute("increment")
        let byRoute = kitError { try counter.send(route, value: "x") }
        #expect(byRoute != nil)
        #expect(byRoute == kitError { try counter.send(input: "increment", value: "x") })
        try host.destroy(counter.id)
        #expect(kitError { try counter.send(route) } == .unknownInstance(instance: counter.id))
        #expect(kitError { _ = try counter.inputRoute("increment") } == .unknownInstance(instance: counter.id))
    }

    @Test("a route used on an instance of another type is looked up there by its name")
    func foreignRoute() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter", args: nil)
        let login = try host.create(type: "Login", args: nil)
        let route = try counter.inputRoute("increment")
        #expect(kitError { try login.send(route) } == kitError { try login.send(input: "increment") })
        #expect(kitError { try login.send(route) } != nil)
    }
}
