/// Method and member names unique within one generated class: a name the class already uses
/// gets `_2`, `_3`… (two inputs `a-b` and `a_b` both escape to `a_b`).
struct MemberNames {
    private var taken: Set<String>

    init(reserved: Set<String> = []) { taken = reserved }

    mutating func allocate(_ wanted: String) -> String {
        var name = wanted
        var number = 2
        while taken.contains(name) {
            name = wanted + "_" + String(number)
            number += 1
        }
        taken.insert(name)
        return name
    }
}
