// VMClient: placeholder until the layer lands.
