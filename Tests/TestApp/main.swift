import ViewModelDaemon

// A daemon built on vmd under another name, serving one type (Tests/IntegrationTests/ViewModelDaemonTests.swift).
ViewModelDaemon.main(name: "greeterd", summary: "Serves greetings.", version: "2.3.4") { types, _ in
    try types.register(Greeter.self)
}
