import Foundation
import JSONCore
import Testing
import VMProtocol

/// `VMDVersion.current` owns vmd's release number. The Python and Node clients ship as
/// packages whose metadata must spell a version literally; these tests keep each literal
/// equal to the owner, so a release changes VMDVersion.swift and whatever fails here.
@Suite("Client package versions")
struct ClientVersionTests {
    static let clients = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("clients")

    @Test("the Python client's __version__ is VMDVersion.current, and pyproject.toml takes it from there")
    func pythonClientVersion() throws {
        let module = try String(contentsOf: Self.clients.appendingPathComponent("python/vmd_client/__init__.py"), encoding: .utf8)
        let assignments = module.split(separator: "\n").filter { $0.hasPrefix("__version__ = ") }
        #expect(assignments == ["__version__ = \"\(VMDVersion.current)\""])

        let project = try String(contentsOf: Self.clients.appendingPathComponent("python/pyproject.toml"), encoding: .utf8)
        let lines = project.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("dynamic = [\"version\"]"), "pyproject.toml should read the version, not write it")
        #expect(lines.contains("version = { attr = \"vmd_client.__version__\" }"))
        #expect(!lines.contains { $0.hasPrefix("version = \"") }, "pyproject.toml writes a version literal of its own")
    }

    @Test("the Node client's package.json version is VMDVersion.current")
    func nodeClientVersion() throws {
        let text = try String(contentsOf: Self.clients.appendingPathComponent("node/package.json"), encoding: .utf8)
        let package = try JSONValue(parsing: text)
        #expect(package["version"]?.stringValue == VMDVersion.current)
    }
}
