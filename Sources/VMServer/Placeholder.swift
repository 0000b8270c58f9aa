// VMServer: placeholder until the layer lands.
