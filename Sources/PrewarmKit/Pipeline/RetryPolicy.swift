import PrewarmCore

/// When to try a URL again, and how long to wait first (SPEC: `retries` extra attempts for
/// transient failures; `backoff` doubled each time, jittered; Retry-After wins).
struct RetryPolicy: Sendable {
    var retries: Int
    var backoff: Double
    /// A Retry-After longer than this is cut down to it: an origin asking for an hour must not
    /// stall a warm-up run for an hour. Documented in the README.
    var maxRetryAfter: Double = 120

    /// Whether attempt number `attempt` (1-based) that failed for `reason` gets another try.
    func shouldRetry(after attempt: Int, reason: FailureReason) -> Bool {
        !reason.isPermanent && attempt <= retries
    }

    /// Seconds to wait before the attempt after `attempt`. `jitter` in 0...1 spreads retries of
    /// many URLs apart (±25%) so they don't hit a recovering origin at the same instant.
    func delay(after attempt: Int, retryAfter: Double?, jitter: Double) -> Double {
        if let retryAfter, retryAfter >= 0 { return min(retryAfter, maxRetryAfter) }
        let base = backoff * Double(1 << min(max(attempt - 1, 0), 20))
        return base * (0.75 + 0.5 * jitter)
    }
}
