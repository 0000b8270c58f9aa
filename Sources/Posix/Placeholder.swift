// PosixSocket: placeholder until the layer lands.
