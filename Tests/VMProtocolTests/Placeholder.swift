// VMProtocolTests: placeholder until the layer lands.
