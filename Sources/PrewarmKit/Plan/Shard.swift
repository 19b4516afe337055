import PrewarmCore

/// `--shard K/N`: this process takes the URLs whose cache key hashes to K (mod N). The hash is the
/// first 8 bytes of the key's SHA-256 — the same digest that names the cache file — so every
/// machine agrees on the split without talking to the others.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        precondition(count > 0 && (0..<count).contains(index), "shard index out of range")
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 0 ≤ K < N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0,
            (0..<count).contains(index)
        else { return nil }
        self.init(index: index, count: count)
    }

    /// The shard index for `--shards N` alone, read from the environment of array-job runners:
    /// Kubernetes Indexed Jobs, Slurm arrays, AWS Batch arrays (checked in that order).
    public static let indexVariables = [
        "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX",
    ]

    public var description: String { "\(index)/\(count)" }

    /// Whether the URL whose cache key hashes to `keyDigest` belongs to this shard.
    public func contains(keyDigest: [UInt8]) -> Bool {
        var value: UInt64 = 0
        for byte in keyDigest.prefix(8) { value = value << 8 | UInt64(byte) }
        return Int(value % UInt64(count)) == index
    }

    /// Whether the URL with this cache key belongs to this shard.
    public func contains(key: String) -> Bool {
        var hasher = SHA256()
        hasher.update(key.utf8)
        return contains(keyDigest: hasher.finalize())
    }
}
