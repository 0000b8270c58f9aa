// JSONRPCTests: placeholder until the layer lands.
