// VMTestSupport: placeholder until the layer lands.
