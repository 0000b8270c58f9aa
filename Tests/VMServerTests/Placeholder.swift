// VMServerTests: placeholder until the layer lands.
