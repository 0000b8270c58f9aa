// CommandLineKitTests: placeholder until the layer lands.
