/// One request as the origin received it, for assertions in tests.
public struct RecordedRequest: Sendable {
    public var method: String
    /// The request-target exactly as sent (path + query).
    public var target: String
    /// Header fields with lowercased names; repeated fields are joined with ", ".
    public var headers: [String: String]

    public init(method: String, target: String, headers: [String: String]) {
        self.method = method
        self.target = target
        self.headers = headers
    }
}
