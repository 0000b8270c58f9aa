import Foundation
import InboxKit
import Testing
import ViewModelKit
import ViewModelTesting

/// Sessions inboxd recorded from the inbox's creation (`vmctl create Inbox --record`, then
/// `vmctl tape`; README, "Turn a session into a test"), replayed in-process by `TapePlayer`
/// with the services inboxd uses: a regression test made of a recording.
@Suite("Inbox: tapes recorded by inboxd replay in-process")
struct InboxTapeTests {
    /// The types and services inboxd registers (Sources/inboxd/main.swift).
    static func registry(mail: any MailService = DemoMailService()) throws -> ViewModelRegistry {
        var registry = ViewModelRegistry()
        try registry.register(Inbox.self, services: mail)
        try registry.register(MessageRow.self)
        return registry
    }

    static func tape(_ name: String) throws -> String {
        let tapes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Tapes")
        return try String(contentsOf: tapes.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("a sync, a message read and all marked read, recorded from creation, replay green")
    func recordedSession() async throws {
        let player = TapePlayer(registry: try Self.registry())
        await #expect(throws: Never.self) { try await player.replay(tape: try Self.tape("inbox.vmtape")) }
    }

    /// A mail server that lists one message fewer: the inbox's behaviour changed.
    private struct ShorterMail: MailService {
        func messages(in folder: String, limit: Int) async throws -> [Message] {
            Array(DemoMailService.inbox.dropFirst())
        }
    }

    @Test("with another mail server the replay fails at the sync, naming the step")
    func otherServer() async throws {
        let player = TapePlayer(registry: try Self.registry(mail: ShorterMail()))
        let tape = try Self.tape("inbox.vmtape")
        do {
            try await player.replay(tape: tape)
            Issue.record("the replay matched")
        } catch {
            #expect(error.description.contains("action sync had another outcome"), "\(error)")
        }
    }
}
