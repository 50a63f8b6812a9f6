extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes a complete recording: its values and its completion.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the values and the completion.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the values and the completion into `encoder`: Combine's spelling of
    /// `encode(to:)`, with the same result.
    ///
    /// ```swift
    /// let recording = Record<Int, Never>.Recording(output: [1, 2])
    /// let data = try JSONEncoder().encode(recording)   // same keys as encode(into:)
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes a record from its recording, as Combine's `Record` is `Codable`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the record's recording.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
