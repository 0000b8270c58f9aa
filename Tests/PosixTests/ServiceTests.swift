import Posix
import VMTestSupport
import Testing

@Suite("Service manager plumbing")
struct ServiceTests {
    @Test("socket activation applies only when LISTEN_PID is this process")
    func activationParsing() {
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "1"], pid: 42) == [3])
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "2"], pid: 42) == [3, 4])
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "41", "LISTEN_FDS": "1"], pid: 42) == [])
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "0"], pid: 42) == [])
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42"], pid: 42) == [])
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "x", "LISTEN_FDS": "1"], pid: 42) == [])
        #expect(SocketActivation.descriptors(environment: [:], pid: 42) == [])
        #expect(SocketActivation.names(environment: ["LISTEN_FDNAMES": "vmd.socket:other"]) == ["vmd.socket", "other"])
    }

    @Test("taking descriptors meant for another process adopts none and unsets the variables")
    func activationForAnotherProcess() throws {
        CurrentProcess.setEnvironmentValue("LISTEN_PID", String(CurrentProcess.pid &+ 1))
        CurrentProcess.setEnvironmentValue("LISTEN_FDS", "1")
        #expect(try SocketActivation.takeListener() == nil)
        #expect(CurrentProcess.environmentValue("LISTEN_PID") == nil)
        #expect(CurrentProcess.environmentValue("LISTEN_FDS") == nil)
    }

    @Test("the notifier sends READY, STATUS and STOPPING datagrams to a real listener")
    func notifierDatagrams() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["notify"]) }
        let receiver = try UnixDatagramSocket.bind(to: try UnixSocketAddress(path: directory.file("notify")))
        defer { try? receiver.close() }
        let notifier = try #require(try ServiceNotifier(environment: ["NOTIFY_SOCKET": directory.file("notify")]))
        try notifier.ready(status: "listening on /x.sock")
        try notifier.status("3 connections")
        try notifier.stopping()
        #expect(try receiver.receive(timeout: .seconds(5)) == [UInt8]("READY=1\nSTATUS=listening on /x.sock"))
        #expect(try receiver.receive(timeout: .seconds(5)) == [UInt8]("STATUS=3 connections"))
        #expect(try receiver.receive(timeout: .seconds(5)) == [UInt8]("STOPPING=1"))
    }

    @Test("the notifier reaches an abstract NOTIFY_SOCKET written @name")
    func notifierAbstract() throws {
        let name = "@vmdt-notify-\(CurrentProcess.pid)"
        let receiver = try UnixDatagramSocket.bind(to: try UnixSocketAddress(path: name))
        defer { try? receiver.close() }
        let notifier = try #require(try ServiceNotifier(environment: ["NOTIFY_SOCKET": name]))
        try notifier.ready()
        #expect(try receiver.receive(timeout: .seconds(5)) == [UInt8]("READY=1"))
    }

    @Test("without NOTIFY_SOCKET there is no notifier")
    func noNotifier() throws {
        #expect(try ServiceNotifier(environment: [:]) == nil)
        #expect(try ServiceNotifier(environment: ["NOTIFY_SOCKET": ""]) == nil)
    }

    @Test("the open-file limit is raised to the hard limit")
    func openFileLimit() throws {
        let limits = try ResourceLimits.raiseOpenFileLimit()
        #expect(limits.soft == limits.hard)
        #expect(limits.soft > 0)
    }
}
