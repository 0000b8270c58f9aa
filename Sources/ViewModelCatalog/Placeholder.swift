// ViewModelCatalog: placeholder until the layer lands.
