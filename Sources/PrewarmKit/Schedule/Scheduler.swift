import PrewarmCore
import PrewarmManifest

/// One URL handed out by the scheduler: which job and group it belongs to, and its cache key.
struct WorkItem: Sendable {
    var job: Int
    var group: Int
    var url: String
    var key: String
}

/// Where a group's URLs come from, as the scheduler sees it.
struct ScheduledGroup {
    var job: Int
    var group: Int
    var priority: Priority
    var order: Order
    /// The group's own bound inside its job's; nil = only the job's bound.
    var limit: Int?
    var cursor: URLSourceCursor
}

/// Decides which URL starts next. One scheduler serves the whole run, however many manifests.
///
/// - Five priority buckets; work always starts from the highest bucket that has a URL whose job
///   and group have a free slot (work-conserving: a group blocked by its own bound does not stop
///   lower groups from using the job's other slots).
/// - Inside a bucket, groups are taken in manifest order; each group yields its URLs in its
///   `order` (fifo streams the source; lifo must read the group whole once, then pops from the end).
/// - Bounds: the run's (`--concurrency`), each job's (`defaults.concurrency`), each group's.
///
/// Not thread-safe: one driving task owns it (see `RunCoordinator`).
final class Scheduler {
    private var groups: [GroupState]
    private var jobInFlight: [Int]
    private let jobLimits: [Int]
    private let runLimit: Int?
    private var runInFlight = 0
    /// Group indices ordered by priority (highest first), then manifest order.
    private let pickOrder: [Int]
    private let keyForURL: (Int, String) -> String
    private let shard: Shard?

    /// A URL with its cache key, computed once (the shard filter needs it too).
    private struct Pulled {
        var url: String
        var key: String
    }

    private struct GroupState {
        var spec: ScheduledGroup
        var inFlight = 0
        var exhausted = false
        /// Only for lifo groups: the whole group, popped from the end.
        var stack: [Pulled]? = nil
        /// One URL read ahead from the cursor (fifo), so `next()` can check capacity first.
        var lookahead: Pulled? = nil
    }

    /// - Parameters:
    ///   - keyForURL: the cache key of a URL in a job (the job's key filter).
    ///   - shard: when set, URLs of other shards are skipped as if absent.
    init(
        groups: [ScheduledGroup], jobLimits: [Int], runLimit: Int?, shard: Shard? = nil,
        keyForURL: @escaping (Int, String) -> String
    ) {
        self.groups = groups.map { GroupState(spec: $0) }
        self.jobLimits = jobLimits
        self.jobInFlight = Array(repeating: 0, count: jobLimits.count)
        self.runLimit = runLimit
        self.shard = shard
        self.keyForURL = keyForURL
        self.pickOrder = groups.indices.sorted { lhs, rhs in
            if groups[lhs].priority != groups[rhs].priority {
                return groups[lhs].priority > groups[rhs].priority
            }
            return lhs < rhs
        }
    }

    /// The next URL that may start now, already counted as in flight; nil when every bound is
    /// full or no URL is left (see `isExhausted`).
    func next() -> WorkItem? {
        if let runLimit, runInFlight >= runLimit { return nil }
        for index in pickOrder {
            let job = groups[index].spec.job
            guard jobInFlight[job] < jobLimits[job] else { continue }
            if let limit = groups[index].spec.limit, groups[index].inFlight >= limit { continue }
            guard let item = take(from: index) else { continue }
            groups[index].inFlight += 1
            jobInFlight[job] += 1
            runInFlight += 1
            return item
        }
        return nil
    }

    /// Releases the slots of a URL that ended.
    func finished(_ item: WorkItem) {
        guard let index = groups.firstIndex(where: { $0.spec.job == item.job && $0.spec.group == item.group })
        else { return }
        groups[index].inFlight -= 1
        jobInFlight[item.job] -= 1
        runInFlight -= 1
    }

    /// True when every group has handed out its last URL.
    var isExhausted: Bool {
        for index in groups.indices where !groups[index].exhausted {
            if peek(index) { return false }
        }
        return true
    }

    /// Number of URLs in flight right now.
    var inFlight: Int { runInFlight }

    /// Hands every URL not yet started to `body` (used when a run is interrupted: each of them
    /// still ends in exactly one outcome, `cancelled`).
    func drainRemaining(_ body: (WorkItem) -> Void) {
        for index in pickOrder {
            while let item = take(from: index) { body(item) }
        }
    }

    // MARK: - Reading the groups' sources

    private func peek(_ index: Int) -> Bool {
        if groups[index].spec.order == .lifo {
            loadStackIfNeeded(index)
            return !(groups[index].stack?.isEmpty ?? true)
        }
        if groups[index].lookahead == nil { groups[index].lookahead = pull(index) }
        return groups[index].lookahead != nil
    }

    private func take(from index: Int) -> WorkItem? {
        guard !groups[index].exhausted else { return nil }
        let pulled: Pulled?
        if groups[index].spec.order == .lifo {
            loadStackIfNeeded(index)
            pulled = groups[index].stack?.popLast()
        } else if let ahead = groups[index].lookahead {
            groups[index].lookahead = nil
            pulled = ahead
        } else {
            pulled = pull(index)
        }
        guard let pulled else {
            groups[index].exhausted = true
            return nil
        }
        let spec = groups[index].spec
        return WorkItem(job: spec.job, group: spec.group, url: pulled.url, key: pulled.key)
    }

    /// The next URL of this shard from the group's cursor, with its cache key.
    private func pull(_ index: Int) -> Pulled? {
        let job = groups[index].spec.job
        while let url = groups[index].spec.cursor.next() {
            let key = keyForURL(job, url)
            if shard?.contains(key: key) ?? true { return Pulled(url: url, key: key) }
        }
        return nil
    }

    private func loadStackIfNeeded(_ index: Int) {
        guard groups[index].stack == nil else { return }
        var all: [Pulled] = []
        while let pulled = pull(index) { all.append(pulled) }
        groups[index].stack = all
    }
}
