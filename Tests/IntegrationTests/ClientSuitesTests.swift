import Foundation
import Posix
import Testing
import VMTestSupport

/// Runs the non-Swift test suites (Python client, shell recipes, Protocol/ conformance, Node
/// client) against the `vmd` this `swift test` just built, so one command tests everything.
///
/// Each suite is a real subprocess; its output is attached to the failure so a red run says why.
@Suite("Client and protocol suites against the built daemon", .serialized)
struct ClientSuitesTests {
    /// In the project's own virtual environment (clients/python/venv-run makes it from
    /// clients/python/requirements-test.txt when missing or stale), never the system's Python.
    @Test("the Python client, shell recipes and Protocol conformance pass under pytest")
    func pythonSuitesPass() async throws {
        try await requireTool(pythonEnvironment + ["python3"], probe: ["-c", "import pytest, jsonschema, referencing"],
                              hint: "clients/python/venv-run makes it with python3 -m venv: on Debian or Ubuntu, apt-get install python3 python3-venv")
        let run = try await runSuite(pythonEnvironment + ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                                          "clients/python", "clients/shell", "Protocol/tests"])
        #expect(run.status == 0, "pytest failed:\n\(run.output)")
        #expect(run.output.contains(" passed"), "pytest ran no test:\n\(run.output)")
    }

    @Test("the Node client passes under node --test")
    func nodeSuitePasses() async throws {
        try await requireTool(["node"], probe: ["--version"], hint: "install Node.js 18 or later")
        let run = try await runSuite(["node", "--test", "clients/node/test/"])
        #expect(run.status == 0, "node --test failed:\n\(run.output)")
        #expect(run.output.contains("# pass"), "node ran no test:\n\(run.output)")
        #expect(run.output.contains("# fail 0"), "node reported failures:\n\(run.output)")
    }
}

private struct SuiteRun {
    var status: Int32
    var output: String
}

/// The package root, found from this file's location (Tests/IntegrationTests/…).
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The command that runs what follows it in the tests' Python virtual environment.
private let pythonEnvironment = ["clients/python/venv-run"]

private func requireTool(_ tool: [String], probe: [String], hint: String) async throws {
    let run = try await runProcess(tool + probe, environment: ProcessInfo.processInfo.environment)
    try #require(run.status == 0, "\((tool + probe).joined(separator: " ")) failed; \(hint)\n\(run.output)")
}

private func runSuite(_ arguments: [String]) async throws -> SuiteRun {
    var environment = ProcessInfo.processInfo.environment
    environment["VMD_BIN"] = try BuiltProducts.executable("vmd")
    environment["VMCTL_BIN"] = try BuiltProducts.executable("vmctl")
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    environment.removeValue(forKey: "VMD_SOCKET")
    return try await runProcess(arguments, environment: environment)
}

/// Runs `arguments` in the package root and waits for it on a thread of its own: the wait
/// lasts as long as a whole suite runs (see ``onOwnThread(_:)``).
private func runProcess(_ arguments: [String], environment: [String: String]) async throws -> SuiteRun {
    try await onOwnThread { try runProcessBlocking(arguments, environment: environment) }
}

/// Spawns with Posix's `ChildProcess`, not Foundation's `Process`: the test runner's threads
/// block most signals, `Process` children inherit that mask, and then `kill`/`wait` on the
/// shell recipes' socat coprocesses hang. `ChildProcess` starts children with an empty mask
/// and default dispositions.
private func runProcessBlocking(_ arguments: [String], environment: [String: String]) throws -> SuiteRun {
    let outputPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("vmd-suite-\(UUID().uuidString).log").path
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let child = try ChildProcess.spawn(
        "/bin/sh", arguments: ["-c", "cd \"$0\" && exec \"$@\"", packageRoot.path] + arguments,
        environment: environment, standardInput: "/dev/null", outputPath: outputPath)
    let status: Int32
    switch try child.wait() {
    case .exited(let code): status = code
    case .signaled: status = -1
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return SuiteRun(status: status, output: output)
}
