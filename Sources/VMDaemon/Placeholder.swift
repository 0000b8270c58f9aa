// VMDaemon: placeholder until the layer lands.
public func vmdPlaceholder() {}
