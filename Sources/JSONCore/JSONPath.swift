/// A location inside a JSON document, written the way people read it: `$.value.step`,
/// `$.items[2]`, `$["odd key"]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: an object member or an array element.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// Steps from the root, outermost first.
    public var components: [Component]

    /// The document root, `$`.
    public static let root = JSONPath()

    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// This path extended by one member.
    public func appending(key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    /// This path extended by one element.
    public func appending(index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// This path with `outer` put in front (an error bubbling up through a container).
    public func prefixed(by outer: Component) -> JSONPath { JSONPath([outer] + components) }

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where JSONPath.isPlainIdentifier(key):
                text += "." + key
            case .key(let key):
                text += "[" + JSONValue.string(key).encodedString() + "]"
            }
        }
        return text
    }

    /// Keys that read unambiguously after a dot: ASCII letters, digits, `_`, `$`, `-`, not starting with a digit.
    static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }
}
