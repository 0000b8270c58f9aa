// JSONCoreTests: placeholder until the layer lands.
