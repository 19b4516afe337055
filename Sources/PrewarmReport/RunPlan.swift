import Foundation
import PrewarmCore

/// What a run is about to do: the jobs, their groups and how many URLs each holds. `RunRecorder`
/// starts from it so `urls` counts are known before the first URL ends (progress needs a total).
public struct RunPlan: Sendable, Hashable {
    /// The jobs of this run, in manifest order.
    public var jobs: [JobPlan]
    /// This process's shard, or nil when the run is not sharded.
    public var shard: ShardInfo?
    /// When the run started; durations and per-group elapsed times are measured from here.
    public var startedAt: Date

    /// Creates a plan.
    public init(jobs: [JobPlan], shard: ShardInfo? = nil, startedAt: Date = Date()) {
        self.jobs = jobs
        self.shard = shard
        self.startedAt = startedAt
    }

    /// All URLs of the run, over every job and group.
    public var urlCount: Int { jobs.reduce(0) { $0 + $1.urlCount } }
}

/// One job of a run plan.
public struct JobPlan: Sendable, Hashable {
    /// The job name, as in reports and metrics.
    public var name: String
    /// The job's groups, in manifest order.
    public var groups: [GroupPlan]

    /// Creates a job plan.
    public init(name: String, groups: [GroupPlan]) {
        self.name = name
        self.groups = groups
    }

    /// All URLs of the job.
    public var urlCount: Int { groups.reduce(0) { $0 + $1.urlCount } }
}

/// One group of a job plan.
public struct GroupPlan: Sendable, Hashable {
    /// The group name, unique within its job.
    public var name: String
    /// The group's effective priority (after `high_priority`/`low_priority`).
    public var priority: Priority
    /// URLs this process will handle for the group (after the shard filter).
    public var urlCount: Int

    /// Creates a group plan.
    public init(name: String, priority: Priority, urlCount: Int) {
        self.name = name
        self.priority = priority
        self.urlCount = urlCount
    }
}

/// Which shard of a sharded run this is: `--shard K/N` is `index` K of `count` N.
public struct ShardInfo: Sendable, Hashable, Codable {
    /// K, with 0 ≤ K < N.
    public var index: Int
    /// N, the number of shards.
    public var count: Int

    /// Creates a shard description.
    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }
}
