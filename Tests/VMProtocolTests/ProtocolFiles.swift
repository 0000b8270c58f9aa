import Foundation

/// Reads the files under `Protocol/` for tests, located from this source file's path
/// so the tests work from any working directory.
enum ProtocolFiles {
    /// `<repo>/Protocol`, two directories above `Tests/VMProtocolTests/`.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Protocol")

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(relativePath)
        return [UInt8](try Data(contentsOf: url))
    }

    /// `Protocol/openrpc.json` parsed with Foundation (tests only; the product never uses it).
    static func document() throws -> [String: Any] {
        let data = Data(try bytes("openrpc.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ProtocolFileError.notAnObject("openrpc.json")
        }
        return object
    }
}

enum ProtocolFileError: Error {
    case notAnObject(String)
}

/// Walks a JSON tree as Foundation returns it.
enum JSONTree {
    /// Every string value of a `$ref` member anywhere below `node`, with the path where it sits.
    static func references(in node: Any, at path: String = "") -> [(path: String, target: String)] {
        var found: [(path: String, target: String)] = []
        if let object = node as? [String: Any] {
            for (key, value) in object {
                if key == "$ref", let target = value as? String {
                    found.append((path, target))
                } else {
                    found += references(in: value, at: path + "/" + key)
                }
            }
        } else if let array = node as? [Any] {
            for (index, value) in array.enumerated() {
                found += references(in: value, at: path + "/\(index)")
            }
        }
        return found
    }

    /// Resolves a local JSON Pointer reference such as `#/components/schemas/InstanceId`;
    /// nil when any step is missing.
    static func resolve(_ reference: String, in root: Any) -> Any? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = reference.dropFirst()
        if pointer.isEmpty { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var node: Any = root
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = rawToken
                .replacingOccurrences(of: "~1", with: "/")
                .replacingOccurrences(of: "~0", with: "~")
            if let object = node as? [String: Any], let next = object[token] {
                node = next
            } else if let array = node as? [Any], let index = Int(token), array.indices.contains(index) {
                node = array[index]
            } else {
                return nil
            }
        }
        return node
    }
}
