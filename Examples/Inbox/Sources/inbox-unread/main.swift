import InboxKit
import VMClient
import ViewModelClient

// A Swift client that links InboxKit: the `Inbox.Ports` its tests drive on the harness and
// inboxd serves, driven here through the daemon (run inboxd first; the socket: VMD_SOCKET).
let client = try await VMClient.connect()
let inbox = try await client.create(Inbox.self, scope: .connection)
let unread = try await inbox.values(\.unreadCount)
let fetched = try await inbox.execute(\.sync)             // [Message], decoded by its codec
try await inbox.send(\.markAllRead)
var counts: [Int] = []
for try await count in unread {
    counts.append(count)
    if counts.count == 4 { break }
}
print(fetched.count, counts)
client.close()
