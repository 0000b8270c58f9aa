// ReactiveCore: placeholder until the layer lands.
