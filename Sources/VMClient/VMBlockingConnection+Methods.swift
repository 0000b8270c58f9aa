import JSONCore
import VMProtocol

extension VMBlockingConnection {
    /// Calls `method` (a VMProtocol method type, so its name is never spelled by hand) with
    /// `params`, usually its `Params(...).jsonValue`; see ``call(_:_:timeout:)-(String,_,_)``.
    @discardableResult
    public func call(_ method: any VMMethod.Type, _ params: JSONValue? = nil, timeout: Duration? = nil) throws(VMClientError) -> JSONValue {
        try call(method.name, params, timeout: timeout)
    }
}
