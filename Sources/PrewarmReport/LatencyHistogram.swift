import Foundation

/// A bounded-memory, mergeable latency histogram with log-spaced buckets.
///
/// Bucket 0 holds everything up to `minimumMilliseconds`; bucket `i > 0` holds
/// `(min·2^((i-1)/8), min·2^(i/8)]`, so every value is known to within 9 % whatever its size, and
/// the histogram never holds more than a few hundred counters however many URLs a run has. Two
/// histograms merge exactly by adding counters, which is how `report merge` recomputes the
/// percentiles of a sharded run as if it had been one process.
public struct LatencyHistogram: Sendable, Hashable, Codable {
    /// Buckets per doubling of latency.
    public static let bucketsPerOctave = 8
    /// The upper bound of bucket 0, in milliseconds (1 µs).
    public static let minimumMilliseconds = 0.001
    /// The last bucket: about 2^40 µs ≈ 12.7 days; anything slower lands in it.
    public static let maximumIndex = 40 * bucketsPerOctave

    /// Non-empty buckets: bucket index → count.
    public private(set) var counts: [Int: Int] = [:]
    /// Samples recorded.
    public private(set) var count: Int = 0
    /// The largest sample, exact (not bucketed).
    public private(set) var maximum: Double = 0

    /// An empty histogram.
    public init() {}

    /// The bucket a latency falls into.
    public static func bucketIndex(for milliseconds: Double) -> Int {
        guard milliseconds.isFinite, milliseconds > minimumMilliseconds else { return 0 }
        let octaves = log2(milliseconds / minimumMilliseconds)
        let index = Int((octaves * Double(bucketsPerOctave)).rounded(.up))
        return min(max(index, 1), maximumIndex)
    }

    /// The upper bound of a bucket, in milliseconds.
    public static func upperBound(ofBucket index: Int) -> Double {
        minimumMilliseconds * pow(2, Double(index) / Double(bucketsPerOctave))
    }

    /// Records one latency.
    public mutating func record(_ milliseconds: Double) {
        let value = milliseconds.isFinite ? max(milliseconds, 0) : 0
        counts[Self.bucketIndex(for: value), default: 0] += 1
        count += 1
        maximum = max(maximum, value)
    }

    /// Adds another histogram's samples to this one. Exact: the result is the histogram of all
    /// samples of both.
    public mutating func merge(_ other: LatencyHistogram) {
        for (index, n) in other.counts { counts[index, default: 0] += n }
        count += other.count
        maximum = max(maximum, other.maximum)
    }

    /// The `fraction` quantile (0.5 = median), as the upper bound of the bucket that holds it,
    /// never more than the exact maximum. 0 when the histogram is empty.
    public func percentile(_ fraction: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for index in counts.keys.sorted() {
            seen += counts[index] ?? 0
            if seen >= rank { return min(Self.upperBound(ofBucket: index), maximum) }
        }
        return maximum
    }

    // JSON: {"buckets_per_octave": 8, "min_ms": 0.001, "count": N, "max_ms": X,
    //        "buckets": [{"index": i, "le_ms": upper, "count": n}, ...]}
    // `le_ms` is for people and plotting; merging reads `index`, so it is exact.
    private enum CodingKeys: String, CodingKey {
        case bucketsPerOctave = "buckets_per_octave"
        case minimumMilliseconds = "min_ms"
        case count
        case maximum = "max_ms"
        case buckets
    }

    private struct Bucket: Codable {
        var index: Int
        var leMs: Double
        var count: Int
        enum CodingKeys: String, CodingKey {
            case index
            case leMs = "le_ms"
            case count
        }
    }

    /// Reads a histogram; refuses one written with another bucket layout, since its counters
    /// could not be merged exactly.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let perOctave = try c.decode(Int.self, forKey: .bucketsPerOctave)
        let minimum = try c.decode(Double.self, forKey: .minimumMilliseconds)
        guard perOctave == Self.bucketsPerOctave, minimum == Self.minimumMilliseconds else {
            throw DecodingError.dataCorruptedError(
                forKey: .bucketsPerOctave, in: c,
                debugDescription:
                    "histogram layout \(perOctave) buckets/octave from \(minimum) ms is not "
                    + "\(Self.bucketsPerOctave) from \(Self.minimumMilliseconds) ms")
        }
        maximum = try c.decode(Double.self, forKey: .maximum)
        for bucket in try c.decode([Bucket].self, forKey: .buckets) {
            guard (0...Self.maximumIndex).contains(bucket.index), bucket.count >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .buckets, in: c,
                    debugDescription: "bad histogram bucket \(bucket.index)")
            }
            counts[bucket.index, default: 0] += bucket.count
            count += bucket.count
        }
    }

    /// Writes the histogram, buckets in ascending order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.bucketsPerOctave, forKey: .bucketsPerOctave)
        try c.encode(Self.minimumMilliseconds, forKey: .minimumMilliseconds)
        try c.encode(count, forKey: .count)
        try c.encode(maximum, forKey: .maximum)
        let buckets = counts.keys.sorted().map {
            Bucket(
                index: $0, leMs: Self.roundedForDisplay(Self.upperBound(ofBucket: $0)),
                count: counts[$0] ?? 0)
        }
        try c.encode(buckets, forKey: .buckets)
    }

    /// Three decimals: enough for a microsecond, short in the JSON.
    static func roundedForDisplay(_ milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded() / 1000
    }
}
