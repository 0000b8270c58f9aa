// JSONCore: placeholder until the layer lands.
