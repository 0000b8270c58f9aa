import ViewModelKit

/// Where the last plain `vm.send` went: its instance and input, keyed by the raw bytes of
/// their names in the frame, so a stream of sends to one input skips both lookups by name
/// and never makes a `String` of either name.
///
/// Valid while the instance lives: the server forgets it when the host reports it closed
/// (`Server.instanceClosed`, Server+Instances.swift), which happens as the host removes it from
/// its table (`ViewModelHost.tearDown`) and before another instance can take its id.
struct SendRoute {
    /// Whether the fast path runs at all (tests turn it off to compare with the general path).
    var isEnabled = true
    private var instanceName: [UInt8] = []
    private var inputName: [UInt8] = []
    private var instance: ViewModelInstance?
    private var input: InputRoute?
    /// Whether the cached input reads values from their bytes (``ViewModelInstance/readsBytes(_:)``).
    private var inputReadsBytes = false

    /// Whether the next frame's object or array value should be delimited for the input's
    /// reader rather than parsed at once: yes unless the cached input has none (a stream of
    /// sends to one input then skips the delimiting; a send elsewhere is right either way).
    var delimitsContainers: Bool { input == nil || inputReadsBytes }

    /// The cached instance and input when `instance` and `input` name them.
    @inline(__always)
    func lookup(instance name: UnsafeBufferPointer<UInt8>, input inputBytes: UnsafeBufferPointer<UInt8>)
        -> (ViewModelInstance, InputRoute)?
    {
        guard let instance, let input,
              Self.equal(instanceName, name), Self.equal(inputName, inputBytes)
        else { return nil }
        return (instance, input)
    }

    /// Remembers the route of `instance` and `input` (the only one kept).
    mutating func store(instance: ViewModelInstance, input: InputRoute,
                        instanceName name: UnsafeBufferPointer<UInt8>, inputName inputBytes: UnsafeBufferPointer<UInt8>) {
        self.instance = instance
        self.input = input
        inputReadsBytes = instance.readsBytes(input)
        instanceName = Array(name)
        inputName = Array(inputBytes)
    }

    /// Drops the route if it leads to `closed` (the host closed that instance).
    mutating func forget(_ closed: ViewModelInstance) {
        guard instance === closed else { return }
        instance = nil
        input = nil
        instanceName = []
        inputName = []
    }

    /// Eight bytes per step, then the last few one by one.
    @inline(__always)
    private static func equal(_ cached: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard cached.count == bytes.count else { return false }
        return cached.withUnsafeBytes { stored in
            guard let left = stored.baseAddress, let right = bytes.baseAddress.map(UnsafeRawPointer.init) else { return true }
            let count = stored.count
            var index = 0
            while count - index >= 8 {
                guard left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
                index += 8
            }
            while index < count {
                guard left.load(fromByteOffset: index, as: UInt8.self) == right.load(fromByteOffset: index, as: UInt8.self) else { return false }
                index += 1
            }
            return true
        }
    }
}
