// ViewModelKitTests: placeholder until the layer lands.
