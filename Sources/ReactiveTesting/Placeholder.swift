// ReactiveTesting: placeholder until the layer lands.
