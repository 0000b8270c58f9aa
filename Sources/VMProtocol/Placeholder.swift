// VMProtocol: placeholder until the layer lands.
