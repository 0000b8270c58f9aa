import JSONCore

extension VMClient {
    /// Runs `action` with `value` until an answer comes, across lost connections and daemon
    /// restarts: for actions whose value carries an idempotency key, such as the catalog's
    /// SendList `send` with `{"key": K}` (a retry with a stored key answers with the first
    /// outcome and stores nothing again).
    ///
    /// ```swift
    /// let key = UUID().uuidString   // one key per message, kept until answered
    /// let result = try await client.executeRetrying(action: "send", value: ["key": .string(key)]) { client in
    ///     let list = try await client.create(type: "SendList").instance
    ///     try await client.send(instance: list, input: "addRecipient", value: "ada@example.com")
    ///     try await client.send(instance: list, input: "message", value: "Hello")
    ///     return list
    /// }
    /// ```
    ///
    /// Each attempt runs `prepare` (which makes the instance ready and returns its id: a
    /// restarted daemon has lost every instance, so it is made again each time), then
    /// `vm.execute`. When no answer came (the connection was lost, or the daemon could not be
    /// reached: ``VMClientError/isUnreachable``), it waits up to `reconnectTimeout` for the
    /// client to reconnect (the client needs a ``VMReconnectPolicy`` for that) and tries again
    /// with the same `value`, at most `attempts` times in all. An `unknownInstance` answer is
    /// retried too (the instance went away between `prepare` and the call, for example in a
    /// daemon restarted meanwhile: the action did not run). Any other answer, success or
    /// error, ends it: the daemon's errors are thrown as they are.
    public func executeRetrying(
        action: String, value: JSONValue, attempts: Int = 5, reconnectTimeout: Duration = .seconds(10),
        prepare: (VMClient) async throws -> String
    ) async throws -> JSONValue {
        var attempt = 0
        while true {
            attempt += 1
            do {
                let instance = try await prepare(self)
                return try await execute(instance: instance, action: action, value: value)
            } catch let error as VMClientError where attempt < attempts
                && (error.isUnreachable || error.remote?.name == "unknownInstance")
            {
                guard await waitUntilConnected(timeout: reconnectTimeout) else { throw error }
            }
        }
    }

    /// Waits (polling, bounded) until the connection is open again; `false` at the timeout.
    private func waitUntilConnected(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !isConnected {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
