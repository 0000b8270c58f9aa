// JSONRPC: placeholder until the layer lands.
