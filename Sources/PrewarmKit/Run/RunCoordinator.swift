import Foundation
import PrewarmCache
import PrewarmCodec
import PrewarmCore
import PrewarmLoader
import PrewarmManifest
import PrewarmReport

/// Runs one or more manifests as one run: opens the caches and takes the job locks, builds one
/// scheduler over every group, drives URLs through the pipeline, and feeds every outcome to the
/// report sinks. The only place that knows about all the parts (SDWebImagePrefetcher's role).
public final class RunCoordinator: Sendable {
    private let manifests: [Manifest]
    private let options: RunOptions
    private let console: Console

    public init(manifests: [Manifest], options: RunOptions, console: Console = Console()) {
        self.manifests = manifests
        self.options = options
        self.console = console
    }

    /// Runs to the end (or until a signal or a fatal error) and returns the exit code.
    public func run() async -> Int32 {
        // Open every job's cache and lock it; any failure here ends the run before a fetch.
        var jobs: [JobContext] = []
        var locks: [JobLock] = []
        for (index, manifest) in manifests.enumerated() {
            let root = CacheLocation.resolve(
                flag: options.cache, manifestPath: manifest.cache.path, environment: options.environment)
            do {
                let cache = try DiskCache(root: root)
                locks.append(try cache.lockJob(manifest.job))
                jobs.append(JobContext(index: index, manifest: manifest, cache: cache))
            } catch {
                console.error("prewarm: job '\(manifest.job)': \(error.description)")
                if case .lockHeld = error { return ExitCode.locked }
                return ExitCode.environment
            }
        }
        let plan = makePlan(jobs)
        if options.dryRun {
            console.out(DryRunPrinter.describe(plan: plan, jobs: jobs, options: options))
            return ExitCode.success
        }

        let sinks: ReportSinks
        do {
            sinks = try ReportSinks(plan: plan, options: options, console: console)
        } catch {
            console.error("prewarm: \(error)")
            return ExitCode.usage
        }
        let stop = StopSignal()
        if options.handleSignals { stop.watchSignals() }
        let loader: HTTPLoader
        do {
            loader = try HTTPLoader(configuration: loaderConfiguration(jobs))
        } catch {
            console.error("prewarm: cannot start the HTTP loader: \(error)")
            return ExitCode.environment
        }
        defer { loader.shutdown() }
        let decoder = DecodePool(
            threads: ProcessInfo.processInfo.activeProcessorCount, byteBudget: 256 << 20)
        defer { decoder.shutdown() }
        let pipeline = URLPipeline(loader: loader, decoder: decoder) { error in
            stop.stop(.fatal(error.description))
        }
        let sizeGuards = jobs.map { $0.cache.makeSizeGuard(maxSize: $0.manifest.cache.maxSize) }

        sinks.start()
        let driver = Task {
            await self.drive(jobs: jobs, pipeline: pipeline, sinks: sinks, sizeGuards: sizeGuards)
        }
        stop.onStop { driver.cancel() }
        if stop.reason != nil { driver.cancel() }
        await driver.value
        // max_size holds at the end of every run, counting other processes' writes too.
        for sizeGuard in sizeGuards { _ = sizeGuard.finish() }
        withExtendedLifetime(locks) {}

        let reason = stop.reason
        let failed = sinks.recorder.progress().totals.failed > 0
        let code: Int32 =
            reason?.exitCode ?? (failed ? ExitCode.failures : ExitCode.success)
        if case .fatal(let message)? = reason {
            console.error("prewarm: stopped: \(message)")
        }
        sinks.finish(exitCode: code, interrupted: reason?.isSignal ?? false)
        return code
    }

    /// The scheduling loop: one task per URL in flight; the skip path (fresh in cache) is answered
    /// inline without a task, so a warm re-run costs about one stat per URL.
    private func drive(
        jobs: [JobContext], pipeline: URLPipeline, sinks: ReportSinks, sizeGuards: [SizeGuard]
    ) async {
        let scheduler = makeScheduler(jobs)
        await withTaskGroup(of: (WorkItem, URLResult).self) { tasks in
            func fill() {
                while !Task.isCancelled, let item = scheduler.next() {
                    let job = jobs[item.job]
                    switch pipeline.checkCache(item, job: job, wantPaths: sinks.wantsPaths) {
                    case .answered(let result):
                        scheduler.finished(item)
                        sinks.record(result)
                    case .fetch(let state):
                        tasks.addTask { (item, await pipeline.process(item, job: job, cacheState: state)) }
                    }
                }
            }
            fill()
            while let (item, result) = await tasks.next() {
                scheduler.finished(item)
                sinks.record(result)
                if result.bytesWritten > 0 { sizeGuards[item.job].didStore(bytes: result.bytesWritten) }
                fill()
            }
        }
        // Interrupted: every URL not started still ends in exactly one outcome.
        scheduler.drainRemaining { item in
            let job = jobs[item.job]
            sinks.record(
                URLResult(
                    url: Redaction.url(item.url), job: job.name, group: job.groups[item.group].group.name,
                    outcome: .cancelled))
        }
    }

    private func makeScheduler(_ jobs: [JobContext]) -> Scheduler {
        var groups: [ScheduledGroup] = []
        for job in jobs {
            for (index, group) in job.manifest.groups.enumerated() {
                groups.append(
                    ScheduledGroup(
                        job: job.index, group: index, priority: group.priority, order: group.settings.order,
                        limit: group.settings.concurrency, cursor: URLSourceCursor(group.source)))
            }
        }
        let filters = jobs.map(\.keyFilter)
        return Scheduler(
            groups: groups, jobLimits: jobs.map(\.manifest.concurrency), runLimit: options.concurrency,
            shard: options.shard, keyForURL: { job, url in filters[job].key(for: url) })
    }

    /// URL counts per group; with a shard, the URLs of this shard (one pass of hashing).
    private func makePlan(_ jobs: [JobContext]) -> RunPlan {
        let jobPlans = jobs.map { job in
            JobPlan(
                name: job.name,
                groups: job.manifest.groups.map { group in
                    GroupPlan(name: group.name, priority: group.priority, urlCount: count(group, job: job))
                })
        }
        return RunPlan(
            jobs: jobPlans, shard: options.shard.map { ShardInfo(index: $0.index, count: $0.count) },
            startedAt: Date())
    }

    private func count(_ group: Group, job: JobContext) -> Int {
        guard let shard = options.shard else { return group.source.count }
        let cursor = URLSourceCursor(group.source)
        var total = 0
        while let url = cursor.next() {
            if shard.contains(key: job.keyFilter.key(for: url)) { total += 1 }
        }
        return total
    }

    /// `per_host` and `rate` hold per host across the whole run: the strictest value wins.
    private func loaderConfiguration(_ jobs: [JobContext]) -> LoaderConfiguration {
        let settings = jobs.flatMap { $0.manifest.groups.map(\.settings) }
        let perHost = settings.map(\.perHost).min() ?? 6
        let rates = settings.map(\.rate).filter { $0 > 0 }
        return LoaderConfiguration(
            perHostConnections: perHost, perHostRate: rates.min() ?? 0,
            userAgent: "prewarm/\(prewarmVersion)")
    }
}
