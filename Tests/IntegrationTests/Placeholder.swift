// IntegrationTests: placeholder until the layer lands.
