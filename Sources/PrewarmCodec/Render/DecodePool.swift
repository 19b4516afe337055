import Foundation

/// Decodes, resizes and encodes on its own threads, with a cap on the decoded bytes in flight.
///
/// Why its own threads: decoding a large image takes tens of milliseconds of pure CPU. Run on the
/// Swift cooperative pool it would hold those threads and stall every async task (the loader's
/// callbacks, the scheduler, progress). Here the async caller only suspends.
///
/// Why a byte budget: with high `concurrency` many large images can arrive at once; admission by
/// the probe's estimate (`VariantRenderer.estimatedDecodeBytes`) bounds peak memory. Jobs are
/// admitted in arrival order (a large job is not overtaken forever by small ones); a job larger
/// than the whole budget runs alone.
public final class DecodePool: Sendable {
    private let state: DecodePoolState

    /// `threads` worker threads (default: active processor count); `byteBudget` caps estimated
    /// decoded bytes in flight (default 256 MiB). A job larger than the whole budget runs alone.
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, byteBudget: Int64 = 256 << 20) {
        state = DecodePoolState(byteBudget: max(byteBudget, 1))
        for index in 0..<max(threads, 1) {
            let state = self.state
            let thread = Thread { state.work() }
            thread.name = "prewarm-decode-\(index)"
            thread.start()
        }
    }

    deinit {
        state.shutdown()
    }

    /// `VariantRenderer.render` on the pool. The header probe runs on the caller (it reads a few
    /// header bytes and allocates no pixels); decode, resize and encode run on a pool thread once
    /// the estimate fits the budget. After `shutdown()` it throws `.decode("decode pool is shut down")`.
    public func render(_ bytes: [UInt8], variants: [VariantRequest], options: RenderOptions)
        async throws(CodecError) -> (info: ImageInfo, variants: [RenderedVariant])
    {
        let info = try ImageDecoding.probe(bytes, maxPixels: options.maxPixels)
        let cost = VariantRenderer.estimatedDecodeBytes(info: info, variants: variants, options: options)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<(info: ImageInfo, variants: [RenderedVariant]), CodecError>, Never>) in
            let accepted = state.submit(
                DecodePoolState.Job(cost: cost) {
                    continuation.resume(
                        returning: Result { () throws(CodecError) in
                            try VariantRenderer.render(bytes, info: info, variants: variants, options: options)
                        })
                })
            if !accepted { continuation.resume(returning: .failure(.decode("decode pool is shut down"))) }
        }
        return try result.get()
    }

    /// Stops accepting work. Jobs already queued still run; then the threads exit.
    public func shutdown() {
        state.shutdown()
    }

    /// The most jobs that ever ran at once (for tests of the budget).
    var peakRunningJobs: Int { state.peakRunning }
}

/// The queue and the budget, shared by the pool and its threads.
///
/// `@unchecked Sendable`: every mutable field is read and written only with `condition` locked.
final class DecodePoolState: @unchecked Sendable {
    struct Job {
        let cost: Int64
        let run: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private let byteBudget: Int64
    private var queue: [Job] = []
    private var bytesInFlight: Int64 = 0
    private var running = 0
    private var isShutdown = false
    private var peakRunningValue = 0

    init(byteBudget: Int64) {
        self.byteBudget = byteBudget
    }

    /// Queues a job; false after shutdown.
    func submit(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isShutdown else { return false }
        queue.append(job)
        condition.broadcast()
        return true
    }

    func shutdown() {
        condition.lock()
        isShutdown = true
        condition.broadcast()
        condition.unlock()
    }

    var peakRunning: Int {
        condition.lock()
        defer { condition.unlock() }
        return peakRunningValue
    }

    /// A worker thread's loop: take the head job when it fits the budget (or nothing else runs).
    func work() {
        condition.lock()
        while true {
            if let head = queue.first, running == 0 || bytesInFlight + head.cost <= byteBudget {
                queue.removeFirst()
                bytesInFlight += head.cost
                running += 1
                peakRunningValue = max(peakRunningValue, running)
                condition.unlock()
                head.run()
                condition.lock()
                bytesInFlight -= head.cost
                running -= 1
                condition.broadcast()
                continue
            }
            if isShutdown && queue.isEmpty { break }
            condition.wait()
        }
        condition.unlock()
    }
}
