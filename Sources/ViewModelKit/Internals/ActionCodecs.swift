/// The two codecs an ``ActionPort`` was declared with: what an execution takes and what it
/// gives. What a port of its own keeps of them (``PortFacts/declaredCodec``), for a linked
/// client (``DeclaredPorts``).
package struct ActionCodecs<Value, Element> {
    package let input: ValueCodec<Value>
    package let output: ValueCodec<Element>
}
