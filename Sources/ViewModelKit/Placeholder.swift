// ViewModelKit: placeholder until the layer lands.
