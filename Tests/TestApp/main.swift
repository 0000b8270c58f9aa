import ViewModelDaemon

// A daemon built on vmd under another name, serving one type (Tests/IntegrationTests/ViewModelDaemonTests.swift).
ViewModelDaemon.main(name: "greeterd", summary: "Serves greetings.", version: "2.3.4") { types, setup in
    if let reason = setup.environment["GREETERD_REFUSE"] {
        throw RegistrationRefused(description: "\(reason) in \(setup.stateDirectory)")
    }
    try types.register(Greeter.self)
}
