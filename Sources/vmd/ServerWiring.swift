import VMDaemon
import VMServer

/// Builds the server vmd serves, with the catalog of view-model types.
enum ServerWiring {
    static func makeHandler(settings: VMDSettings, context: DaemonContext) throws -> any ConnectionHandler {
        // VMServer's Server and the catalog are not merged into this branch yet; vmd refuses to
        // run rather than serve something that is not the protocol.
        throw ServerNotLinked()
    }
}

struct ServerNotLinked: Error, CustomStringConvertible {
    var description: String { "this vmd was built without VMServer's Server (not merged yet)" }
}
