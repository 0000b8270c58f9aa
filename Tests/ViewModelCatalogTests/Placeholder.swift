// ViewModelCatalogTests: placeholder until the layer lands.
