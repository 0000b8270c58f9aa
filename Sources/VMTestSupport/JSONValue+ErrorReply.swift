import JSONCore

extension JSONValue {
    /// `error.code` and `error.data.name` of a reply, for compact expectations.
    package var errorCodeAndName: (Int?, String?) {
        (self["error"]?["code"]?.intValue, self["error"]?["data"]?["name"]?.stringValue)
    }
}
