/// An encoder that turns a whole value into one output (`JSONEncoder` makes `Data`), for `encode`.
public protocol TopLevelEncoder {
    /// What the encoder produces.
    associatedtype Output

    /// Encodes `value`.
    /// - Throws: The encoder's error when `value` cannot be encoded.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A decoder that reads a whole value from one input (`JSONDecoder` reads `Data`), for `decode`.
public protocol TopLevelDecoder {
    /// What the decoder reads.
    associatedtype Input

    /// Decodes a value of `type` from `from`.
    /// - Throws: The decoder's error when the input does not hold such a value.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
