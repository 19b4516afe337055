import Foundation
import PrewarmCore
import Synchronization

/// Counts a run as its URLs end: totals per run, job and group, reasons, latency, failures.
///
/// Thread-safe: the pipeline calls `record(_:)` from any thread; progress renderers read
/// `progress()` from a timer; the CLI asks for `report(...)` at the end. Memory is bounded by the
/// number of groups and reasons, the histogram's few hundred counters and the capped failure
/// list, not by the number of URLs.
public final class RunRecorder: Sendable {
    private let plan: RunPlan
    private let startedAt: Date
    private let clock: @Sendable () -> Date
    private let state: Mutex<State>

    /// Starts counting a run. `clock` is injectable so tests get exact elapsed times.
    public init(plan: RunPlan, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.plan = plan
        self.startedAt = Timestamp.truncatedToMilliseconds(plan.startedAt)
        self.clock = clock
        self.state = Mutex(State(plan: plan))
    }

    /// Counts one ended URL.
    public func record(_ result: URLResult) {
        let elapsed = clock().timeIntervalSince(startedAt)
        state.withLock { $0.record(result, elapsed: elapsed) }
    }

    /// What a progress line needs: run totals and the time since the start.
    public func progress() -> RunProgress {
        let elapsed = clock().timeIntervalSince(startedAt)
        let totals = state.withLock { state in Totals.sum(state.jobs.map(\.totals)) }
        return RunProgress(totals: totals, elapsedSeconds: max(0, elapsed))
    }

    /// The report of the run so far.
    /// - Parameters:
    ///   - version: prewarm's version string.
    ///   - exitCode: the process exit code; nil derives it: 130 when interrupted, 1 when any URL
    ///     failed, else 0. Pass 3 or 143 yourself when those apply.
    ///   - interrupted: whether a signal stopped the run.
    ///   - endedAt: the end time; nil reads the clock.
    public func report(
        version: String, exitCode: Int? = nil, interrupted: Bool = false, endedAt: Date? = nil
    ) -> RunReport {
        let end = Timestamp.truncatedToMilliseconds(endedAt ?? clock())
        return state.withLock { state in
            let jobsDetail = state.jobs.map { $0.detail }
            let totals = Totals.sum(jobsDetail.map(\.totals))
            var failedByReason: [String: Int] = [:]
            for job in jobsDetail {
                failedByReason.merge(job.failedByReason, uniquingKeysWith: +)
            }
            let code = exitCode ?? (interrupted ? 130 : (totals.failed > 0 ? 1 : 0))
            return RunReport(
                version: version, jobs: state.jobs.map(\.name), startedAt: startedAt, endedAt: end,
                durationSeconds: end.timeIntervalSince(startedAt), shard: plan.shard,
                exitCode: code, interrupted: interrupted, totals: totals, jobsDetail: jobsDetail,
                skippedByReason: ["cached": totals.cached, "blacklisted": totals.blacklisted],
                failedByReason: failedByReason,
                latencyMs: LatencySummary(histogram: state.latency),
                failures: state.failures, failuresTruncated: state.failuresTruncated)
        }
    }
}

/// A moment of a run, for progress lines.
public struct RunProgress: Sendable, Hashable {
    /// Run totals so far (`urls` is the planned total).
    public var totals: Totals
    /// Seconds since the run started.
    public var elapsedSeconds: Double

    /// Creates a progress moment.
    public init(totals: Totals, elapsedSeconds: Double) {
        self.totals = totals
        self.elapsedSeconds = elapsedSeconds
    }
}

extension RunRecorder {
    /// The mutable part, guarded by the recorder's mutex.
    struct State: Sendable {
        var jobs: [JobState] = []
        var jobIndex: [String: Int] = [:]
        var latency = LatencyHistogram()
        var failures: [FailureRecord] = []
        var failuresTruncated = 0

        init(plan: RunPlan) {
            for job in plan.jobs {
                var jobState = JobState(name: job.name)
                for group in job.groups {
                    jobState.addGroup(
                        name: group.name, priority: group.priority, urls: group.urlCount)
                }
                jobIndex[job.name] = jobs.count
                jobs.append(jobState)
            }
        }

        mutating func record(_ result: URLResult, elapsed: Double) {
            let j: Int
            if let known = jobIndex[result.job] {
                j = known
            } else {
                // A result the plan did not announce is still counted, never dropped.
                j = jobs.count
                jobIndex[result.job] = j
                jobs.append(JobState(name: result.job))
            }
            jobs[j].record(result, elapsed: elapsed)
            if result.outcome == .fetched || result.outcome == .revalidated {
                latency.record(result.milliseconds)
            }
            if result.outcome == .failed {
                if failures.count < RunReport.failureListLimit {
                    failures.append(FailureRecord(result))
                } else {
                    failuresTruncated += 1
                }
            }
        }
    }

    struct JobState: Sendable {
        var name: String
        var groups: [GroupDetail] = []
        var groupIndex: [String: Int] = [:]
        var failedByReason: [String: Int] = [:]
        var elapsed: Double = 0

        init(name: String) { self.name = name }

        var totals: Totals { Totals.sum(groups.map(\.totals)) }

        var detail: JobDetail {
            JobDetail(
                job: name, totals: totals, elapsedSeconds: elapsed, failedByReason: failedByReason,
                groups: groups)
        }

        mutating func addGroup(name: String, priority: Priority, urls: Int) {
            var totals = Totals()
            totals.urls = urls
            groupIndex[name] = groups.count
            groups.append(
                GroupDetail(group: name, priority: priority, totals: totals, elapsedSeconds: 0))
        }

        mutating func record(_ result: URLResult, elapsed: Double) {
            if groupIndex[result.group] == nil {
                addGroup(name: result.group, priority: .normal, urls: 0)
            }
            let g = groupIndex[result.group]!
            groups[g].totals.add(result)
            groups[g].elapsedSeconds = max(groups[g].elapsedSeconds, elapsed)
            self.elapsed = max(self.elapsed, elapsed)
            if result.outcome == .failed {
                failedByReason[result.reason?.code ?? "unknown", default: 0] += 1
            }
        }
    }
}
