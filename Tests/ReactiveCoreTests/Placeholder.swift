// ReactiveCoreTests: placeholder until the layer lands.
