// CommandLineKit: placeholder until the layer lands.
