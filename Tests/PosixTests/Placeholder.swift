// PosixSocketTests: placeholder until the layer lands.
