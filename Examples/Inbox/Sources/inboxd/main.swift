import InboxKit
import ViewModelDaemon

ViewModelDaemon.main(name: "inboxd", summary: "Serves the inbox view models.") { types, _ in
    try types.register(Inbox.self, services: DemoMailService())
    try types.register(MessageRow.self)
}
