/// The standard library's generic containers: the probe does not count them as types that
/// can recur (`[Node]` inside `Node` recurs at `Node`).
protocol StructuralCodable {}
extension Array: StructuralCodable {}
extension Dictionary: StructuralCodable {}
extension Optional: StructuralCodable {}
extension Set: StructuralCodable {}
